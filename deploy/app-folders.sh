#!/bin/sh
# The three images' application folders, each a production install of one app: `pnpm deploy --prod`
# (the app's built files and its runtime dependencies, no dev dependencies), then without what only
# developers read (source maps, type declarations, TypeScript sources, Markdown; licences are kept)
# and without exceljs's browser bundles, which Node never loads (21 MB). The apps must be built first
# (`pnpm build`, or `pnpm turbo run build --filter=<app>...`); the Containerfile's `built-here` stage
# builds them, and a team with a private registry runs this outside and builds with APP_SOURCE=prebuilt.
#
#   sh deploy/app-folders.sh OUTPUT_DIR      (from the repository's root)
set -eu
out=${1:?usage: sh deploy/app-folders.sh OUTPUT_DIR}
pnpm=${PAYSPEC_PNPM:-npx --yes pnpm@10.34.9}
for app in sandbox mock contract-verifier; do
  if [ ! -f "apps/$app/dist/cli.mjs" ]; then
    echo "apps/$app is not built: run 'pnpm build' (or pnpm turbo run build --filter=@payspec/$app...) first." >&2
    exit 2
  fi
done
rm -rf "$out"
mkdir -p "$out"
for app in sandbox mock contract-verifier; do
  # --legacy: pnpm 10 deploys a workspace package without inject-workspace-packages that way.
  $pnpm --filter "@payspec/$app" deploy --prod --legacy --config.confirmModulesPurge=false "$out/$app" >/dev/null
done
find "$out" -type f \( -name '*.map' -o -name '*.ts' -o -name '*.mts' -o -name '*.cts' -o -name '*.md' -o -name '*.markdown' \) \
  ! -iname 'licen[cs]e*' ! -iname 'copying*' -delete
find "$out" -type d -path '*/node_modules/exceljs/dist' -prune -exec rm -rf {} +
du -sh "$out"/* | sed 's/^/app folder: /' >&2

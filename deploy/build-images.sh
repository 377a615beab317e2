#!/bin/sh
# Builds the three images from the Containerfile, each tagged with its package's version:
# payspec/sandbox:<version>, payspec/mock:<version>, payspec/verifier:<version>.
#
#   sh deploy/build-images.sh              installs and builds inside the image (needs the npm registry)
#   sh deploy/build-images.sh --prebuilt   copies app folders made here first (pnpm build, then
#                                          sh deploy/app-folders.sh .payspec-images/apps)
#
# Settings: CONTAINER_ENGINE (docker or podman; default whichever is found), PAYSPEC_NODE_IMAGE (the
# base, default node:24-bookworm-slim), PAYSPEC_IMAGE_PREFIX (default payspec/).
set -eu
cd "$(dirname "$0")/.."
engine=${CONTAINER_ENGINE:-$(command -v podman || command -v docker || true)}
if [ -z "$engine" ]; then
  echo "Neither podman nor docker was found: install one, or set CONTAINER_ENGINE." >&2
  exit 2
fi
source=built-here
if [ "${1:-}" = "--prebuilt" ]; then
  source=prebuilt
  sh deploy/app-folders.sh .payspec-images/apps >&2
fi
prefix=${PAYSPEC_IMAGE_PREFIX:-payspec/}
revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)
# podman writes OCI images by default, which drop HEALTHCHECK: the Docker format keeps it.
format=""
case "$(basename "$engine")" in podman*) format="--format docker" ;; esac
for pair in sandbox:sandbox mock:mock verifier:contract-verifier; do
  target=${pair%%:*}
  version=$(node -p "require('./apps/${pair#*:}/package.json').version")
  # shellcheck disable=SC2086
  "$engine" build $format --target "$target" \
    --build-arg "APP_SOURCE=$source" \
    --build-arg "NODE_IMAGE=${PAYSPEC_NODE_IMAGE:-docker.io/library/node:24-bookworm-slim}" \
    --build-arg "VERSION=$version" --build-arg "REVISION=$revision" \
    -t "$prefix$target:$version" -f Containerfile . >&2
  echo "$prefix$target:$version"
done

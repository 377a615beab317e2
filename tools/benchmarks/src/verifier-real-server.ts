/**
 * `payspec-verify --spec` on the largest real server it is proven on: Unleash (unleash-server from the
 * npm registry, on PostgreSQL; its own OpenAPI 3.0.3 document, 162 paths, 211 operations). Median of
 * three --read-only runs (they leave its data alone, so every round sees the same server), beside a
 * baseline measured in the same run: the very requests the verifier sent (from its cassette), sent
 * again one after another by a plain fetch loop, so the ratio is what generating, checking and
 * reporting cost over the server's own time.
 */
import { readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { medianMs, table } from "@payspec/bench-kit";
import { parseOptions, runVerification } from "@payspec/contract-verifier";
import { startUnleash, UNLEASH_TOKENS } from "@payspec/third-party";

const ROUNDS = 3;
const server = await startUnleash();
const cassette = join(tmpdir(), `payspec-bench-unleash-${process.pid}.jsonl`);
try {
  const args = ["--spec", server.specFile, "--target", server.url, "--base-path", "/", "--read-only"];
  let checks = 0;
  let requests = 0;
  const verifyMs = await medianMs(ROUNDS, async () => {
    await rm(cassette, { force: true });
    const report = await runVerification(parseOptions([...args, ...server.verifyArgs, "--record", cassette]));
    checks = report.results.length;
    requests = report.results.reduce((n, r) => n + r.requests, 0);
  });
  const sent = (await readFile(cassette, "utf8"))
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { method: string; path: string });
  const tokenFor = (path: string) =>
    path.startsWith("/api/client/")
      ? UNLEASH_TOKENS.client
      : path.startsWith("/api/frontend")
        ? UNLEASH_TOKENS.frontend
        : UNLEASH_TOKENS.admin;
  const plainMs = await medianMs(ROUNDS, async () => {
    for (const request of sent) {
      const reply = await fetch(`${server.url}${request.path}`, {
        method: request.method,
        headers: { authorization: tokenFor(request.path) },
      });
      await reply.arrayBuffer();
    }
  });
  console.log(`payspec verify --spec on ${server.release} (211 operations), --read-only, median of ${ROUNDS} runs\n`);
  console.log(
    table(
      ["run", "checks", "requests", "median ms", "checks/s", "plain ms", "x plain"],
      [["verify --read-only", checks, sent.length, verifyMs, checks / (verifyMs / 1000), plainMs, verifyMs / plainMs]],
    ),
  );
  console.log(
    `\nrequests: the last round's cassette (${requests} counted by the checks, the rest the id discovery's list GETs);` +
      " plain ms: the same requests sent again by a plain fetch loop, one after another, in the same run.",
  );
} finally {
  await rm(cassette, { force: true });
  await server.stop();
}

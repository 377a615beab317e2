import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseOptions, UsageError, type VerificationReport } from "../src/index.js";
import { CLI } from "./support/built-cli.js";
import { verifyInlineSpecKeptForRerun } from "./support/inline-spec.js";
import { type LoopbackServer, sendJson, serveOnLoopback } from "./support/loopback-server.js";

/*
 * Reruns that cannot lie (issue: the verifier on a shared staging server): the curl line and the
 * rerun line read one variable with one meaning, so exporting what one needs makes the other right;
 * a rerun whose credential is missing, or refused on every request, exits 2 saying so, never 0.
 */

const run = promisify(execFile);
const TOKEN = "staging-token-7c41e9";

const spec = {
  openapi: "3.1.0",
  info: { title: "Items", version: "1" },
  components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
  security: [{ bearer: [] }],
  paths: {
    "/items": {
      get: {
        operationId: "listItems",
        responses: {
          "200": {
            content: {
              "application/json": {
                schema: { type: "object", required: ["count"], properties: { count: { type: "integer" } } },
              },
            },
          },
          "401": { description: "no credentials" },
        },
      },
    },
  },
};

let server: LoopbackServer;
const received: string[] = [];
beforeAll(async () => {
  // Wrong on purpose: `count` is text, so positive.listItems fails and prints its lines.
  server = await serveOnLoopback((req, res) => {
    received.push(req.headers.authorization ?? "(none)");
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return sendJson(res, 401, { message: "who are you?" });
    sendJson(res, 200, { count: "12" });
  });
});
afterAll(() => server.close());

/** Runs a printed line in a shell, with only these variables set beside PATH. */
const shell = (line: string, env: Record<string, string>) =>
  run("bash", ["--norc", "--noprofile", "-c", line], { env: { PATH: process.env.PATH ?? "", ...env } }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

const lines = (report: VerificationReport) => {
  const violation = report.results.find((r) => r.id === "positive.listItems")?.violations[0];
  return { curl: violation?.reproduce ?? "", rerun: `${process.execPath} ${CLI} ${violation?.rerun ?? ""}` };
};

describe("the printed curl and rerun lines", () => {
  it.each([
    ["--header", `Authorization: Bearer ${TOKEN}`, "AUTHORIZATION", `Bearer ${TOKEN}`],
    ["--auth", `bearer=${TOKEN}`, "BEARER", TOKEN],
  ])("read one variable with one meaning (%s)", async (flag, value, variable, exported) => {
    const report = await verifyInlineSpecKeptForRerun(spec, server.url, flag, value);
    const { curl, rerun } = lines(report);
    expect(curl).toContain(`$${variable}`);
    expect(rerun).toContain(`$${variable}`);
    expect(`${curl} ${rerun}`).not.toContain(TOKEN);

    // Export what the curl line needs: the curl line is let in, and the rerun fails as the run did.
    received.length = 0;
    const byCurl = await shell(curl, { [variable]: exported });
    expect(byCurl.stdout).toBe('{"count":"12"}');
    expect(received).toEqual([`Bearer ${TOKEN}`]);
    const again = await shell(rerun, { [variable]: exported });
    expect(again.code, again.stderr).toBe(1);
    expect(again.stdout).toContain("/count must be integer");
  });

  it("exit 2 for a rerun whose credential is refused on every request, never 0", async () => {
    const report = await verifyInlineSpecKeptForRerun(spec, server.url, "--header", `Authorization: Bearer ${TOKEN}`);
    const wrong = await shell(lines(report).rerun, { AUTHORIZATION: TOKEN });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(
      /every one of the \d+ requests that carried the run's credentials was refused \(401 or 403\)/,
    );
    expect(wrong.stderr).toContain("Set $AUTHORIZATION");
    expect(wrong.stderr).not.toMatch(/\n\s+at /);
  });

  it("exit 2 for a rerun whose variable is not set", async () => {
    const report = await verifyInlineSpecKeptForRerun(spec, server.url, "--header", `Authorization: Bearer ${TOKEN}`);
    const unset = await shell(lines(report).rerun, {});
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain("--header authorization has no value: if it comes from a variable ($AUTHORIZATION");
    for (const given of ["Authorization:", "Authorization: Bearer ", "Authorization:   "])
      expect(() => parseOptions(["--spec", "s.json", "--target", server.url, "--header", given])).toThrow(UsageError);
    expect(() => parseOptions(["--spec", "s.json", "--target", server.url, "--auth", "bearer="])).toThrow(
      "--auth bearer has no value: if it comes from a variable ($BEARER in the printed lines), set it first",
    );
  });
});

import { fileURLToPath } from "node:url";
import { type FaultProxy, startFaultProxy } from "@payspec/fault-proxy";
import { type RunningSandbox, startSandbox } from "@payspec/sandbox";
import { specPath } from "@payspec/specs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseOptions, runVerification, type VerificationReport } from "../src/index.js";
import { startPrismOf } from "./prism-of-spec.js";

const petstore = fileURLToPath(new URL("./fixtures/petstore-expanded.yaml", import.meta.url));

let prism: Awaited<ReturnType<typeof startPrismOf>>;
let proxy: FaultProxy;
let sandbox: RunningSandbox;

beforeAll(async () => {
  prism = await startPrismOf(petstore);
  proxy = await startFaultProxy(prism.url);
  sandbox = await startSandbox();
});
afterAll(async () => {
  await proxy.close();
  await prism.close();
  await sandbox.close();
});

const failed = (report: VerificationReport) =>
  Object.fromEntries(
    report.results
      .filter((r) => r.status === "failed" || r.status === "error")
      .map((r) => [r.id, r.violations.map((v) => `${v.expected} | ${v.actual}`).join("\n") || r.note]),
  );

describe("--spec: any OpenAPI document, with no knowledge of payments", () => {
  it("passes the Prism mock of the OpenAPI Initiative's petstore (3.0), with every operation checked", async () => {
    // Prism serves the paths at its root, not under the spec's server path (/api).
    const report = await runVerification(parseOptions(["--spec", petstore, "--target", prism.url, "--base-path", "/"]));
    expect(failed(report)).toEqual({});
    const ids = report.results.map((r) => r.id);
    for (const op of ["findPets", "addPet", "find-pet-by-id", "deletePet"]) expect(ids).toContain(`positive.${op}`);
    expect(ids).toContain("negative.addPet");
    // Negative cases from the constraints: a missing required name, a wrong type for the path id.
    const negatives = report.coverage?.operations.find((o) => o.operation === "POST /pets");
    expect(negatives?.constraintsExercised).toBeGreaterThan(0);
    expect(negatives?.constraintsExercised).toBe(negatives?.constraintsFound);
    // The petstore declares no security, so there is nothing to authenticate.
    expect(ids.some((id) => id.startsWith("auth."))).toBe(false);
  });

  it("fails through a fault proxy, by the check that should catch the fault", async () => {
    proxy.inject({
      when: (r) => r.method === "GET" && /^\/pets\/-?\d+/.test(r.url),
      fault: { kind: "rewrite", rewrite: ({ name: _dropped, ...pet }) => pet },
    });
    proxy.inject({
      when: (r) => r.method === "POST" && r.url === "/pets" && !r.body.includes('"name"'),
      fault: { kind: "respond", status: 201, body: { id: 1, name: "accepted anyway" } },
    });
    try {
      const report = await runVerification(
        parseOptions(["--spec", petstore, "--target", proxy.url, "--base-path", "/"]),
      );
      const failures = failed(report);
      expect(failures["positive.find-pet-by-id"]).toContain("must have required property 'name'");
      expect(failures["negative.addPet"]).toContain("a declared 4xx in the API's error shape, for body (root)");
      expect(Object.keys(failures).sort()).toEqual([
        "generated.find-pet-by-id",
        "negative.addPet",
        "positive.find-pet-by-id",
      ]);
    } finally {
      proxy.clear();
    }
  });

  it("derives the auth checks from the declared security schemes (3.1, bearer), against the sandbox", async () => {
    // Knowing nothing of payments, a --spec run cannot name the workspace's accounts: the sandbox
    // rightly refuses every payment it makes up (400 account_not_found), which positive.createPayment
    // reports as valid data refused. The payspec profiles know better; this test is about auth.
    const options = [
      ...["--spec", specPath("payments-accounts"), "--target", sandbox.url, "--profile", "behaviour"],
      ...["--exclude-checks", "positive.createPayment"],
    ];
    const report = await runVerification(
      parseOptions([...options, "--header", "Authorization: Bearer sk_sandbox_demo_1"]),
    );
    expect(failed(report)).toEqual({});
    const auth = report.results.filter((r) => r.id.startsWith("auth."));
    expect(auth.map((r) => r.id)).toContain("auth.missing.createPayment");
    expect(auth.map((r) => r.id)).toContain("auth.invalid.createPayment");
    // Cancelling (DELETE) names a payment, and the run cancels only one it made itself: a --spec run cannot
    // make one here (its made-up accounts are refused), so those checks are skipped, saying why.
    const cancel = auth.filter((r) => r.id.endsWith(".cancelPayment"));
    expect(cancel.map((r) => r.status)).toEqual(["skipped", "skipped"]);
    expect(cancel[0]?.note).toContain(
      "DELETE /v1/payments/{id} deletes, and this run acts only on what it created itself: creating one first (POST /v1/payments) gave no id",
    );
    expect(auth.filter((r) => !cancel.includes(r)).every((r) => r.status === "passed")).toBe(true);
  });

  it("says what to fix when the spec cannot be used", async () => {
    await expect(runVerification(parseOptions(["--spec", "/nope.yaml", "--target", prism.url]))).rejects.toThrow(
      "cannot read --spec /nope.yaml: ENOENT",
    );
    const notOpenApi = fileURLToPath(new URL("../package.json", import.meta.url));
    await expect(runVerification(parseOptions(["--spec", notOpenApi, "--target", prism.url]))).rejects.toThrow(
      "is not an OpenAPI document; give an OpenAPI 3.0 or 3.1 spec",
    );
  });
});

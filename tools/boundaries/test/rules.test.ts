import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
// The package exports no package.json: its bin sits beside the main entry's folder.
const depcruise = fileURLToPath(
  new URL("../node_modules/dependency-cruiser/bin/dependency-cruise.mjs", import.meta.url),
);

/** A small project laid out as this repository is, with the repository's own rules and tsconfig base. */
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "payspec-boundaries-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, ".dependency-cruiser.cjs"), readFileSync(join(ROOT, ".dependency-cruiser.cjs")));
  writeFileSync(join(dir, "tsconfig.base.json"), readFileSync(join(ROOT, "tsconfig.base.json")));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** The lint's own command on that project: its exit code and what it printed. */
function lint(dir: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      [depcruise, "--config", ".dependency-cruiser.cjs", "apps", "packages"],
      { cwd: dir },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, out: stdout + stderr }),
    ),
  );
}

describe("the repository's boundaries", () => {
  it("passes a project that keeps them", async () => {
    const dir = project({
      "packages/kit/src/index.ts": "export const one = 1;\n",
      "apps/web/src/index.ts":
        'import { one } from "../../../packages/kit/src/index.js";\nexport const two = one + 1;\n',
    });
    expect(await lint(dir)).toMatchObject({ code: 0 });
  });

  it("fails on an import cycle, type-only imports included", async () => {
    const dir = project({
      "packages/kit/src/index.ts": "export const one = 1;\n",
      "apps/web/src/clock.ts": 'import type { Store } from "./store.js";\nexport const tick = (s: Store) => s;\n',
      "apps/web/src/store.ts": 'import { tick } from "./clock.js";\nexport type Store = { t: typeof tick };\n',
    });
    const { code, out } = await lint(dir);
    expect(code).not.toBe(0);
    expect(out).toContain("no-circular");
  });

  it("fails when a package imports an app, or an app's code another app", async () => {
    const dir = project({
      "apps/sandbox/src/clock.ts": "export const now = () => 0;\n",
      "packages/kit/src/index.ts": 'export { now } from "../../../apps/sandbox/src/clock.js";\n',
      "apps/mock/src/index.ts": 'export { now } from "../../sandbox/src/clock.js";\n',
    });
    const { code, out } = await lint(dir);
    expect(code).not.toBe(0);
    expect(out).toContain("packages-not-apps");
    expect(out).toContain("apps-not-other-apps");
  });

  it("lets a sandbox feature reach another only through its index.ts, and the infrastructure reach none", async () => {
    const keeps = project({
      "packages/kit/src/index.ts": "export const one = 1;\n",
      "apps/sandbox/src/payments/seed.ts": "export const seed = 1;\n",
      "apps/sandbox/src/payments/index.ts": 'export { seed } from "./seed.js";\n',
      "apps/sandbox/src/infrastructure/clock/clock.ts": "export const now = () => 0;\n",
      "apps/sandbox/src/mail/mailer.ts":
        'import { seed } from "../payments/index.js";\nimport { now } from "../infrastructure/clock/clock.js";\nexport const mail = seed + now();\n',
      "apps/sandbox/src/app/server.ts":
        'import { mail } from "../mail/mailer.js";\nimport { seed } from "../payments/seed.js";\nexport const app = mail + seed;\n',
    });
    expect(await lint(keeps)).toMatchObject({ code: 0 });

    const breaks = project({
      "packages/kit/src/index.ts": "export const one = 1;\n",
      "apps/sandbox/src/payments/seed.ts": "export const seed = 1;\n",
      "apps/sandbox/src/payments/index.ts": 'export { seed } from "./seed.js";\n',
      "apps/sandbox/src/mail/mailer.ts": 'import { seed } from "../payments/seed.js";\nexport const mail = seed;\n',
      "apps/sandbox/src/infrastructure/clock/clock.ts":
        'import { mail } from "../../mail/mailer.js";\nexport const now = () => mail;\n',
      "apps/sandbox/src/app/server.ts": "export const app = 1;\n",
      "apps/sandbox/src/faults/faults.ts": 'import { app } from "../app/server.js";\nexport const fault = app;\n',
    });
    const { code, out } = await lint(breaks);
    expect(code).not.toBe(0);
    expect(out).toContain("sandbox-feature-through-index");
    expect(out).toContain("sandbox-infrastructure-knows-no-feature");
    expect(out).toContain("sandbox-nothing-imports-the-app");
  });

  it("lets a feature's SQL reach another feature only through its store contract's types", async () => {
    const payments = {
      "packages/kit/src/index.ts": "export const one = 1;\n",
      "apps/sandbox/src/payments/payments-store.ts": "export interface PaymentsStore { reconcile(): Promise<void> }\n",
      "apps/sandbox/src/payments/payment-columns.ts": 'export const PAYMENT_COLUMNS = "seq, id";\n',
      "apps/sandbox/src/payments/index.ts":
        'export type { PaymentsStore } from "./payments-store.js";\nexport { PAYMENT_COLUMNS } from "./payment-columns.js";\n',
    };
    const keeps = project({
      ...payments,
      "apps/sandbox/src/reconciliation/postgres-reconciliation-store.ts":
        'import type { PaymentsStore } from "../payments/index.js";\nexport const reconcile = (p: PaymentsStore) => p.reconcile();\n',
    });
    expect(await lint(keeps)).toMatchObject({ code: 0 });

    const breaks = project({
      ...payments,
      "apps/sandbox/src/reconciliation/postgres-reconciliation-store.ts":
        'import { PAYMENT_COLUMNS } from "../payments/index.js";\nexport const sql = `SELECT ${PAYMENT_COLUMNS} FROM payments`;\n',
    });
    const { code, out } = await lint(breaks);
    expect(code).not.toBe(0);
    expect(out).toContain("sandbox-sql-stays-in-its-feature");
  });

  it("lets a feature's index.ts offer its stores' opener and contract, never a store class", async () => {
    const feature = {
      "packages/kit/src/index.ts": "export const one = 1;\n",
      "apps/sandbox/src/payments/payments-store.ts": "export interface PaymentsStore { list(): string[] }\n",
      "apps/sandbox/src/payments/memory-payments-store.ts":
        'import type { PaymentsStore } from "./payments-store.js";\nexport class MemoryPaymentsStore implements PaymentsStore { list() { return []; } }\n',
      "apps/sandbox/src/payments/open-payments-stores.ts":
        'import { MemoryPaymentsStore } from "./memory-payments-store.js";\nexport const openPaymentsStores = () => ({ payments: new MemoryPaymentsStore() });\n',
      "apps/sandbox/src/app/open-stores.ts":
        'import { openPaymentsStores } from "../payments/index.js";\nexport const stores = openPaymentsStores();\n',
    };
    const keeps = project({
      ...feature,
      "apps/sandbox/src/payments/index.ts":
        'export type { PaymentsStore } from "./payments-store.js";\nexport type { MemoryPaymentsStore } from "./memory-payments-store.js";\nexport { openPaymentsStores } from "./open-payments-stores.js";\n',
    });
    expect(await lint(keeps)).toMatchObject({ code: 0 });

    const breaks = project({
      ...feature,
      "apps/sandbox/src/payments/index.ts":
        'export { MemoryPaymentsStore } from "./memory-payments-store.js";\nexport { openPaymentsStores } from "./open-payments-stores.js";\n',
    });
    const { code, out } = await lint(breaks);
    expect(code).not.toBe(0);
    expect(out).toContain("sandbox-index-exports-no-store-internals");

    // A store class in a room of its feature (payments/store/memory/) is no less a store class.
    const inARoom = project({
      "packages/kit/src/index.ts": "export const one = 1;\n",
      "apps/sandbox/src/payments/store/memory/memory-payments-store.ts": "export class MemoryPaymentsStore {}\n",
      "apps/sandbox/src/payments/index.ts":
        'export { MemoryPaymentsStore } from "./store/memory/memory-payments-store.js";\n',
    });
    const roomed = await lint(inARoom);
    expect(roomed.code).not.toBe(0);
    expect(roomed.out).toContain("sandbox-index-exports-no-store-internals");
  });
});

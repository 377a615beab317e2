import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freshDatabase } from "../../../../test/support/test-stores.js";
import { migrate, migrations } from "../../../infrastructure/postgres/migrate.js";
import { openWorkspaceSetting, type SettingDefinition } from "../../index.js";

/**
 * The settings every feature keeps through the workspaces feature: a row of `workspace_settings` per
 * setting that differs from its default, copied from the columns the last releases kept them in, and
 * kept in step with those columns while an older instance still writes them (a rolling upgrade).
 */
let db: pg.Pool;
const backend = () => ({ kind: "postgres" as const, pool: db, storedWorkspaceId: (key: string) => `stored:${key}` });
const AUTO_SETTLEMENT: SettingDefinition<boolean> = { name: "auto_settlement", fallback: true };
const RECIPIENTS: SettingDefinition<readonly string[]> = { name: "report_recipients", fallback: [] };
const rows = async (workspace: string) =>
  (
    await db.query<{ name: string; value: unknown }>(
      "SELECT name, value FROM workspace_settings WHERE workspace = $1 ORDER BY name",
      [workspace],
    )
  ).rows.map((r) => [r.name, r.value]);

beforeAll(async () => {
  db = new pg.Pool({ connectionString: await freshDatabase(), max: 2 });
  // A database as the releases before 0017 left it: one workspace with every setting changed, one without.
  await migrate(
    db,
    migrations().filter((m) => m.version < 17),
  );
  await db.query(`INSERT INTO workspaces (workspace, approval_workflow, approval_four_eyes, auto_settlement,
      report_recipients, mail_language, statement_mappings)
    VALUES ('stored:changed', true, true, false, '["muhasebe@örnek.com.tr"]', '"tr"', '[{"name":"İş Bankası"}]')`);
  await db.query("INSERT INTO workspaces (workspace) VALUES ('stored:untouched')");
  await migrate(db);
});
afterAll(async () => {
  await db.end();
});

it("copies each changed setting out of its column into a row, and none that kept its default", async () => {
  expect(await rows("stored:changed")).toEqual([
    ["approval_four_eyes", true],
    ["approval_workflow", true],
    ["auto_settlement", false],
    ["mail_language", "tr"],
    ["report_recipients", ["muhasebe@örnek.com.tr"]],
    ["statement_mappings", [{ name: "İş Bankası" }]],
  ]);
  expect(await rows("stored:untouched")).toEqual([]);
  expect(await openWorkspaceSetting(backend(), AUTO_SETTLEMENT).get("changed")).toBe(false);
  expect(await openWorkspaceSetting(backend(), AUTO_SETTLEMENT).get("untouched")).toBe(true);
});

it("sets, reads and clears a setting by the workspace's stored key; a workspace not seeded keeps nothing", async () => {
  const recipients = openWorkspaceSetting(backend(), RECIPIENTS);
  await recipients.set("untouched", ["şule@örnek.com.tr", "ığdır@örnek.com.tr"]);
  expect(await recipients.get("untouched")).toEqual(["şule@örnek.com.tr", "ığdır@örnek.com.tr"]);
  await recipients.set("never-seeded", ["x@örnek.com.tr"]);
  expect(await recipients.get("never-seeded")).toEqual([]);
  await recipients.clear("untouched");
  expect(await recipients.get("untouched")).toEqual([]);
  expect(await recipients.get("changed")).toEqual(["muhasebe@örnek.com.tr"]);
  await recipients.clear();
  expect(await recipients.get("changed")).toEqual([]);
  expect((await rows("stored:changed")).map(([name]) => name)).not.toContain("report_recipients");
});

it("follows what an older instance writes to the column during a rolling upgrade; payments' counters fire nothing", async () => {
  const settlement = openWorkspaceSetting(backend(), AUTO_SETTLEMENT);
  await db.query("UPDATE workspaces SET auto_settlement = false WHERE workspace = 'stored:untouched'");
  expect(await settlement.get("untouched")).toBe(false);
  // An older instance's reset of the setting: back to its column's default, and so to the default here.
  await db.query("UPDATE workspaces SET auto_settlement = DEFAULT WHERE workspace = 'stored:untouched'");
  expect(await settlement.get("untouched")).toBe(true);
  const before = await rows("stored:untouched");
  await db.query("UPDATE workspaces SET version = version + 1, payment_count = payment_count + 1");
  expect(await rows("stored:untouched")).toEqual(before);
});

it("goes with its workspace: a workspace deleted (a reset) takes its settings along", async () => {
  await db.query("DELETE FROM workspaces WHERE workspace = 'stored:changed'");
  expect(await rows("stored:changed")).toEqual([]);
});

import { fileURLToPath } from "node:url";
import { type PostgresServer, startPostgres } from "@payspec/test-postgres";
import { freePort, type ServerProcess, startProcess } from "@payspec/third-party";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildLastRelease, type Release } from "./support/last-release.js";

/**
 * A rolling upgrade, as Kubernetes does one (maxUnavailable 0): the last release, built from its git
 * tag, and this working tree serve one PostgreSQL at once under a create and list load, the old
 * instances replaced one at a time (each taken out of the balancer, drained by SIGTERM, its
 * replacement ready first). No request is answered 5xx but a 503 with Retry-After, no acknowledged
 * create is lost, none is completed twice, and the balances are their seed plus the completed payments.
 */
const CURRENT_CLI = fileURLToPath(new URL("../../apps/sandbox/dist/cli.mjs", import.meta.url));
const KEY = "sk_sandbox_demo_1";
const SECRET = "rolling-upgrade-secret-shared-by-every-instance";

let release: Release;
let server: PostgresServer;
let databaseUrl: string;
const running: ServerProcess[] = [];

interface Instance {
  readonly name: string;
  readonly url: string;
  readonly process: ServerProcess;
}

async function start(name: string, cli: string): Promise<Instance> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = await startProcess(process.execPath, [cli, "--port", String(port)], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      PAYSPEC_DATABASE_URL: databaseUrl,
      PAYSPEC_SANDBOX_SECRET: SECRET,
      PAYSPEC_SAMPLE_PAYMENTS: "off",
      PAYSPEC_COMPLETE_AFTER_SECONDS: "1",
    },
    // Ready as Kubernetes asks: /readyz, the database at a schema this instance serves.
    ready: async () => (await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) })).status === 200,
    ms: 120_000,
    name,
  });
  running.push(started);
  return { name, url, process: started };
}

/** SIGTERM, and the exit code once the drain is over (bounded: the sandbox exits within 25 s). */
async function drained(instance: Instance): Promise<number | null> {
  const { child } = instance.process;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.kill("SIGTERM");
  return exited;
}

beforeAll(async () => {
  release = await buildLastRelease();
  server = await startPostgres();
  databaseUrl = await server.createDatabase();
}, 900_000);
afterAll(async () => {
  for (const instance of running) await instance.stop();
  await server?.stop();
});

interface Answer {
  readonly status: number;
  readonly retryAfter: string | null;
  readonly instance: string;
}

it("replaces the last release's instances one at a time under load: no 5xx but a draining 503, nothing lost or done twice", async () => {
  const old1 = await start("old-1", release.cli);
  const old2 = await start("old-2", release.cli);
  // What the balancer sends to: an instance leaves it before its SIGTERM (the preStop wait) and joins
  // it once ready.
  let live: Instance[] = [old1, old2];
  const accounts = (await (
    await fetch(`${old1.url}/v1/accounts`, { headers: { authorization: `Bearer ${KEY}` } })
  ).json()) as {
    id: string;
    currency: string;
  }[];
  const [from, to] = accounts.filter((a) => a.currency === "TRY").map((a) => a.id);

  const answers: Answer[] = [];
  const acknowledged = new Set<string>();
  let stopped = false;
  let n = 0;
  let turn = 0;
  const send = async (method: string, path: string, body?: unknown): Promise<Response> => {
    // A connection refused was never a request: the client (or the balancer) sends it to the next one.
    for (let attempt = 0; ; attempt++) {
      const instance = live[turn++ % live.length] as Instance;
      try {
        const response = await fetch(`${instance.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${KEY}`, ...(body ? { "content-type": "application/json" } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
          signal: AbortSignal.timeout(15_000),
        });
        answers.push({
          status: response.status,
          retryAfter: response.headers.get("retry-after"),
          instance: instance.name,
        });
        return response;
      } catch (error) {
        const code = (error as { cause?: { code?: string } }).cause?.code;
        if (code !== "ECONNREFUSED" || attempt >= 3) throw error;
      }
    }
  };
  const client = async () => {
    for (let round = 0; round < 5_000 && !stopped; round++) {
      const reference = `ROLL-${++n}`;
      const created = await send("POST", "/v1/payments", {
        amount: 7,
        currency: "TRY",
        method: "eft",
        from_account: from,
        to_account: to,
        reference,
      });
      if (created.status === 201) acknowledged.add(reference);
      await created.arrayBuffer();
      await (await send("GET", "/v1/payments?limit=10")).arrayBuffer();
    }
  };
  const clients = Promise.all(Array.from({ length: 4 }, client));
  const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  await settle(1_500);
  // One at a time: the new instance first (it migrates the database, if its release brings migrations),
  // then an old one out of the balancer, drained, gone.
  const new1 = await start("new-1", CURRENT_CLI);
  live = [...live, new1];
  // The old release serves on beside the new one's schema.
  expect((await fetch(`${old2.url}/readyz`)).status).toBe(200);
  await settle(1_000);
  live = live.filter((i) => i !== old1);
  await settle(200);
  expect(await drained(old1)).toBe(0);
  await settle(1_000);

  const new2 = await start("new-2", CURRENT_CLI);
  live = [...live, new2];
  await settle(1_000);
  live = live.filter((i) => i !== old2);
  await settle(200);
  expect(await drained(old2)).toBe(0);
  await settle(1_500);
  stopped = true;
  await clients;

  expect(answers.length).toBeGreaterThan(200);
  expect(new Set(answers.map((a) => a.instance))).toEqual(new Set(["old-1", "old-2", "new-1", "new-2"]));
  const serverErrors = answers.filter((a) => a.status >= 500 && !(a.status === 503 && Number(a.retryAfter) >= 1));
  expect(serverErrors).toEqual([]);

  const db = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    // Every acknowledged create is stored, once.
    const stored = await db.query<{ reference: string; n: string }>(
      "SELECT reference, count(*) AS n FROM payments WHERE reference = ANY($1) GROUP BY reference",
      [[...acknowledged]],
    );
    expect(stored.rowCount).toBe(acknowledged.size);
    expect(stored.rows.filter((r) => Number(r.n) !== 1)).toEqual([]);
    // Every payment due completes, each once, whichever release's loop took it.
    const deadline = Date.now() + 30_000;
    while (
      (await db.query("SELECT 1 FROM payments WHERE status = 'pending' LIMIT 1")).rowCount &&
      Date.now() < deadline
    )
      await settle(250);
    expect((await db.query("SELECT count(*) AS n FROM payments WHERE status = 'pending'")).rows[0].n).toBe("0");
    const twice = await db.query(
      "SELECT seq, status FROM payment_history GROUP BY workspace, seq, status HAVING count(*) > 1",
    );
    expect(twice.rows).toEqual([]);
    const completed = Number(
      (await db.query("SELECT count(*) AS n FROM payments WHERE status IN ('completed', 'settled', 'reconciled')"))
        .rows[0].n,
    );
    expect(completed).toBe(acknowledged.size);
  } finally {
    await db.end();
  }
  const before = accounts.filter((a) => a.id === from || a.id === to) as { id: string; balance?: number }[];
  const after = (await (
    await fetch(`${new2.url}/v1/accounts`, { headers: { authorization: `Bearer ${KEY}` } })
  ).json()) as {
    id: string;
    balance: number;
  }[];
  const minor = (list: readonly { id: string; balance?: number }[], id: string | undefined) =>
    Math.round((list.find((a) => a.id === id)?.balance ?? Number.NaN) * 100);
  expect(minor(after, from)).toBe(minor(before, from) - 7 * acknowledged.size);
  expect(minor(after, to)).toBe(minor(before, to) + 7 * acknowledged.size);
}, 300_000);

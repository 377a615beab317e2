import { afterAll, beforeAll, expect, it } from "vitest";
import { type Harness, harness, KEY } from "../../../test/support/harness.js";
import { onPostgres } from "../../../test/support/test-stores.js";

/** `/healthz`, `/readyz` and `/metrics` as an orchestrator and Prometheus read them, on both stores. */
let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

/** One sample's value from the Prometheus text format, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

it("answers /healthz and /readyz without a key, and says ready once the stores and background loops are", async () => {
  const health = await fetch(`${h.url}/healthz`);
  expect(health.status).toBe(200);
  expect(await health.json()).toEqual({ status: "ok" });
  expect(health.headers.get("cache-control")).toBe("no-store");
  const ready = await fetch(`${h.url}/readyz`);
  expect(await ready.json()).toEqual({ status: "ready" });
  expect(ready.status).toBe(200);
});

it("counts requests by route template and status in the Prometheus format, never by URL", async () => {
  for (let n = 0; n < 3; n++) expect((await h.call("GET", "/v1/accounts", { key: KEY })).status).toBe(200);
  const missing = await h.call("GET", "/v1/payments/pay_doesNotExist7", { key: KEY });
  expect(missing.status).toBe(404);
  const answer = await fetch(`${h.url}/metrics`);
  expect(answer.status).toBe(200);
  expect(answer.headers.get("content-type")).toContain("text/plain; version=0.0.4");
  const text = await answer.text();
  const accounts =
    'payspec_sandbox_http_request_duration_seconds_count{method="GET",route="/v1/accounts",status="200"}';
  expect(sample(text, accounts)).toBe(3);
  expect(
    sample(
      text,
      'payspec_sandbox_http_request_duration_seconds_count{method="GET",route="/v1/payments/:id",status="404"}',
    ),
  ).toBe(1);
  // The id a request named is never a label: a million ids would be a million series.
  expect(text).not.toContain("pay_doesNotExist7");
  expect(text).not.toContain(KEY);
});

it("shows each background loop running and how long ago it last ran; the database pool on PostgreSQL", async () => {
  // The loops run at start and then every fraction of a second: wait (bounded) for a first run of each.
  let text = "";
  for (let tries = 0; tries < 100; tries++) {
    text = await (await fetch(`${h.url}/metrics`)).text();
    if (text.includes('payspec_sandbox_background_loop_seconds_since_run{loop="exports"}')) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  for (const loop of ["payments-due", "exports", "scheduled-reports"]) {
    expect(sample(text, `payspec_sandbox_background_loop_running{loop="${loop}"}`), loop).toBe(1);
    expect(sample(text, `payspec_sandbox_background_loop_runs_total{loop="${loop}",outcome="failed"}`), loop).toBe(0);
    expect(
      sample(text, `payspec_sandbox_background_loop_runs_total{loop="${loop}",outcome="ok"}`),
      loop,
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, `payspec_sandbox_background_loop_seconds_since_run{loop="${loop}"}`),
      loop,
    ).toBeGreaterThanOrEqual(0);
  }
  // The payments due and not completed yet: none here (nothing was made), but the series is there.
  expect(sample(text, 'payspec_sandbox_background_due_backlog{loop="payments-due"}')).toBe(0);
  // Runs only ever grow: a counter, named as Prometheus names counters.
  expect(text).toContain("# TYPE payspec_sandbox_background_loop_runs_total counter");
  const total = sample(text, 'payspec_sandbox_database_pool_connections{state="total"}');
  if (onPostgres()) expect(total).toBeGreaterThan(0);
  else expect(total).toBeUndefined();
  // The process's own metrics are the CLI's: several sandboxes in one process would each add a timer.
  expect(text).not.toContain("payspec_sandbox_process_cpu");
});

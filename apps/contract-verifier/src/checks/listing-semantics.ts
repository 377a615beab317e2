import { resolveRef } from "@payspec/specs";
import type { Check, CheckRun } from "../check.js";
import { expectSuccess } from "./expectations.js";

interface Listed {
  readonly id: string;
  readonly status: string;
  readonly created_at: string;
  readonly [field: string]: unknown;
}

interface Page {
  readonly data: Listed[];
  readonly pagination: { total: number; limit: number; has_more: boolean; next_cursor?: string };
}

const MAX_PAGES = 200;

/** Walks a listing from `query`, checking every page's size against `limit`; returns the records. */
async function walk(run: CheckRun, query: string, limit?: number): Promise<Listed[] | undefined> {
  const records: Listed[] = [];
  let path = `/v1/payments?${query}`;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const reply = await run.send({ method: "GET", path });
    if (!expectSuccess(run, "payments", reply)) return undefined;
    const page = reply.body as Page;
    records.push(...page.data);
    if (limit !== undefined) {
      run.expect(page.data.length <= limit && (!page.pagination.has_more || page.data.length === limit), {
        expected: `pages of exactly ${limit} records (the last one at most ${limit}), cursor pages included`,
        actual: `${page.data.length} records with has_more ${page.pagination.has_more}`,
        exchange: reply,
      });
    }
    if (!page.pagination.has_more || !page.pagination.next_cursor) return records;
    path = `/v1/payments?cursor=${encodeURIComponent(page.pagination.next_cursor)}`;
  }
  run.expect(false, { expected: `a listing that ends within ${MAX_PAGES} pages`, actual: "it did not end" });
  return records;
}

type SpecNode = Record<string, unknown> & { $ref?: string };

/** The declared query filters of GET /v1/payments (every parameter but paging), from the spec. */
function declaredFilters(spec: object): { name: string; schema: SpecNode }[] {
  const deref = (node: SpecNode | undefined) =>
    node ? (resolveRef(spec as SpecNode, node, [])[0] as SpecNode) : undefined;
  const paths = (spec as { paths?: Record<string, { get?: { parameters?: SpecNode[] } }> }).paths;
  const params = (paths?.["/v1/payments"]?.get?.parameters ?? []).map(deref) as (SpecNode & {
    in?: string;
    name?: string;
    schema?: SpecNode;
  })[];
  return params
    .filter((p) => p?.in === "query" && typeof p.name === "string" && !["limit", "cursor"].includes(p.name))
    .map((p) => ({ name: p.name as string, schema: { ...p.schema, ...deref(p.schema) } }));
}

/** Whether a record matches `name=value`: `from`/`to` bound the UTC date of created_at; others compare the field. */
function matches(record: Listed, name: string, value: string): boolean {
  const day = String(record.created_at).slice(0, 10);
  if (name === "from") return day >= value;
  if (name === "to") return day <= value;
  return String(record[name]) === value;
}

/** Listing semantics: page sizes hold on every page, and every declared filter filters. */
export function listingChecks(): Check[] {
  return [
    {
      id: "pagination.page-size",
      title: "small limits (2, 3) hold on every page, cursor pages included, with no record twice",
      api: "payments",
      profile: "behaviour",
      operation: "GET /v1/payments",
      async run(run) {
        const pair = await run.ctx.accountPair();
        if (!pair) return run.skip("the workspace has no two accounts of one currency to pay between");
        const payment = {
          amount: 250,
          currency: pair.currency,
          method: "eft",
          from_account: pair.from,
          to_account: pair.to,
        };
        const created = await run.send({
          method: "POST",
          path: "/v1/payments/batch",
          json: { payments: Array(7).fill(payment) },
        });
        if (!expectSuccess(run, "payments", created)) return;
        for (const limit of [2, 3]) {
          const records = await walk(run, `limit=${limit}`, limit);
          const ids = (records ?? []).map((r) => r.id);
          const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
          run.expect(repeated.length === 0, {
            expected: `a walk with limit=${limit} that never repeats a record`,
            actual: `${repeated.length} repeated`,
          });
        }
      },
    },
    {
      id: "filters.filter",
      title: "every declared filter of GET /v1/payments filters: all records match, none that match is missing",
      api: "payments",
      profile: "behaviour",
      operation: "GET /v1/payments",
      async run(run) {
        const pair = await run.ctx.accountPair();
        if (!pair) return run.skip("the workspace has no two accounts of one currency to pay between");
        const base = { currency: pair.currency, from_account: pair.from, to_account: pair.to };
        const batch = ["eft", "card", "bank_transfer"].map((method, i) => ({ ...base, amount: 300 + i, method }));
        const created = await run.send({ method: "POST", path: "/v1/payments/batch", json: { payments: batch } });
        if (!expectSuccess(run, "payments", created)) return;
        await run.send({
          method: "DELETE",
          path: `/v1/payments/${(created.body as { results: { payment?: { id: string } }[] }).results[0]?.payment?.id}`,
        });
        const all = await walk(run, "limit=1000");
        if (!all) return;
        const today = new Date().toISOString().slice(0, 10);
        for (const filter of declaredFilters(run.ctx.api("payments").spec)) {
          const values =
            filter.schema.format === "date" ||
            /date/i.test(String(filter.schema.$ref ?? filter.name)) ||
            ["from", "to"].includes(filter.name)
              ? [today]
              : [...new Set(all.map((r) => String(r[filter.name] ?? "")).filter(Boolean))].slice(0, 3);
          for (const value of values) {
            const filtered = await walk(run, `${filter.name}=${encodeURIComponent(value)}&limit=1000`);
            if (!filtered) continue;
            const wrong = filtered.filter((r) => !matches(r, filter.name, value));
            run.expect(wrong.length === 0, {
              expected: `every record of ?${filter.name}=${value} matches it`,
              actual: `${wrong.length} of ${filtered.length} do not (for example ${wrong[0]?.id})`,
            });
            // Compared with the unfiltered walk: what matched there and still matches now must be here.
            const ids = new Set(filtered.map((r) => r.id));
            const missing = all.filter((r) => matches(r, filter.name, value) && !ids.has(r.id));
            let reallyMissing = 0;
            for (const record of missing.slice(0, 5)) {
              const now = await run.send({ method: "GET", path: `/v1/payments/${record.id}` });
              if (now.status === 200 && matches(now.body as Listed, filter.name, value)) reallyMissing++;
            }
            run.expect(reallyMissing === 0, {
              expected: `?${filter.name}=${value} holds every record that matches it`,
              actual: `${reallyMissing} matching record(s) missing`,
            });
          }
        }
      },
    },
  ];
}

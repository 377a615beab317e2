import { resolveRef } from "@payspec/specs";
import type { Check } from "../check.js";
import { expectSuccess } from "./expectations.js";
import { type ListedPayment, walkListing } from "./listing-walk.js";

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
function matches(record: ListedPayment, name: string, value: string): boolean {
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
        const pair = await run.ctx.requireAccountPair();
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
          const { records } = await walkListing(run, `limit=${limit}`, { pageSize: limit });
          const ids = records.map((r) => r.id);
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
        const pair = await run.ctx.requireAccountPair();
        const base = { currency: pair.currency, from_account: pair.from, to_account: pair.to };
        // References of their own, so that the reference filter (a lost create's lookup) has values to filter by.
        const batch = ["eft", "card", "bank_transfer"].map((method, i) => ({
          ...base,
          amount: 300 + i,
          method,
          reference: `VERIFY-FILTER-${run.ctx.options.seed}-${i}`,
        }));
        const created = await run.send({ method: "POST", path: "/v1/payments/batch", json: { payments: batch } });
        if (!expectSuccess(run, "payments", created)) return;
        await run.send({
          method: "DELETE",
          path: `/v1/payments/${(created.body as { results: { payment?: { id: string } }[] }).results[0]?.payment?.id}`,
        });
        const unfiltered = await walkListing(run, "limit=1000");
        if (!unfiltered.complete) return;
        const all = unfiltered.records;
        const today = new Date().toISOString().slice(0, 10);
        for (const filter of declaredFilters(run.ctx.api("payments").spec)) {
          const values =
            filter.schema.format === "date" ||
            /date/i.test(String(filter.schema.$ref ?? filter.name)) ||
            ["from", "to"].includes(filter.name)
              ? [today]
              : [...new Set(all.map((r) => String(r[filter.name] ?? "")).filter(Boolean))].slice(0, 3);
          for (const value of values) {
            const walked = await walkListing(run, `${filter.name}=${encodeURIComponent(value)}&limit=1000`);
            if (!walked.complete) continue;
            const filtered = walked.records;
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
              if (now.status === 200 && matches(now.body as ListedPayment, filter.name, value)) reallyMissing++;
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

import type { CheckRun } from "../check.js";
import { expectSuccess } from "./expectations.js";

/** A payment as a listing shows it; filters may compare any of its fields. */
export interface ListedPayment {
  readonly id: string;
  readonly status: string;
  readonly created_at: string;
  readonly [field: string]: unknown;
}

interface Page {
  readonly data: ListedPayment[];
  readonly pagination: { total: number; limit: number; has_more: boolean; next_cursor?: string };
}

export interface WalkOptions {
  /** Check every page, cursor pages included, against this page size. */
  readonly pageSize?: number;
  /** Runs after each page but the last (to insert payments concurrently). */
  readonly between?: () => Promise<void>;
}

export interface Walk {
  readonly records: ListedPayment[];
  /** `pagination.total` of the first page (-1 when there was none). */
  readonly firstTotal: number;
  /** False when a page failed, so the records are only a part of the listing. */
  readonly complete: boolean;
}

const MAX_PAGES = 1000;

/**
 * Walks a listing of GET /v1/payments from `query` by its cursors, recording violations as it goes:
 * every page a success, `has_more` exactly when there is a `next_cursor`, and with `pageSize` every
 * page holding exactly that many records (the last at most). A cursor that comes back, or a page of
 * nothing but records already seen, ends the walk at once: such a listing never ends, and walking
 * it to MAX_PAGES cost a run minutes.
 */
export async function walkListing(run: CheckRun, query: string, options: WalkOptions = {}): Promise<Walk> {
  const records: ListedPayment[] = [];
  let firstTotal = -1;
  let path = `/v1/payments?${query}`;
  const cursors = new Set<string>();
  const seen = new Set<string>();
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const reply = await run.send({ method: "GET", path });
    if (!expectSuccess(run, "payments", reply)) return { records, firstTotal, complete: false };
    const page = reply.body as Page;
    if (firstTotal < 0) firstTotal = page.pagination.total;
    const fresh = page.data.filter((record) => !seen.has(record.id));
    records.push(...page.data);
    for (const record of page.data) seen.add(record.id);
    run.expect(page.pagination.has_more === (page.pagination.next_cursor !== undefined), {
      expected: "has_more exactly when there is a next_cursor",
      actual: `has_more ${page.pagination.has_more}, next_cursor ${page.pagination.next_cursor ?? "absent"}`,
      exchange: reply,
    });
    const size = options.pageSize;
    if (size !== undefined) {
      run.expect(page.data.length <= size && (!page.pagination.has_more || page.data.length === size), {
        expected: `pages of exactly ${size} records (the last one at most ${size}), cursor pages included`,
        actual: `${page.data.length} records with has_more ${page.pagination.has_more}`,
        exchange: reply,
      });
    }
    if (!page.pagination.has_more || !page.pagination.next_cursor) return { records, firstTotal, complete: true };
    const next = page.pagination.next_cursor;
    const repeats = cursors.has(next)
      ? `next_cursor repeats the cursor of an earlier page (page ${pages + 1})`
      : pages > 0 && fresh.length === 0 && page.data.length > 0
        ? `page ${pages + 1} holds only records of earlier pages`
        : undefined;
    if (repeats) {
      run.expect(false, {
        expected: "a listing whose cursors move on to records not listed yet, so that it ends",
        actual: `${repeats}: the listing would never end; the walk stopped there`,
        exchange: reply,
      });
      return { records, firstTotal, complete: false };
    }
    cursors.add(next);
    await options.between?.();
    path = `/v1/payments?cursor=${encodeURIComponent(page.pagination.next_cursor)}`;
  }
  run.expect(false, { expected: `a listing that ends within ${MAX_PAGES} pages`, actual: "it did not end" });
  return { records, firstTotal, complete: false };
}

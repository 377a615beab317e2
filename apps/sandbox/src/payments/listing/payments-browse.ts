import type { Payment } from "@payspec/payments-zod";
import { paymentToApi } from "../serialize.js";
import type { PaymentQuery, PaymentsStore } from "../store/payments-store.js";
import { type ListingFilters, queryFilters } from "./list-payments.js";

/** Where a dashboard page of payments starts: the newest, or just older or newer than a payment. */
export type BrowsePosition = { readonly olderThan?: number; readonly newerThan?: number };

export interface BrowsedPage {
  readonly payments: readonly Payment[];
  readonly total: number;
  /** The creation positions to page on from: `olderThan` the last row, `newerThan` the first. */
  readonly first?: number;
  readonly last?: number;
  readonly hasNewer: boolean;
  readonly hasOlder: boolean;
}

/**
 * The dashboard's payments, newest first, a page at a time by creation position (first, previous,
 * next): what people look for is what just happened. The API's listing stays oldest first with its
 * cursors; this reads the same store with the same filters.
 */
export async function browsePayments(
  store: PaymentsStore,
  workspace: string,
  filters: ListingFilters,
  position: BrowsePosition,
  size: number,
): Promise<BrowsedPage> {
  const snapshot = await store.snapshot(workspace);
  const base = { asOfVersion: snapshot.version, ...queryFilters(filters) };
  // Each page is read with the snapshot's total, in one call: a store that finds both in one read
  // (a search on PostgreSQL) does, and the others count as they would apart. The probes for a
  // further page count nothing.
  type Counting = Pick<PaymentQuery, "countTotal" | "totalUpToSeq">;
  const counted: Counting = { countTotal: true, totalUpToSeq: snapshot.seq };
  const uncounted: Counting = { countTotal: false };
  const older = (below: number, limit: number, count = uncounted) =>
    store.list(workspace, { ...base, afterSeq: 0, snapshotSeq: below, limit, descending: true, ...count });
  const newer = (above: number, limit: number, count = uncounted) =>
    store.list(workspace, { ...base, afterSeq: above, snapshotSeq: snapshot.seq, limit, ...count });
  const { newerThan } = position;
  const towardNewer = newerThan !== undefined;
  const newest = !towardNewer && position.olderThan === undefined;
  // One row more than the page says whether there is more that way; the other way is asked only
  // when there can be something: nothing at the snapshot is newer than its newest payments.
  const { items: read, total = 0 } = towardNewer
    ? await newer(newerThan, size + 1, counted)
    : await older(Math.min(snapshot.seq, (position.olderThan ?? Number.MAX_SAFE_INTEGER) - 1), size + 1, counted);
  const more = read.length > size;
  const items = towardNewer ? read.slice(0, size).reverse() : read.slice(0, size);
  const first = items[0]?.seq;
  const last = items[items.length - 1]?.seq;
  return {
    payments: items.map(paymentToApi),
    total,
    ...(first === undefined ? {} : { first }),
    ...(last === undefined ? {} : { last }),
    hasNewer: towardNewer ? more : first !== undefined && !newest && (await newer(first, 1)).items.length > 0,
    hasOlder: towardNewer ? last !== undefined && (await older(last - 1, 1)).items.length > 0 : more,
  };
}

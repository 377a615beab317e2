import { ProtocolError } from "@payspec/client-core";
import type { ListPaymentsQuery, Payment, PaymentPage } from "./types.js";

export type FetchPage = (query: ListPaymentsQuery) => Promise<PaymentPage>;

const OPERATION = "GET /v1/payments";

/**
 * Every page of a listing, following `next_cursor` until `has_more` is false. Only one page is held
 * at a time, so memory stays flat for any number of records. Filters are sent with the first page;
 * the cursor carries them (and the page size) after that. A server that would keep the walk going
 * forever (a cursor seen before, a page with nothing on it but more to come) or that breaks the
 * protocol (`has_more` without `next_cursor`) stops it with a ProtocolError.
 */
export async function* paymentPages(fetchPage: FetchPage, query: ListPaymentsQuery = {}): AsyncGenerator<PaymentPage> {
  const seen = new Set<string>();
  let page = await fetchPage(query);
  yield page;
  while (page.pagination.has_more) {
    const cursor = page.pagination.next_cursor;
    if (!cursor) {
      throw new ProtocolError(OPERATION, "the page says has_more but sends no next_cursor; the listing cannot go on.");
    }
    if (seen.has(cursor)) {
      throw new ProtocolError(
        OPERATION,
        "the server sent a next_cursor it had sent before; the listing would never end.",
      );
    }
    if (page.data.length === 0) {
      throw new ProtocolError(OPERATION, "the server sent an empty page with has_more; the listing makes no progress.");
    }
    seen.add(cursor);
    page = await fetchPage({ cursor } as ListPaymentsQuery);
    yield page;
  }
}

/** Every payment of a listing, one at a time, across pages. */
export async function* paymentsOf(fetchPage: FetchPage, query: ListPaymentsQuery = {}): AsyncGenerator<Payment> {
  for await (const page of paymentPages(fetchPage, query)) yield* page.data;
}

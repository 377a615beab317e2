import type { ListPaymentsQuery, Payment, PaymentPage } from "./types.js";

export type FetchPage = (query: ListPaymentsQuery) => Promise<PaymentPage>;

/**
 * Every page of a listing, following `next_cursor` until `has_more` is false. Only one page is held
 * at a time, so memory stays flat for any number of records. Filters are sent with the first page;
 * the cursor carries them after that.
 */
export async function* paymentPages(fetchPage: FetchPage, query: ListPaymentsQuery = {}): AsyncGenerator<PaymentPage> {
  let page = await fetchPage(query);
  yield page;
  while (page.pagination.has_more) {
    const cursor = page.pagination.next_cursor;
    if (!cursor) throw new Error("The server said has_more but sent no next_cursor; cannot continue the listing.");
    page = await fetchPage({ limit: query.limit, cursor } as ListPaymentsQuery);
    yield page;
  }
}

/** Every payment of a listing, one at a time, across pages. */
export async function* paymentsOf(fetchPage: FetchPage, query: ListPaymentsQuery = {}): AsyncGenerator<Payment> {
  for await (const page of paymentPages(fetchPage, query)) yield* page.data;
}

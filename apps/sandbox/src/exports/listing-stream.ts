import type { Payment, PaymentPage } from "@payspec/payments-zod";
import { t } from "../infrastructure/i18n/locale.js";
import type { SandboxSecret } from "../infrastructure/secret/sandbox-secret.js";
import type { CursorState, PaymentsStore } from "../payments/index.js";
import { encodeCursor, filterWords, type ListingFilters, listPayments, type NamedAccount } from "../payments/index.js";

/** Records per listing page while exporting: big pages, few queries, still a bounded amount held at once. */
export const EXPORT_PAGE = 1_000;

/** Every payment of a listing, page after page through its cursors (one snapshot, however long it takes). */
export async function* allPayments(
  first: PaymentPage,
  next: (cursor: string) => Promise<PaymentPage>,
): AsyncGenerator<Payment> {
  let page = first;
  for (;;) {
    yield* page.data;
    const cursor = page.pagination.next_cursor;
    if (!cursor) return;
    page = await next(cursor);
  }
}

/** Every payment of a listing kept as its start (a queued export's), read from its snapshot. */
export async function* paymentsOfListing(
  store: PaymentsStore,
  secret: SandboxSecret,
  workspace: string,
  listing: CursorState,
): AsyncGenerator<Payment> {
  const list = (cursor: string) => listPayments(store, secret, workspace, { cursor });
  const first = await list(encodeCursor({ ...listing, afterSeq: 0, limit: EXPORT_PAGE }, secret));
  yield* allPayments(first, list);
}

/** A listing's title in exports and e-mail: "Payments (method card)". */
export function listingTitle(filters: ListingFilters, accounts: readonly NamedAccount[] = []): string {
  const text = filterWords(filters, accounts);
  return `${t("Payments", "Ödemeler")}${text ? ` (${text})` : ""}`;
}

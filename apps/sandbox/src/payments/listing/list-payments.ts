import type { PaymentMethod, PaymentPage, PaymentStatus } from "@payspec/payments-zod";
import { ApiFailure } from "@payspec/server-kit";
import type { SandboxSecret } from "../../infrastructure/secret/sandbox-secret.js";
import { foldForSearch } from "../../infrastructure/text/search-fold.js";
import { DAY_MS, ISTANBUL_OFFSET_MS } from "../../infrastructure/time/istanbul-time.js";
import { workspaceTag } from "../../workspaces/index.js";
import { paymentToApi } from "../serialize.js";
import type { PaymentQuery, PaymentsStore } from "../store/payments-store.js";
import { type CursorState, decodeCursor, encodeCursor } from "./cursor.js";

/** The spec's default page size. */
export const DEFAULT_PAGE_SIZE = 100;

/** A listing's filters: the API's (status, date range) and the dashboard's (method, account). */
export interface ListingFilters {
  readonly status?: PaymentStatus;
  readonly from?: string;
  readonly to?: string;
  readonly method?: PaymentMethod;
  readonly account?: string;
  /** The API's: the payment with this exact reference (payspec's extension, for a lost create's answer). */
  readonly reference?: string;
  /** The dashboard's search: text in a payment's reference or description (see `foldForSearch`). */
  readonly search?: string;
  /** The Approvals page: only payments waiting for an approver (never part of a cursor or an export). */
  readonly awaitingApproval?: boolean;
  /**
   * Whose calendar days `from` and `to` name: the dashboard's people read and pick Istanbul dates; the
   * API's dates are UTC (the spec's assumption) when this is absent.
   */
  readonly days?: "Europe/Istanbul";
}

const FILTERS = [
  "status",
  "from",
  "to",
  "method",
  "account",
  "reference",
  "search",
  "days",
] as const satisfies readonly (keyof ListingFilters)[];

export interface ListingRequest extends ListingFilters {
  readonly cursor?: string;
  /** The page size asked for; beside a cursor it changes the listing's page size from there on. */
  readonly limit?: number;
}

/** The instant a calendar date begins, in UTC or in Istanbul. */
function dateToMs(date: string | undefined, days: ListingFilters["days"]): number | undefined {
  if (date === undefined) return undefined;
  return Date.parse(`${date}T00:00:00.000Z`) - (days === "Europe/Istanbul" ? ISTANBUL_OFFSET_MS : 0);
}

/** Only the filters of a request or a listing's state. */
export function listingFilters(request: ListingFilters): ListingFilters {
  return Object.fromEntries(FILTERS.filter((f) => request[f] !== undefined).map((f) => [f, request[f]]));
}

/** A listing's filters as the store takes them: dates as inclusive bounds in ms (UTC or Istanbul days). */
export function queryFilters(filters: ListingFilters): Partial<PaymentQuery> {
  const toMs = dateToMs(filters.to, filters.days);
  return {
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.method ? { method: filters.method } : {}),
    ...(filters.account ? { account: filters.account } : {}),
    ...(filters.reference !== undefined ? { reference: filters.reference } : {}),
    ...(filters.search !== undefined ? { search: foldForSearch(filters.search) } : {}),
    ...(filters.awaitingApproval ? { awaitingApproval: true } : {}),
    ...(filters.from ? { createdFrom: dateToMs(filters.from, filters.days) } : {}),
    ...(toMs === undefined ? {} : { createdTo: toMs + DAY_MS - 1 }),
  };
}

/**
 * A listing's start: its snapshot of the workspace now, its filters and page size, its total still to
 * count (-1). Cursors carry it from page to page; a queued export keeps it until it runs.
 */
export async function openListing(
  store: PaymentsStore,
  workspace: string,
  filters: ListingFilters,
  limit: number,
): Promise<CursorState> {
  if (filters.from && filters.to && filters.from > filters.to) {
    throw new ApiFailure("invalid_request", "from must not be after to.", { param: "from" });
  }
  const snapshot = await store.snapshot(workspace);
  return {
    workspace: workspaceTag(workspace),
    snapshotSeq: snapshot.seq,
    snapshotVersion: snapshot.version,
    afterSeq: 0,
    total: -1,
    limit,
    ...listingFilters(filters),
  };
}

/**
 * One page of a workspace's payments: GET /v1/payments, and the dashboard's table and exports (which
 * add the method and account filters). The first page fixes a snapshot; its signed cursor carries the
 * snapshot, the filters and the page size to the next.
 */
export async function listPayments(
  store: PaymentsStore,
  secret: SandboxSecret,
  workspace: string,
  request: ListingRequest,
): Promise<PaymentPage> {
  const tag = workspaceTag(workspace);
  let state: CursorState;
  if (request.cursor) {
    state = decodeCursor(request.cursor, tag, secret);
    for (const filter of FILTERS) {
      if (request[filter] !== undefined && request[filter] !== state[filter]) {
        throw new ApiFailure(
          "invalid_request",
          `${filter} differs from the listing this cursor belongs to; repeat the same filters or omit them.`,
          { param: filter },
        );
      }
    }
  } else {
    state = await openListing(store, workspace, request, request.limit ?? DEFAULT_PAGE_SIZE);
  }
  // The cursor keeps the listing's page size; an explicit limit beside it changes it from here on.
  const limit = request.limit ?? state.limit;
  const { items, total } = await store.list(workspace, {
    afterSeq: state.afterSeq,
    snapshotSeq: state.snapshotSeq,
    asOfVersion: state.snapshotVersion,
    limit: limit + 1,
    countTotal: state.total < 0,
    ...queryFilters(state),
  });
  const hasMore = items.length > limit;
  const page = items.slice(0, limit);
  const listingTotal = state.total >= 0 ? state.total : (total ?? 0);
  const last = page[page.length - 1];
  return {
    data: page.map(paymentToApi),
    pagination: {
      total: listingTotal,
      limit,
      has_more: hasMore,
      ...(hasMore && last
        ? { next_cursor: encodeCursor({ ...state, afterSeq: last.seq, total: listingTotal, limit }, secret) }
        : {}),
    },
  };
}

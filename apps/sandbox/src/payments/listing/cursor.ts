import { timingSafeEqual } from "node:crypto";
import type { PaymentMethod, PaymentStatus } from "@payspec/payments-zod";
import { ApiFailure } from "@payspec/server-kit";
import type { SandboxSecret } from "../../infrastructure/secret/sandbox-secret.js";

/** What a cursor carries: where the listing is, its snapshot, its page size, and its filters. */
export interface CursorState {
  /** The workspace's tag: a cursor is only good in the workspace that issued it. */
  readonly workspace: string;
  readonly snapshotSeq: number;
  /** The workspace version the listing reads statuses at, so a status filter is a snapshot too. */
  readonly snapshotVersion: number;
  readonly afterSeq: number;
  readonly total: number;
  readonly limit: number;
  readonly status?: PaymentStatus;
  readonly from?: string;
  readonly to?: string;
  readonly reference?: string;
  /** The dashboard's filters. */
  readonly method?: PaymentMethod;
  readonly account?: string;
  readonly search?: string;
  /** Istanbul when the dashboard opened the listing (see ListingFilters.days). */
  readonly days?: "Europe/Istanbul";
}

const MAC_BYTES = 16;
const INVALID = "cursor is not one this server issued for this workspace; pass pagination.next_cursor unchanged.";

/**
 * Cursors are signed: `cur_` + base64url(mac ‖ state). The state is readable by whoever holds the
 * cursor but cannot be edited, so no forged `total`, `status` or position ever shapes a page.
 */
export function encodeCursor(state: CursorState, secret: SandboxSecret): string {
  const payload = Buffer.from(JSON.stringify(state));
  const mac = secret.digest("cursor", payload).subarray(0, MAC_BYTES);
  return `cur_${Buffer.concat([mac, payload]).toString("base64url")}`;
}

function isCursorState(state: unknown, workspace: string): state is CursorState {
  const s = state as CursorState;
  return (
    typeof s === "object" &&
    s !== null &&
    s.workspace === workspace &&
    [s.snapshotSeq, s.snapshotVersion, s.afterSeq, s.total, s.limit].every(Number.isSafeInteger)
  );
}

export function decodeCursor(cursor: string, workspace: string, secret: SandboxSecret): CursorState {
  const bytes = Buffer.from(cursor.slice("cur_".length), "base64url");
  const mac = bytes.subarray(0, MAC_BYTES);
  const payload = bytes.subarray(MAC_BYTES);
  const expected = secret.digest("cursor", payload).subarray(0, MAC_BYTES);
  if (mac.length !== MAC_BYTES || !timingSafeEqual(mac, expected)) {
    throw new ApiFailure("invalid_request", INVALID, { param: "cursor" });
  }
  let state: unknown;
  try {
    state = JSON.parse(payload.toString("utf8"));
  } catch {
    throw new ApiFailure("invalid_request", INVALID, { param: "cursor" });
  }
  if (!isCursorState(state, workspace)) throw new ApiFailure("invalid_request", INVALID, { param: "cursor" });
  return state;
}

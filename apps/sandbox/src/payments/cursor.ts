import type { PaymentStatus } from "@payspec/payments-zod";
import { ApiFailure } from "@payspec/server-kit";

/** What a cursor carries: where the listing is, its snapshot, and the filters it was started with. */
export interface CursorState {
  /** The workspace's tag: a cursor is only good in the workspace that issued it. */
  readonly workspace: string;
  readonly snapshotSeq: number;
  readonly afterSeq: number;
  readonly total: number;
  readonly status?: PaymentStatus;
  readonly from?: string;
  readonly to?: string;
}

export function encodeCursor(state: CursorState): string {
  return `cur_${Buffer.from(JSON.stringify(state)).toString("base64url")}`;
}

const INVALID = "cursor is not one this server issued for this workspace; pass pagination.next_cursor unchanged.";

export function decodeCursor(cursor: string, workspace: string): CursorState {
  let state: CursorState;
  try {
    state = JSON.parse(Buffer.from(cursor.slice("cur_".length), "base64url").toString("utf8"));
  } catch {
    throw new ApiFailure("invalid_request", INVALID, { param: "cursor" });
  }
  const wellFormed =
    typeof state === "object" &&
    state !== null &&
    state.workspace === workspace &&
    Number.isSafeInteger(state.snapshotSeq) &&
    Number.isSafeInteger(state.afterSeq) &&
    Number.isSafeInteger(state.total);
  if (!wellFormed) throw new ApiFailure("invalid_request", INVALID, { param: "cursor" });
  return state;
}

import { ApiError } from "@payspec/client-core";

/**
 * The gateway's application error codes, from the error table in the spec's description: 1001
 * authentication failed, 1003 access denied, 4004 not found, 5000 server error, 6001 invalid
 * request, 6002 referenceId reused by a different request, 6003 risk-check rejection, 6004 3-D
 * Secure required. The seed shows no full catalogue, so other integers may arrive as they are.
 */
export type CardGatewayErrorCode = 1001 | 1003 | 4004 | 5000 | 6001 | 6002 | 6003 | 6004;

/** A non-2xx answer of the gateway, with `code` typed as the spec's codes. */
export class CardGatewayApiError extends ApiError<CardGatewayErrorCode> {
  override readonly name = "CardGatewayApiError";
}

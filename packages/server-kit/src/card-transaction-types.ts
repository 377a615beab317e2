import { ApiFailure } from "./api-failure.js";

/**
 * What the card payment endpoint does with each transaction type. The gateway's documentation lists
 * five types for the field but shows only this endpoint; cancellations, refunds and the capture of a
 * pre-authorization belong to its cancellation and refund endpoint, whose behaviour it does not show.
 * Charging them here as new payments (a REFUND charged as a SUCCESS) is the mistake to refuse.
 */
const ELSEWHERE: Readonly<Record<string, string>> = {
  VOID: "a cancellation",
  REFUND: "a refund",
  POSTAUTH: "the capture of a pre-authorization",
};

/** Refuses a card payment whose transaction type is not a charge (400, code 6001), naming where it belongs. */
export function assertChargeTransactionType(transactionType: unknown): void {
  if (typeof transactionType !== "string" || !(transactionType in ELSEWHERE)) return;
  throw new ApiFailure(
    "invalid_request",
    `transactionType ${transactionType} is ${ELSEWHERE[transactionType]}, which the card payment endpoint does not do: it belongs to the gateway's cancellation and refund endpoint, which payspec does not model (not shown in the gateway's documentation). Send AUTH (the default) or PREAUTH here.`,
    { gatewayCode: 6001, param: "transactionType" },
  );
}

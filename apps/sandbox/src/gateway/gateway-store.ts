import type { CardPayment } from "@payspec/card-gateway-zod";

/** A card payment as the gateway keeps it: the response it gave (card masked), and how to recognise a retry. */
export interface StoredCardPayment {
  readonly payment: CardPayment;
  /** Keyed fingerprint of the request: the card number enters only as a keyed hash, the CVC not at all. */
  readonly fingerprint: string;
  /** Commission charged, in major units (the report's Komisyon). */
  readonly commission: number;
  /** Istanbul local date, yyyy-MM-dd, of createdDate. */
  readonly localDate: string;
}

export interface GatewayStore {
  /** Everything gone: tokens and payments. */
  reset(): Promise<void>;
  /** The card payments gone, tokens kept (the control API's gateway reset). */
  clearPayments(): Promise<void>;
  saveToken(token: string, expiresAt: number): Promise<void>;
  /** Unique across every instance sharing the store: the number in the next orderId. */
  nextOrderNumber(): Promise<number>;
  tokenExpiry(token: string): Promise<number | undefined>;
  /**
   * Stores the payment unless its referenceId is taken; returns what is stored under that reference.
   * referenceIds arrive canonical (lower case), so case variants of one UUID are one payment.
   */
  insertIfAbsent(payment: StoredCardPayment): Promise<{ inserted: boolean; stored: StoredCardPayment }>;
  byReference(referenceId: string): Promise<StoredCardPayment | undefined>;
  onLocalDate(date: string): Promise<readonly StoredCardPayment[]>;
}

import type { CardPayment } from "@payspec/card-gateway-zod";
import type { PaymentMethod, PaymentStatus } from "@payspec/payments-zod";

export interface StoredAccount {
  readonly id: string;
  readonly name: string;
  readonly currency: string;
  /** Minor units: integers keep money exact; the API shows major units. */
  balanceMinor: number;
}

export interface StoredPayment {
  /** Creation order within the workspace, from 1. Cursors are built on it. */
  readonly seq: number;
  readonly id: string;
  readonly amount: number;
  readonly currency: string;
  readonly method: PaymentMethod;
  readonly from_account: string;
  readonly to_account: string;
  readonly description?: string;
  readonly reference?: string;
  status: PaymentStatus;
  readonly createdAt: number;
  completedAt?: number;
  settledAt?: number;
}

export type NewPayment = Omit<StoredPayment, "seq" | "status" | "completedAt" | "settledAt">;

export interface WorkspaceSeed {
  readonly workspace: string;
  readonly accounts: readonly StoredAccount[];
}

export interface PaymentQuery {
  /** Only records with seq above this (the cursor position). */
  readonly afterSeq: number;
  /** Only records with seq at or below this (the listing's snapshot). */
  readonly snapshotSeq: number;
  readonly status?: PaymentStatus;
  /** Inclusive bounds on createdAt, in ms. */
  readonly createdFrom?: number;
  readonly createdTo?: number;
  readonly limit: number;
  /** Count the records the listing holds (only its first page needs to; cursors carry the count). */
  readonly countTotal: boolean;
}

export type TransitionResult =
  | { readonly ok: true; readonly payment: StoredPayment }
  | { readonly ok: false; readonly payment: StoredPayment | undefined };

/**
 * Where the payments service keeps its state. Every method is atomic on its own: transitions are
 * compare-and-set, and completion moves both balances together, so a shared implementation
 * (PostgreSQL, with one transaction per method) can replace the in-memory one.
 */
export interface PaymentsStore {
  reset(seeds: readonly WorkspaceSeed[]): Promise<void>;
  accounts(workspace: string): Promise<readonly StoredAccount[]>;
  account(workspace: string, id: string): Promise<StoredAccount | undefined>;
  insert(workspace: string, payment: NewPayment): Promise<StoredPayment>;
  payment(workspace: string, id: string): Promise<StoredPayment | undefined>;
  /** Finds a payment in any workspace (for the control API). */
  locate(id: string): Promise<{ workspace: string; payment: StoredPayment } | undefined>;
  /** Moves `id` to `to` only if its status is one of `from`. */
  transition(
    workspace: string,
    id: string,
    from: readonly PaymentStatus[] | "any",
    to: PaymentStatus,
    at: number,
  ): Promise<TransitionResult>;
  /**
   * Completes every pending payment that is `delayMs` old at `now`, oldest first, as of the moment it
   * became due: debit and credit move together, or the payment fails when the debit account cannot
   * cover it.
   */
  completeDue(workspace: string, now: number, delayMs: number): Promise<void>;
  lastSeq(workspace: string): Promise<number>;
  list(workspace: string, query: PaymentQuery): Promise<{ items: StoredPayment[]; total?: number }>;
}

/** A card payment as the gateway keeps it: the response it gave (card masked), and how to recognise a retry. */
export interface StoredCardPayment {
  readonly payment: CardPayment;
  /** Fingerprint of the request, without the card number or CVC. */
  readonly fingerprint: string;
  /** Commission charged, in major units (the report's Komisyon). */
  readonly commission: number;
  /** Istanbul local date, yyyy-MM-dd, of createdDate. */
  readonly localDate: string;
}

export interface GatewayStore {
  reset(): Promise<void>;
  saveToken(token: string, expiresAt: number): Promise<void>;
  tokenExpiry(token: string): Promise<number | undefined>;
  /** Stores the payment unless its referenceId is taken; returns what is stored under that reference. */
  insertIfAbsent(payment: StoredCardPayment): Promise<{ inserted: boolean; stored: StoredCardPayment }>;
  byReference(referenceId: string): Promise<StoredCardPayment | undefined>;
  onLocalDate(date: string): Promise<readonly StoredCardPayment[]>;
}

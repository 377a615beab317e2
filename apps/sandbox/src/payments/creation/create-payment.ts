import { randomBytes } from "node:crypto";
import type { PaymentCreate } from "@payspec/payments-zod";
import { ApiFailure, containsCardNumber } from "@payspec/server-kit";
import type { NewPayment, PaymentsStore, StoredPayment, Writable } from "../store/payments-store.js";
import type { AccountIdentity } from "./account-directory.js";

/** The furthest a Date reaches either side of 1970, in ms: a time past it has no date to show. */
const LATEST_DATE_MS = 8.64e15;

const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Random bytes drawn 4 KiB at a time: one call into the system's generator per 256 ids, not per id. */
const randomPool = { bytes: Buffer.alloc(0), at: 0 };

const ALPHABET_BYTES = Buffer.from(ID_ALPHABET, "latin1");
/** Where an id is spelled out: one flat string from it, not sixteen concatenations that map keys must flatten. */
const idBytes = Buffer.from("pay_0000000000000000", "latin1");

/** `pay_` and 16 random base62 characters. */
export function newPaymentId(): string {
  if (randomPool.at + 16 > randomPool.bytes.length) {
    randomPool.bytes = randomBytes(4096);
    randomPool.at = 0;
  }
  for (let i = 0; i < 16; i++) {
    idBytes[4 + i] = ALPHABET_BYTES[(randomPool.bytes[randomPool.at + i] as number) % ID_ALPHABET.length] as number;
  }
  randomPool.at += 16;
  return idBytes.toString("latin1");
}

/** How a create finds an account among those it was given (the workspace's, read beforehand). */
export type AccountFinder = (id: string) => AccountIdentity | undefined;

/** How a create finds an account by asking the store: one query each. */
export type AccountLookup = (id: string) => Promise<AccountIdentity | undefined>;

/**
 * The business rules of a create, after the schema has passed: both accounts exist in the workspace,
 * differ, and hold the payment's currency. Returns the payment to insert; throws the 4xx otherwise.
 * `clockOffsetMs`: the clock offset `now` was worked out with, when it was this process's last reading
 * rather than a fresh one (see NewPayment.clockOffsetMs). Synchronous: the API's creates check against
 * accounts read before, and a create should not wait a turn of the event loop for each of them.
 */
export function checkPayment(
  account: AccountFinder,
  input: PaymentCreate,
  now: number,
  clockOffsetMs?: number,
): NewPayment {
  refuseCardNumbers(input);
  // Anything that can still fail (here, a clock no date can show) fails before the insert, so a 5xx
  // never leaves a payment behind. Compared, not formatted: a Date's range is exactly this.
  if (!(Math.abs(now) <= LATEST_DATE_MS)) throw new RangeError("Invalid time value");
  if (input.from_account === input.to_account) {
    throw new ApiFailure("invalid_request", "to_account must differ from from_account.", { param: "to_account" });
  }
  // The stored accounts' own id strings go into the payment: each request's parsed body has its own
  // copies, and a workspace keeps every payment it is sent.
  const ids = { from_account: input.from_account, to_account: input.to_account };
  for (const field of ["from_account", "to_account"] as const) {
    const found = account(input[field]);
    if (!found) {
      throw new ApiFailure("account_not_found", `${field}: no account ${input[field]} in this workspace.`, {
        param: field,
      });
    }
    if (found.currency !== input.currency) {
      throw new ApiFailure(
        "currency_mismatch",
        `${field}: account ${found.id} holds ${found.currency}, not ${input.currency}.`,
        { param: "currency" },
      );
    }
    ids[field] = found.id;
  }
  const draft: Writable<NewPayment> = {
    id: newPaymentId(),
    amount: input.amount,
    currency: input.currency,
    method: input.method,
    from_account: ids.from_account,
    to_account: ids.to_account,
    createdAt: now,
    // An API payment starts pending and completes once the delay has passed since its creation.
    status: "pending",
    countdownFrom: now,
    cause: "api",
  };
  if (input.description !== undefined) draft.description = input.description;
  if (input.reference !== undefined) draft.reference = input.reference;
  if (clockOffsetMs !== undefined) draft.clockOffsetMs = clockOffsetMs;
  return draft;
}

/**
 * `checkPayment` with its two accounts asked of the store (the dashboard's submits). The input has
 * passed the schema, so both ids are well-formed ones a query can carry.
 */
export async function preparePayment(account: AccountLookup, input: PaymentCreate, now: number): Promise<NewPayment> {
  const [from, to] = await Promise.all([account(input.from_account), account(input.to_account)]);
  return checkPayment(
    (id) => (id === input.from_account ? from : id === input.to_account ? to : undefined),
    input,
    now,
  );
}

/**
 * Card numbers, which PCI DSS keeps out of every store, free text included (Stripe refuses one in a
 * description). Refused naming the field, never quoting it. Text no database can hold (NUL, lone
 * surrogates) cannot be here: the schema every input has passed refuses it in each of its fields
 * (patterns for the free text and the account ids, enums for the rest).
 */
function refuseCardNumbers(input: PaymentCreate): void {
  for (const field of ["description", "reference"] as const) {
    const text = input[field];
    if (text !== undefined && containsCardNumber(text)) {
      throw new ApiFailure(
        "invalid_request",
        `${field}: looks like it holds a card number; card numbers may not be sent in free text. Remove it.`,
        { param: field },
      );
    }
  }
}

/**
 * One create (POST /v1/payments, the sample payments): the rules against the workspace's accounts,
 * read once for both (no query each), then the insert. Not an async function: its answer is the
 * insert's own promise, one promise and no extra turns of the event loop per create.
 */
export function createPayment(
  store: PaymentsStore,
  workspace: string,
  accounts: readonly AccountIdentity[],
  input: PaymentCreate,
  now: number,
  clockOffsetMs?: number,
): Promise<StoredPayment> {
  // A workspace has a handful of accounts: a scan finds one sooner than a map built for each create.
  const find = (id: string) => accounts.find((account) => account.id === id);
  let draft: NewPayment;
  try {
    draft = checkPayment(find, input, now, clockOffsetMs);
  } catch (error) {
    return Promise.reject(error);
  }
  return store.insert(workspace, draft);
}

import { randomInt, randomUUID } from "node:crypto";
import type { CardPayment, CardPaymentRequest } from "@payspec/card-gateway-zod";
import { ApiFailure, assertChargeTransactionType } from "@payspec/server-kit";
import type { SandboxSecret } from "../infrastructure/secret/sandbox-secret.js";
import { istanbulDateTime } from "../infrastructure/time/istanbul-time.js";
import { binInfo, commissionRate, maskCardNumber, outcomeOf } from "./card-catalogue.js";
import type { GatewayStore, StoredCardPayment } from "./gateway-store.js";

/** JSON with object keys sorted at every level, so `{a, b}` and `{b, a}` are one request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** A referenceId is a UUID; its canonical form is lower case, so case variants are one reference. */
export function canonicalReference(referenceId: string): string {
  return referenceId.toLowerCase();
}

/**
 * What identifies a request for the duplicate-referenceId rule: everything the caller sent, key order
 * aside, with the card number as a keyed hash (two cards that share a mask are still two cards) and
 * without the CVC. Neither the number nor the CVC can be recovered from it.
 */
function fingerprint(request: CardPaymentRequest, secret: SandboxSecret): string {
  const { cvc: _cvc, cardNumber, ...card } = request.card;
  const comparable = {
    ...request,
    referenceId: canonicalReference(request.referenceId),
    card: { ...card, cardNumber: secret.digest("card-number", cardNumber).toString("hex") },
  };
  return secret.digest("card-request", canonicalJson(comparable)).toString("hex");
}

function digits(count: number): string {
  return Array.from({ length: count }, () => randomInt(10)).join("");
}

const TURKISH_TO_ASCII: Record<string, string> = {
  ç: "c",
  Ç: "C",
  ğ: "g",
  Ğ: "G",
  ı: "i",
  İ: "I",
  ö: "o",
  Ö: "O",
  ş: "s",
  Ş: "S",
  ü: "u",
  Ü: "U",
};

/** Upper-case ASCII, as bank systems print names: "Ayşe Yılmaz" -> "AYSE YILMAZ". */
function bankName(holder: string): string {
  return holder.replace(/[çÇğĞıİöÖşŞüÜ]/g, (c) => TURKISH_TO_ASCII[c] ?? c).toUpperCase();
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export interface CardPaymentReply {
  readonly message: string;
  readonly response: CardPayment;
}

function reply(stored: StoredCardPayment): CardPaymentReply {
  const ok = stored.payment.paymentStatus === "SUCCESS";
  return { message: ok ? "Payment successful" : "Payment failed: insufficient funds", response: stored.payment };
}

/** The payment kept for a charge the test cards approve or decline: its card number masked. */
function newCardPayment(request: CardPaymentRequest, approved: boolean, now: number, orderNumber: number): CardPayment {
  const bin = binInfo(request.card.cardNumber);
  const installment = request.installment ?? 1;
  const rate = commissionRate(installment);
  const createdDate = istanbulDateTime(now);
  const id = randomUUID();
  return {
    id,
    transactionId: id,
    createdDate,
    amount: request.amount,
    finalAmount: request.finalAmount,
    walletAmount: request.walletAmount,
    currency: request.currency,
    installment,
    correlationId: request.correlationId ?? null,
    referenceId: request.referenceId,
    usedTerminalInfo: bin.terminal,
    reward: request.reward
      ? { cardRewardAmount: request.reward.cardRewardAmount, firmRewardAmount: request.reward.firmRewardAmount ?? null }
      : null,
    source: "API",
    paymentStatus: approved ? "SUCCESS" : "FAILURE",
    transactionType: request.transactionType ?? "AUTH",
    authCode: approved ? digits(6) : null,
    hostReferenceNo: approved ? digits(12) : null,
    orderId: `ORD-${createdDate.slice(0, 10).replaceAll("-", "")}-${String(orderNumber).padStart(6, "0")}`,
    bankCardHolderName: bankName(request.card.cardHolderName),
    bankCode: bin.bankCode,
    cardDetails: {
      cardHolderName: request.card.cardHolderName,
      cardNumber: maskCardNumber(request.card.cardNumber),
      cardBrand: bin.cardBrand,
      cardBank: bin.cardBank,
      cardSchema: bin.cardSchema,
    },
    products: request.products.map((product) => ({
      id: randomUUID(),
      name: product.name,
      externalId: product.externalId ?? null,
      price: product.price,
      status: "PENDING",
      commissionRate: rate,
    })),
    riskAssessment: "APPROVED",
  };
}

/**
 * Charges a card (in the sandbox's imagination): the test-card table decides the outcome, a repeated
 * referenceId with the same request replays the original without charging again, and the card
 * number is masked before anything is kept.
 */
export async function processCardPayment(
  store: GatewayStore,
  secret: SandboxSecret,
  received: CardPaymentRequest,
  now: number,
): Promise<CardPaymentReply> {
  assertChargeTransactionType(received.transactionType);
  const request = { ...received, referenceId: canonicalReference(received.referenceId) };
  const print = fingerprint(request, secret);
  const existing = await store.byReference(request.referenceId);
  if (existing) {
    if (existing.fingerprint === print) return reply(existing);
    throw new ApiFailure(
      "invalid_request",
      `referenceId ${request.referenceId} was already used by a different payment request.`,
      { gatewayCode: 6002 },
    );
  }
  const outcome = outcomeOf(request.card.cardNumber);
  if (outcome === "risk-reject") {
    throw new ApiFailure("invalid_request", "Payment rejected by the risk check; nothing was charged.", {
      gatewayCode: 6003,
    });
  }
  if (outcome === "three-d-secure-required") {
    throw new ApiFailure(
      "invalid_request",
      "This card requires 3-D Secure, which goes through the gateway's 3-D Secure endpoint: payspec does not model it (not shown in the gateway's documentation), so the sandbox charges no card that needs it. Test with a card that does not: any of the sandbox's test cards but this one.",
      { gatewayCode: 6004 },
    );
  }
  const payment = newCardPayment(request, outcome === "success", now, await store.nextOrderNumber());
  const { inserted, stored } = await store.insertIfAbsent({
    payment,
    fingerprint: print,
    commission: round2((request.amount * commissionRate(payment.installment)) / 100),
    localDate: payment.createdDate.slice(0, 10),
  });
  if (!inserted && stored.fingerprint !== print) {
    throw new ApiFailure(
      "invalid_request",
      `referenceId ${request.referenceId} was already used by a different payment request.`,
      { gatewayCode: 6002 },
    );
  }
  return reply(stored);
}

import { randomBytes, timingSafeEqual } from "node:crypto";
import { type CardPaymentRequest, routes } from "@payspec/card-gateway-zod";
import {
  ApiFailure,
  basicCredentials,
  containsCardNumber,
  credentialsFor,
  dailyReportFile,
  firstStringField,
  firstXmlUnsafeField,
  parseRequest,
} from "@payspec/server-kit";
import type { FastifyInstance } from "fastify";
import { GATEWAY_SCOPE, type SandboxClocks } from "../clock/index.js";
import type { DeclaredFaults } from "../faults/index.js";
import { faultBeforeHandling } from "../faults/index.js";
import type { SandboxConfig } from "../infrastructure/config/config.js";
import type { SandboxSecret } from "../infrastructure/secret/sandbox-secret.js";
import type { GatewayStore, StoredCardPayment } from "./gateway-store.js";
import { canonicalReference, processCardPayment } from "./process-card-payment.js";

export interface GatewayApiDeps {
  readonly config: SandboxConfig;
  readonly store: GatewayStore;
  readonly clocks: SandboxClocks;
  readonly secret: SandboxSecret;
  /** Faults tests declared for the gateway; absent when the control API is off. */
  readonly faults?: DeclaredFaults | undefined;
}

export const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** The daily transactions report of an Istanbul date: its successful card payments, as .xlsx. */
export async function dailyReport(store: GatewayStore, date: string) {
  const successful = (await store.onLocalDate(date)).filter((p) => p.payment.paymentStatus === "SUCCESS");
  return dailyReportFile(successful);
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Whether `token` is a gateway access token that has not expired (the control API asks too). */
export async function isLiveToken(store: GatewayStore, clocks: SandboxClocks, token: string): Promise<boolean> {
  const expiresAt = token ? await store.tokenExpiry(token) : undefined;
  return expiresAt !== undefined && expiresAt > (await clocks.now(GATEWAY_SCOPE));
}

/** /auth/login and everything under /api/v1: the card payment gateway. */
export function registerGatewayApi(
  app: FastifyInstance,
  { config, store, clocks, secret, faults }: GatewayApiDeps,
): void {
  const now = () => clocks.now(GATEWAY_SCOPE);

  app.post("/auth/login", async (request, reply) => {
    const credentials = basicCredentials(request.headers.authorization);
    if (!credentials) {
      throw new ApiFailure("unauthorized", "Send 'Authorization: Basic base64(<API_KEY>:<API_SECRET>)'.");
    }
    if (!(sameText(credentials.key, config.gatewayKey) && sameText(credentials.secret, config.gatewaySecret))) {
      throw new ApiFailure("unauthorized", "The API key or secret is wrong.");
    }
    // The caller is the gateway's own: a login can fail on demand like any gateway call.
    if (faults) await faultBeforeHandling(faults, GATEWAY_SCOPE, request, reply);
    const accessToken = randomBytes(32).toString("base64url");
    await store.saveToken(accessToken, (await now()) + config.tokenTtlSeconds * 1000);
    return { accessToken, expiresIn: config.tokenTtlSeconds };
  });

  app.register(async (api) => {
    api.addHook("onRequest", async (request, reply) => {
      const token = credentialsFor("Bearer", request.headers.authorization) ?? "";
      if (!(await isLiveToken(store, clocks, token))) {
        throw new ApiFailure(
          "unauthorized",
          "Access token is missing, invalid or expired; log in again at /auth/login.",
        );
      }
      if (faults) await faultBeforeHandling(faults, GATEWAY_SCOPE, request, reply);
    });

    api.post("/api/v1/payments/card", async (request) => {
      // Before the schema, whose pattern says the same in regex: this names the character's kind.
      const unsafe = firstXmlUnsafeField(request.body);
      if (unsafe) {
        throw new ApiFailure(
          "invalid_request",
          `${unsafe}: contains a character XML 1.0 cannot hold (a control character, U+FFFE, U+FFFF or a lone surrogate); remove it.`,
          { param: unsafe },
        );
      }
      const { body } = parseRequest(routes["POST /api/v1/payments/card"].data, { body: request.body });
      refuseCardNumbersInFreeText(body);
      return processCardPayment(store, secret, body, await now());
    });

    api.get<{ Params: { referenceId: string } }>("/api/v1/payments/reference/:referenceId", async (request) => {
      const { path } = parseRequest(routes["GET /api/v1/payments/reference/{referenceId}"].data, {
        path: request.params,
      });
      const stored = await store.byReference(canonicalReference(path.referenceId));
      if (!stored) throw new ApiFailure("not_found", `No payment with referenceId ${path.referenceId}.`);
      return paymentFound(stored.payment);
    });

    api.get<{ Querystring: Record<string, unknown> }>(
      "/api/v1/general/reports/sales/daily-transactions",
      async (request, reply) => {
        const { query } = parseRequest(routes["GET /api/v1/general/reports/sales/daily-transactions"].data, {
          query: request.query,
        });
        const report = await dailyReport(store, query.date);
        reply.type(XLSX).header("Content-Disposition", `attachment; filename="daily-transactions-${query.date}.xlsx"`);
        return report;
      },
    );
  });
}

/** A stored card payment as the lookup by reference answers it: the card number masked, as kept. */
function paymentFound(p: StoredCardPayment["payment"]) {
  return {
    message: "Payment found",
    response: {
      id: p.id,
      amount: p.amount,
      finalAmount: p.finalAmount,
      currency: p.currency,
      installment: p.installment,
      referenceId: p.referenceId,
      paymentType: "CARD",
      source: p.source,
      paymentStatus: p.paymentStatus,
      transactionType: p.transactionType,
      authCode: p.authCode,
      orderId: p.orderId,
      products: p.products,
      cardDetails: { cardNumber: p.cardDetails.cardNumber, cardHolderName: p.cardDetails.cardHolderName },
    },
  };
}

/**
 * A card number belongs in card.cardNumber and nowhere else: one in the holder's name, a product, an
 * additional parameter or any other text would be stored, echoed and printed in the daily report.
 * (The referenceId is a UUID, whose all-digit groups could pass the Luhn check by chance.)
 */
function refuseCardNumbersInFreeText(body: CardPaymentRequest): void {
  const { referenceId: _reference, card, ...rest } = body;
  const { cardNumber: _number, ...cardText } = card;
  const field = firstStringField({ ...rest, card: cardText }, containsCardNumber);
  if (field) {
    throw new ApiFailure(
      "invalid_request",
      `${field}: looks like it holds a card number; a card number goes in card.cardNumber only. Remove it.`,
      { param: field },
    );
  }
}

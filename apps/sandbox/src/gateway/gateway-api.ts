import { randomBytes, timingSafeEqual } from "node:crypto";
import { routes } from "@payspec/card-gateway-zod";
import { ApiFailure, dailyReportFile, parseRequest } from "@payspec/server-kit";
import type { FastifyInstance } from "fastify";
import type { SandboxClock } from "../clock.js";
import type { SandboxConfig } from "../config.js";
import type { GatewayStore } from "../store/index.js";
import { processCardPayment } from "./process-card-payment.js";

export interface GatewayApiDeps {
  readonly config: SandboxConfig;
  readonly store: GatewayStore;
  readonly clock: SandboxClock;
}

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function basicCredentials(header: string | undefined): { key: string; secret: string } | undefined {
  if (!header?.startsWith("Basic ")) return undefined;
  const decoded = Buffer.from(header.slice("Basic ".length).trim(), "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon < 0 ? undefined : { key: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** /auth/login and everything under /api/v1: the card payment gateway. */
export function registerGatewayApi(app: FastifyInstance, { config, store, clock }: GatewayApiDeps): void {
  let orderSeq = 0;

  app.post("/auth/login", async (request) => {
    const credentials = basicCredentials(request.headers.authorization);
    if (!credentials) {
      throw new ApiFailure("unauthorized", "Send 'Authorization: Basic base64(<API_KEY>:<API_SECRET>)'.");
    }
    if (!(sameText(credentials.key, config.gatewayKey) && sameText(credentials.secret, config.gatewaySecret))) {
      throw new ApiFailure("unauthorized", "The API key or secret is wrong.");
    }
    const accessToken = randomBytes(32).toString("base64url");
    await store.saveToken(accessToken, clock.now() + config.tokenTtlSeconds * 1000);
    return { accessToken, expiresIn: config.tokenTtlSeconds };
  });

  app.register(async (api) => {
    api.addHook("onRequest", async (request) => {
      const header = request.headers.authorization ?? "";
      const token = header.startsWith("Bearer ") ? header.slice("Bearer ".length).trim() : "";
      const expiresAt = token ? await store.tokenExpiry(token) : undefined;
      if (expiresAt === undefined || expiresAt <= clock.now()) {
        throw new ApiFailure(
          "unauthorized",
          "Access token is missing, invalid or expired; log in again at /auth/login.",
        );
      }
    });

    api.post("/api/v1/payments/card", async (request) => {
      const { body } = parseRequest(routes["POST /api/v1/payments/card"].data, { body: request.body });
      return processCardPayment(store, body, clock.now(), () => ++orderSeq);
    });

    api.get<{ Params: { referenceId: string } }>("/api/v1/payments/reference/:referenceId", async (request) => {
      const { path } = parseRequest(routes["GET /api/v1/payments/reference/{referenceId}"].data, {
        path: request.params,
      });
      const stored = await store.byReference(path.referenceId);
      if (!stored) throw new ApiFailure("not_found", `No payment with referenceId ${path.referenceId}.`);
      const p = stored.payment;
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
    });

    api.get<{ Querystring: Record<string, unknown> }>(
      "/api/v1/general/reports/sales/daily-transactions",
      async (request, reply) => {
        const { query } = parseRequest(routes["GET /api/v1/general/reports/sales/daily-transactions"].data, {
          query: request.query,
        });
        const successful = (await store.onLocalDate(query.date)).filter((p) => p.payment.paymentStatus === "SUCCESS");
        return reply
          .type(XLSX)
          .header("Content-Disposition", `attachment; filename="daily-transactions-${query.date}.xlsx"`)
          .send(await dailyReportFile(successful));
      },
    );
  });
}

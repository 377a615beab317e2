import { randomBytes } from "node:crypto";
import { zPaymentCreate } from "@payspec/payments-zod";
import { ApiFailure, parseRequest } from "@payspec/server-kit";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

function mockPaymentId(): string {
  return `pay_${Array.from(randomBytes(12), (b) => ALPHABET[b % ALPHABET.length]).join("")}`;
}

/**
 * The mock's batch answer, built from what was sent: exactly one result per entry, in order, each
 * entry validated on its own as the API does. Prism can only replay the spec's example, whose
 * results would not line up with the entries, and a client matches results to inputs by index.
 */
export function batchAnswer(body: unknown, now = new Date()) {
  const entries = (body as { payments?: unknown[] } | undefined)?.payments ?? [];
  const results = entries.map((entry, index) => {
    try {
      const input = parseRequest(zPaymentCreate, entry);
      return {
        index,
        outcome: "created" as const,
        payment: { id: mockPaymentId(), ...input, status: "pending" as const, created_at: now.toISOString() },
      };
    } catch (error) {
      if (!(error instanceof ApiFailure)) throw error;
      return { index, outcome: "failed" as const, error: error.paymentsBody() };
    }
  });
  const created = results.filter((r) => r.outcome === "created").length;
  return { created, failed: results.length - created, results };
}

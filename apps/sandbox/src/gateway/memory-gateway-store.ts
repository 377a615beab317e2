import type { GatewayStore, StoredCardPayment } from "./gateway-store.js";

/** The gateway's in-memory state: tokens and card payments (cards masked; no CVC anywhere). */
export class MemoryGatewayStore implements GatewayStore {
  #tokens = new Map<string, number>();
  #byReference = new Map<string, StoredCardPayment>();
  #orderNumber = 0;

  async reset() {
    this.#tokens.clear();
    this.#byReference.clear();
  }

  async clearPayments() {
    this.#byReference.clear();
  }

  async saveToken(token: string, expiresAt: number) {
    this.#tokens.set(token, expiresAt);
  }

  async nextOrderNumber() {
    return ++this.#orderNumber;
  }

  async tokenExpiry(token: string) {
    return this.#tokens.get(token);
  }

  async insertIfAbsent(payment: StoredCardPayment) {
    const existing = this.#byReference.get(payment.payment.referenceId);
    if (existing) return { inserted: false, stored: existing };
    this.#byReference.set(payment.payment.referenceId, payment);
    return { inserted: true, stored: payment };
  }

  async byReference(referenceId: string) {
    return this.#byReference.get(referenceId);
  }

  async onLocalDate(date: string) {
    return [...this.#byReference.values()].filter((p) => p.localDate === date);
  }
}

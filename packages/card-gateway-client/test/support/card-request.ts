import type { CardPaymentRequest } from "../../src/index.js";

/** A valid card payment with the sandbox's always-successful test card, and a fresh referenceId. */
export function cardRequest(
  overrides: Partial<CardPaymentRequest> = {},
  card: Partial<CardPaymentRequest["card"]> = {},
): CardPaymentRequest {
  return {
    referenceId: crypto.randomUUID(),
    amount: 1250.5,
    finalAmount: 1250.5,
    walletAmount: 0,
    clientIpAddress: "85.105.34.12",
    currency: "TRY",
    card: {
      cardHolderName: "Ayşe Yılmaz",
      cardNumber: "5528790000000008",
      expireYear: "29",
      expireMonth: "07",
      cvc: "123",
      ...card,
    },
    products: [{ name: "Kablosuz Kulaklık", price: 1250.5 }],
    ...overrides,
  };
}

// A card payment with one of the sandbox's test cards, then the same payment looked up by reference.
import { randomUUID } from "node:crypto";
import { CardGatewayApiError, createCardGatewayClient } from "@payspec/card-gateway-client";

const gateway = createCardGatewayClient({
  host: process.env.PAYSPEC_SANDBOX_URL ?? "http://127.0.0.1:4010",
  apiKey: "gw_demo_key",
  apiSecret: "gw_demo_secret",
});

const referenceId = randomUUID(); // your idempotency key: retry with the same one, never a new one
const request = {
  referenceId,
  amount: 1250.5,
  finalAmount: 1250.5,
  walletAmount: 0,
  clientIpAddress: "85.105.34.12",
  currency: "TRY" as const,
  card: {
    cardHolderName: "Ayşe Yılmaz",
    cardNumber: "5528790000000008",
    expireYear: "29",
    expireMonth: "07",
    cvc: "123",
  },
  products: [{ name: "Kablosuz Kulaklık", price: 1250.5 }],
};
const paid = await gateway.pay(request);
console.log(`${paid.response.paymentStatus} ${paid.response.cardDetails.cardNumber} order ${paid.response.orderId}`);

const retried = await gateway.pay(request); // the same request again: replayed, not charged twice
console.log(`retry replayed the same payment: ${retried.response.id === paid.response.id}`);

const found = await gateway.getPaymentByReference(referenceId);
console.log(`found by reference: ${found.response.paymentStatus}`);

const reused = await gateway
  .pay({ ...request, amount: 10, finalAmount: 10, products: [{ name: "Kitap", price: 10 }] })
  .catch((error: unknown) => error);
if (reused instanceof CardGatewayApiError) console.log(`reference reused by another payment: ${reused.code}`);

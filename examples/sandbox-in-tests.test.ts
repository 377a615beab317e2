// Your own test suite with the sandbox in process: a fresh sandbox per suite on a free port.
import { createPaymentsClient, PaymentsApiError } from "@payspec/payments-client";
import { DEMO_API_KEYS, type RunningSandbox, startSandbox } from "@payspec/sandbox";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox(); // 127.0.0.1, a free port, empty workspaces
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

it("creates a payment and cancels it once", async () => {
  const payments = createPaymentsClient({ baseUrl: sandbox.url, apiKey: DEMO_API_KEYS[0] });
  const [from, to] = (await payments.listAccounts()).filter((a) => a.currency === "USD");
  const created = await payments.createPayment({
    amount: 1999,
    currency: "USD",
    method: "card",
    from_account: from?.id ?? "",
    to_account: to?.id ?? "",
  });
  expect(created.status).toBe("pending");
  expect((await payments.cancelPayment(created.id)).status).toBe("cancelled");
  const again = await payments.cancelPayment(created.id).catch((error: unknown) => error);
  expect(again).toBeInstanceOf(PaymentsApiError);
  expect((again as PaymentsApiError).code).toBe("payment_not_cancellable");
});

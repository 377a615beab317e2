// Every package's documented exports, from CommonJS: `require` must work as well as `import`.
const assert = require("node:assert/strict");
const { specPath, paymentsAccountsSpec, cardGatewaySpec } = require("@payspec/specs");
const { zPaymentCreate, routes: paymentRoutes } = require("@payspec/payments-zod");
const { zCardPaymentRequest, dailyTransactionsReportColumns } = require("@payspec/card-gateway-zod");
const { toMinorUnits, PayspecError } = require("@payspec/client-core");
const { createPaymentsClient, PaymentsApiError } = require("@payspec/payments-client");
const { createCardGatewayClient, parseDailyReport } = require("@payspec/card-gateway-client");
const { maskCardNumbers } = require("@payspec/server-kit");
const { startSandbox, DEMO_API_KEYS } = require("@payspec/sandbox");
const { startMock } = require("@payspec/mock");
const { parseOptions, runVerification } = require("@payspec/contract-verifier");

async function main() {
  assert.match(specPath("payments-accounts"), /payments-accounts\.openapi\.yaml$/);
  assert.equal(paymentsAccountsSpec.openapi, "3.1.0");
  assert.equal(cardGatewaySpec.openapi, "3.1.0");
  assert.equal(zPaymentCreate.safeParse({ amount: 0 }).success, false);
  assert.ok(paymentRoutes["POST /v1/payments"]);
  assert.equal(zCardPaymentRequest.safeParse({}).success, false);
  assert.equal(dailyTransactionsReportColumns.length, 12);
  assert.equal(toMinorUnits("19.99", "TRY"), 1999);
  assert.equal(maskCardNumbers("4543590000000006"), "454359******0006");
  assert.equal(typeof parseDailyReport, "function");

  const sandbox = await startSandbox();
  const mock = await startMock();
  try {
    const payments = createPaymentsClient({ baseUrl: sandbox.url, apiKey: DEMO_API_KEYS[0] });
    const accounts = await payments.listAccounts();
    assert.equal(accounts.length, 6);
    const missing = await payments.getPayment("pay_missing").catch((error) => error);
    assert.ok(missing instanceof PaymentsApiError && missing instanceof PayspecError);
    const gateway = createCardGatewayClient({ host: mock.url, apiKey: "key", apiSecret: "secret" });
    assert.ok((await gateway.login()).length > 0);
    const report = await runVerification(parseOptions(["--target", sandbox.url, "--profile", "schema"]));
    assert.equal(report.counts.failed, 0);
    console.log(`every export works from require: ${report.counts.passed} checks passed`);
  } finally {
    await mock.close();
    await sandbox.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

// Streams every payment of a workspace to a CSV file with the dashboard's columns, in flat memory.
import { createWriteStream } from "node:fs";
import { createPaymentsClient } from "@payspec/payments-client";

const payments = createPaymentsClient({
  baseUrl: process.env.PAYSPEC_SANDBOX_URL ?? "http://127.0.0.1:4010",
  apiKey: "sk_sandbox_demo_1",
});
const file = process.argv[2] ?? "payments.csv";
const written = await payments.exportPayments(createWriteStream(file), { format: "csv" });
console.log(`exported ${written} payments to ${file}`);

/**
 * How fast the generated zod schema validates a 10,000-payment page (about 3 MB), against JSON.parse
 * of the same text and an ajv validator compiled from the same spec schema, measured in one run.
 * Goal: zod takes at most 1.2x ajv's time.
 */
import { medianMs, table } from "@payspec/bench-kit";
import { createSpecValidator, paymentsAccountsSpec, pointerOf } from "@payspec/specs";
import { zPaymentPage } from "../src/index.js";

const ROUNDS = 15;
const methods = ["bank_transfer", "card", "virtual_account", "eft"] as const;
const statuses = ["pending", "completed", "settled", "cancelled"] as const;
const page = {
  data: Array.from({ length: 10_000 }, (_, i) => ({
    id: `pay_${i.toString(36).padStart(12, "0")}`,
    amount: 1000 + i,
    currency: "TRY",
    method: methods[i % 4],
    from_account: "acc_9f2c4e1a7b3d",
    to_account: "acc_3d5e7f9a1b2c",
    description: `Fatura ödemesi #${i} — Kasım dönemi, müşteri hesabı aktarımı ve ek açıklama metni`,
    reference: `FTR-2026-${String(i).padStart(6, "0")}`,
    status: statuses[i % 4],
    created_at: new Date(1_795_000_000_000 + i * 1000).toISOString(),
    ...(i % 4 === 1 || i % 4 === 2 ? { completed_at: new Date(1_795_000_030_000 + i * 1000).toISOString() } : {}),
    ...(i % 4 === 2 ? { settled_at: new Date(1_795_040_000_000 + i * 1000).toISOString() } : {}),
  })),
  pagination: { total: 1_000_000, limit: 10_000, next_cursor: "cur_eyJzIjoxMDAwMH0", has_more: true },
};
const text = JSON.stringify(page);
const megabytes = Buffer.byteLength(text) / 1e6;
const parsed = JSON.parse(text);

const ajv = createSpecValidator(paymentsAccountsSpec);
const pagePointer = pointerOf("components", "schemas", "PaymentPage");
if (!ajv.validate(pagePointer, parsed).valid || !zPaymentPage.safeParse(parsed).success) {
  throw new Error("The benchmark page must be valid for both validators.");
}

const parseMs = await medianMs(ROUNDS, () => JSON.parse(text));
const zodMs = await medianMs(ROUNDS, () => zPaymentPage.safeParse(parsed));
const ajvMs = await medianMs(ROUNDS, () => ajv.validate(pagePointer, parsed));

const row = (name: string, ms: number) => [name, ms, megabytes / (ms / 1000), ms / ajvMs];
console.log(`Validate a 10,000-payment page (${megabytes.toFixed(2)} MB), median of ${ROUNDS} rounds\n`);
console.log(
  table(
    ["step", "median ms", "MB/s", "x ajv"],
    [
      row("JSON.parse", parseMs),
      row("ajv (spec schema)", ajvMs),
      row("zod (generated)", zodMs),
      row("JSON.parse + zod", parseMs + zodMs),
    ],
  ),
);
const ratio = zodMs / ajvMs;
console.log(`\nzod / ajv = ${ratio.toFixed(2)}x (goal <= 1.20x): ${ratio <= 1.2 ? "met" : "not met"}`);

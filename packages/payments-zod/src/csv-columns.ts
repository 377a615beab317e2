import type { Payment } from "./generated/zod.gen.js";

/** The dashboard CSV export's columns, in the seed's order (the client's export and the sandbox's share them). */
export const paymentCsvColumns = [
  "id",
  "amount",
  "currency",
  "method",
  "status",
  "from_account",
  "to_account",
  "reference",
  "description",
  "created_at",
  "settled_at",
] as const satisfies readonly (keyof Payment)[];

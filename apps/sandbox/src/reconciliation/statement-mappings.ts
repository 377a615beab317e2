import { z } from "zod";
import type { SettingColumn } from "../infrastructure/workspace-settings/workspace-setting.js";
import type { CsvMapping } from "./statement-formats/bank-csv.js";

/** A workspace's own CSV layouts (at most MAX_MAPPINGS), tried before the built-in ones. */
export const STATEMENT_MAPPINGS: SettingColumn<readonly CsvMapping[]> = { column: "statement_mappings", fallback: [] };
export const MAX_MAPPINGS = 20;

const column = z.string().trim().min(1, "a column name is required").max(60, "at most 60 characters");

/** A mapping as the control API takes and shows it (snake_case, as the rest of the API). */
export const zMapping = z
  .strictObject({
    name: z.string().trim().min(1, "a name is required").max(80, "at most 80 characters"),
    date: column,
    date_format: z.enum(["dd.MM.yyyy", "dd/MM/yyyy", "yyyy-MM-dd"]),
    narrative: z.array(column).max(5).default([]),
    amount: column.optional(),
    debit: column.optional(),
    credit: column.optional(),
    currency_column: column.optional(),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, "three capital letters, such as TRY")
      .optional(),
    decimal: z.enum([",", "."]),
    thousands: z.enum([".", ",", "", " "]),
  })
  .refine((m) => (m.amount !== undefined) !== (m.debit !== undefined && m.credit !== undefined), {
    message: "give either amount (one signed column) or both debit and credit",
    path: ["amount"],
  })
  .refine((m) => m.currency !== undefined || m.currency_column !== undefined, {
    message: "give currency (the file's one currency) or currency_column",
    path: ["currency"],
  })
  .refine((m) => m.decimal !== m.thousands, {
    message: "the decimal and thousands marks must differ",
    path: ["thousands"],
  });

export function mappingFromApi(m: z.infer<typeof zMapping>): CsvMapping {
  return {
    name: m.name,
    date: m.date,
    dateFormat: m.date_format,
    narrative: m.narrative,
    ...(m.amount === undefined ? {} : { amount: m.amount }),
    ...(m.debit === undefined ? {} : { debit: m.debit }),
    ...(m.credit === undefined ? {} : { credit: m.credit }),
    ...(m.currency_column === undefined ? {} : { currencyColumn: m.currency_column }),
    ...(m.currency === undefined ? {} : { currency: m.currency }),
    decimal: m.decimal,
    thousands: m.thousands,
  };
}

export function mappingToApi(m: CsvMapping) {
  return {
    name: m.name,
    date: m.date,
    date_format: m.dateFormat,
    narrative: m.narrative,
    ...(m.amount === undefined ? {} : { amount: m.amount }),
    ...(m.debit === undefined ? {} : { debit: m.debit }),
    ...(m.credit === undefined ? {} : { credit: m.credit }),
    ...(m.currencyColumn === undefined ? {} : { currency_column: m.currencyColumn }),
    ...(m.currency === undefined ? {} : { currency: m.currency }),
    decimal: m.decimal,
    thousands: m.thousands,
  };
}

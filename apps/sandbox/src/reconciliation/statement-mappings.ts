import { z } from "zod";
import { t } from "../infrastructure/i18n/locale.js";
import type { SettingDefinition } from "../workspaces/index.js";
import type { CsvMapping } from "./statement-formats/bank-csv.js";

/** A workspace's own CSV layouts (at most MAX_MAPPINGS), tried before the built-in ones. */
export const STATEMENT_MAPPINGS: SettingDefinition<readonly CsvMapping[]> = {
  name: "statement_mappings",
  fallback: [],
};
export const MAX_MAPPINGS = 20;

const column = z
  .string()
  .trim()
  .min(1, { error: () => t("a column name is required", "bir sütun adı gerekli") })
  .max(60, { error: () => t("at most 60 characters", "en çok 60 karakter") });

/** A mapping as the control API takes and shows it (snake_case, as the rest of the API). */
export const zMapping = z
  .strictObject({
    name: z
      .string()
      .trim()
      .min(1, { error: () => t("a name is required", "bir ad gerekli") })
      .max(80, { error: () => t("at most 80 characters", "en çok 80 karakter") }),
    date: column,
    date_format: z.enum(["dd.MM.yyyy", "dd/MM/yyyy", "yyyy-MM-dd"]),
    narrative: z.array(column).max(5).default([]),
    amount: column.optional(),
    debit: column.optional(),
    credit: column.optional(),
    currency_column: column.optional(),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, { error: () => t("three capital letters, such as TRY", "TRY gibi üç büyük harf") })
      .optional(),
    decimal: z.enum([",", "."]),
    thousands: z.enum([".", ",", "", " "]),
  })
  .refine((m) => (m.amount !== undefined) !== (m.debit !== undefined && m.credit !== undefined), {
    error: () =>
      t(
        "give either amount (one signed column) or both debit and credit",
        "ya tutar sütununu (işaretli tek sütun) ya da hem borç hem alacak sütununu verin",
      ),
    path: ["amount"],
  })
  .refine((m) => m.currency !== undefined || m.currency_column !== undefined, {
    error: () =>
      t(
        "give currency (the file's one currency) or currency_column",
        "para birimini (dosyanın tek para birimi) ya da para birimi sütununu verin",
      ),
    path: ["currency"],
  })
  .refine((m) => m.decimal !== m.thousands, {
    error: () => t("the decimal and thousands marks must differ", "ondalık ve binlik işaretleri farklı olmalı"),
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

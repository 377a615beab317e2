import { t } from "../../infrastructure/i18n/locale.js";

/**
 * A payment's fields (the API's names) as Turkish readers know them: one table for the payment's page
 * and the PDF's headings. English shows the API's own names, which programs and the CSV use too.
 */
const TURKISH_FIELDS: Readonly<Record<string, string>> = {
  id: "Kimlik",
  amount: "Tutar",
  currency: "Para birimi",
  method: "Yöntem",
  from_account: "Gönderen hesap",
  to_account: "Alıcı hesap",
  status: "Durum",
  created_at: "Oluşturulma",
  completed_at: "Tamamlanma",
  settled_at: "Hesaba geçiş",
  description: "Açıklama",
  reference: "Referans",
};

/** The Turkish name of a payment's field, capitalised as a label; the API's name where there is none. */
export function turkishFieldName(name: string): string {
  return TURKISH_FIELDS[name] ?? name;
}

/** The English labels people read on the payment's page (the API's names stay in the CSV and the URL). */
const ENGLISH_FIELDS: Readonly<Record<string, string>> = {
  id: "ID",
  amount: "Amount",
  currency: "Currency",
  method: "Method",
  from_account: "From account",
  to_account: "To account",
  status: "Status",
  created_at: "Created",
  completed_at: "Completed",
  settled_at: "Settled",
  description: "Description",
  reference: "Reference",
};

/** A payment's field as a label in the active language's words; the API's name where there is none. */
export function fieldLabel(name: string): string {
  return t(ENGLISH_FIELDS[name] ?? name, turkishFieldName(name));
}

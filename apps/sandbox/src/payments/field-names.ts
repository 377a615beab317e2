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

// generated — do not edit.
// source: specs/card-gateway.openapi.yaml (info.version 3.0.0, sha256 d545745a28b9ee65394a70c10023b9beb45b2246ebcda72bfe65442470d9f0e2)
// regenerate with `pnpm generate`.

/** The daily transactions report's columns, in the file's order: Turkish header and row field. */
export const dailyTransactionsReportColumns = [
  {
    "header": "Oluşturulma Tarihi",
    "field": "createdDate"
  },
  {
    "header": "İşlem ID",
    "field": "transactionId"
  },
  {
    "header": "Sipariş ID",
    "field": "orderId"
  },
  {
    "header": "Durum",
    "field": "status"
  },
  {
    "header": "Tutar",
    "field": "amount"
  },
  {
    "header": "Para Birimi",
    "field": "currency"
  },
  {
    "header": "Komisyon",
    "field": "commission"
  },
  {
    "header": "Kart Numarası",
    "field": "cardNumber"
  },
  {
    "header": "Kart Sahibi",
    "field": "cardHolderName"
  },
  {
    "header": "Taksit",
    "field": "installment"
  },
  {
    "header": "Auth Kodu",
    "field": "authCode"
  },
  {
    "header": "Referans ID",
    "field": "referenceId"
  }
] as const;

export type DailyTransactionsReportField = (typeof dailyTransactionsReportColumns)[number]["field"];

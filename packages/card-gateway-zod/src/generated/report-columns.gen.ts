// generated — do not edit.
// source: specs/card-gateway.openapi.yaml (info.version 3.0.0, sha256 f885c07b5aceb6bd0422dfc20a3565e1ea1e56a6a4fe9f1dd71ea997be1eb021)
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

// generated — do not edit.
// source: specs/card-gateway.openapi.yaml (info.version 3.0.0, sha256 a2868d6e0e30fcddcd8e88add72828af7e2dd6171048f251ed85f99f8a8421e8)
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

// generated — do not edit.
// source: specs/card-gateway.openapi.yaml (info.version 2.0.0, sha256 fe9d020bb1b46d9695be3c18a6a8ccb3958eb17ab0d5915365f1dfcdc47d77c8)
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

import { type WordTable, wordsFrom } from "./word-table.js";

/**
 * The states the pages show, in words of the active language. The API's own value stays in the
 * markup (the badge's class, filters, exports), so what a script or a file reads never changes.
 */
const WORDS = {
  pending: ["pending", "beklemede"],
  approved: ["approved", "onaylandı"],
  processing: ["processing", "işleniyor"],
  completed: ["completed", "tamamlandı"],
  failed: ["failed", "başarısız"],
  cancelled: ["cancelled", "iptal edildi"],
  settled: ["settled", "hesaba geçti"],
  reconciled: ["reconciled", "mutabakatı yapıldı"],
  queued: ["queued", "sırada"],
  running: ["running", "hazırlanıyor"],
  retrying: ["retrying", "yeniden deneniyor"],
  ready: ["ready", "hazır"],
  sent: ["sent", "gönderildi"],
  caught: ["caught", "yakalandı"],
  success: ["success", "başarılı"],
  // The card gateway's outcomes (its paymentStatus, lower-cased): FAILURE is a bank's decline.
  failure: ["declined", "reddedildi"],
  waiting: ["waiting", "bekliyor"],
  init_threeds: ["3-D Secure started", "3-D Secure başladı"],
  callback_threeds: ["3-D Secure answered", "3-D Secure yanıtlandı"],
  partially_refunded: ["partially refunded", "kısmen iade edildi"],
  declined: ["declined", "reddedildi"],
  expired: ["expired", "süresi doldu"],
  revoked: ["revoked", "iptal edildi"],
  active: ["active", "etkin"],
  paused: ["paused", "duraklatıldı"],
  matched: ["matched", "eşleşti"],
  already_reconciled: ["already reconciled", "mutabakatı zaten yapılmış"],
  amount_differs: ["amount differs", "tutar farklı"],
  currency_differs: ["currency differs", "para birimi farklı"],
  no_payment: ["no payment", "ödeme yok"],
  not_settled: ["not settled", "hesaba geçmedi"],
  ambiguous: ["ambiguous", "belirsiz"],
  repeated_line: ["repeated line", "tekrarlanan satır"],
  credit_entry: ["credit entry", "alacak kaydı"],
  not_booked: ["not booked by the bank", "bankaca kesinleşmemiş"],
  date_differs: ["date differs", "tarih farklı"],
} satisfies WordTable;

/** A state in words ("processing" → "işleniyor"). */
export const statusWord = wordsFrom(WORDS);

/** What a state tells the reader at a glance: done well, still on its way, or needing attention. */
export type StateTone = "good" | "waiting" | "bad";

/**
 * Every state's tone, as a badge colours it: an exception (a reconciliation line with no payment, an
 * amount that differs) reads apart from a match, a wait from an outcome.
 */
const TONES: Readonly<Record<keyof typeof WORDS, StateTone>> = {
  pending: "waiting",
  approved: "waiting",
  processing: "waiting",
  completed: "good",
  failed: "bad",
  cancelled: "bad",
  settled: "good",
  reconciled: "good",
  queued: "waiting",
  running: "waiting",
  retrying: "waiting",
  ready: "good",
  sent: "good",
  caught: "good",
  success: "good",
  failure: "bad",
  waiting: "waiting",
  init_threeds: "waiting",
  callback_threeds: "waiting",
  partially_refunded: "good",
  declined: "bad",
  expired: "bad",
  revoked: "bad",
  active: "good",
  paused: "waiting",
  matched: "good",
  already_reconciled: "waiting",
  amount_differs: "bad",
  currency_differs: "bad",
  no_payment: "bad",
  not_settled: "waiting",
  ambiguous: "bad",
  repeated_line: "waiting",
  credit_entry: "waiting",
  not_booked: "waiting",
  date_differs: "bad",
};

/** A state's tone; a state this table does not know reads as waiting (never as good). */
export function stateTone(state: string): StateTone {
  return (TONES as Readonly<Record<string, StateTone>>)[state] ?? "waiting";
}

/** The states the dashboard shows, for a test that each has its word and its tone. */
export const STATES: readonly string[] = Object.keys(WORDS);

import { t } from "../infrastructure/i18n/locale.js";

/** The days a weekly schedule runs on, 1 (Monday) to 7 (Sunday), as the seed's ISO weekdays: English, Turkish. */
const WEEKDAYS: readonly (readonly [en: string, tr: string])[] = [
  ["Monday", "Pazartesi"],
  ["Tuesday", "Salı"],
  ["Wednesday", "Çarşamba"],
  ["Thursday", "Perşembe"],
  ["Friday", "Cuma"],
  ["Saturday", "Cumartesi"],
  ["Sunday", "Pazar"],
];

/** Day `n` (1 Monday … 7 Sunday; Monday for anything else) in the active language. */
export function weekdayName(n: number | undefined): string {
  const [en, tr] = WEEKDAYS[(n ?? 1) - 1] ?? ["Monday", "Pazartesi"];
  return t(en, tr);
}

/** The week's days in the active language, Monday first. */
export function weekdayNames(): string[] {
  return WEEKDAYS.map(([en, tr]) => t(en, tr));
}

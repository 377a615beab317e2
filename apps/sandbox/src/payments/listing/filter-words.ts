import { calendarDay } from "../../infrastructure/i18n/formats.js";
import { t } from "../../infrastructure/i18n/locale.js";
import { methodWord } from "../../infrastructure/i18n/method-words.js";
import { statusWord } from "../../infrastructure/i18n/status-words.js";

/** Each filter's name as a title or an e-mail says it (English keeps the API's names, which the address shows). */
const NAMES = {
  status: ["status", "durum"],
  method: ["method", "yöntem"],
  account: ["account", "hesap"],
  from: ["from", "başlangıç"],
  to: ["to", "bitiş"],
  search: ["search", "arama"],
} as const;

/** An account as a filter names it: its name, when the workspace still has it. */
export interface NamedAccount {
  readonly id: string;
  readonly name: string;
}

/**
 * The filters that are set, in words of the active language, for titles and e-mails: "status
 * completed, method bank transfer, account Ana hesap (acc_…)"; "durum tamamlandı, yöntem havale".
 * Never "method undefined". Takes a listing's filters (ListingFilters) or a stored job's or
 * schedule's; with the workspace's accounts, an account is named as people know it.
 */
export function filterWords(
  filters: Readonly<Partial<Record<keyof typeof NAMES, string>>>,
  accounts: readonly NamedAccount[] = [],
): string {
  return (Object.keys(NAMES) as (keyof typeof NAMES)[])
    .flatMap((name) => {
      const value = filters[name];
      if (value === undefined || value === "") return [];
      const shown =
        name === "status"
          ? statusWord(value)
          : name === "method"
            ? methodWord(value)
            : name === "account"
              ? accountWords(value, accounts)
              : (name === "from" || name === "to") && /^\d{4}-\d{2}-\d{2}$/.test(value)
                ? calendarDay(value)
                : value;
      const [english, turkish] = NAMES[name];
      return [`${t(english, turkish)} ${shown}`];
    })
    .join(", ");
}

function accountWords(id: string, accounts: readonly NamedAccount[]): string {
  const account = accounts.find((a) => a.id === id);
  return account ? `${account.name} (${id})` : id;
}

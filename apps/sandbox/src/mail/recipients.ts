import { containsCardNumber } from "@payspec/server-kit";
import { t } from "../infrastructure/i18n/locale.js";

/** At most this many report recipients per workspace. */
export const MAX_RECIPIENTS = 10;

/**
 * A deliberately plain address: local part and domain of printable ASCII without spaces, quotes,
 * commas or angle brackets, and a dot in the domain. Anything an SMTP server could read as a second
 * header or recipient is out.
 */
const ADDRESS = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;

export type RecipientsResult = { readonly recipients: readonly string[] } | { readonly problem: string };

/** "2", "2 and 4", "2, 4 and 7" (in Turkish the ordinals "2.", "2. ve 4."): the positions a problem is about. */
function positions(list: readonly number[]): string {
  const words = list.map((n) => t(String(n), `${n}.`));
  return words.length === 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")}${t(" and ", " ve ")}${words.at(-1)}`;
}

/** An address as it is kept: the domain in lower case (it is case-blind), the local part as typed. */
function normalised(address: string): string {
  const at = address.lastIndexOf("@");
  return `${address.slice(0, at)}@${address.slice(at + 1).toLowerCase()}`;
}

/**
 * Report recipients from a form's text (one address per line, or separated by commas or
 * semicolons) or a JSON array: trimmed, domains in lower case, duplicates dropped, in the order
 * given. Every address at fault is named at once, by its position, never by its text.
 */
export function parseRecipients(input: string | readonly unknown[]): RecipientsResult {
  const entries = typeof input === "string" ? input.split(/[\n\r,;]+/) : [...input];
  const recipients: string[] = [];
  const notText: number[] = [];
  const cardLike: number[] = [];
  const notAddress: number[] = [];
  let position = 0;
  for (const entry of entries) {
    if (typeof entry !== "string") {
      notText.push(++position);
      continue;
    }
    const address = entry.trim();
    if (address === "") continue;
    position++;
    if (containsCardNumber(address)) cardLike.push(position);
    else if (address.length > 254 || !ADDRESS.test(address)) notAddress.push(position);
    else if (!recipients.some((r) => r.toLowerCase() === address.toLowerCase())) recipients.push(normalised(address));
  }
  const problems = [
    notText.length > 0 &&
      t(
        `Recipient${notText.length > 1 ? "s" : ""} ${positions(notText)} must be text.`,
        `${positions(notText)} alıcı metin olmalı.`,
      ),
    cardLike.length > 0 &&
      t(
        `Recipient${cardLike.length > 1 ? "s" : ""} ${positions(cardLike)} ${cardLike.length > 1 ? "look like they hold" : "looks like it holds"} a card number, which no text here may carry; remove ${cardLike.length > 1 ? "them" : "it"}.`,
        `${positions(cardLike)} alıcı bir kart numarası içeriyor gibi görünüyor; buradaki hiçbir metin kart numarası taşıyamaz, silin.`,
      ),
    notAddress.length > 0 &&
      t(
        `Recipient${notAddress.length > 1 ? "s" : ""} ${positions(notAddress)} ${notAddress.length === 1 ? "is not an e-mail address" : "are not e-mail addresses"}: write each as name@example.com, one per line.`,
        `${positions(notAddress)} alıcı bir e-posta adresi değil: her satıra bir tane, ad@example.com biçiminde yazın.`,
      ),
    recipients.length > MAX_RECIPIENTS &&
      t(
        `At most ${MAX_RECIPIENTS} recipients: remove ${recipients.length - MAX_RECIPIENTS}.`,
        `En çok ${MAX_RECIPIENTS} alıcı: ${recipients.length - MAX_RECIPIENTS} tanesini silin.`,
      ),
  ].filter((problem): problem is string => typeof problem === "string");
  return problems.length > 0 ? { problem: problems.join(" ") } : { recipients };
}

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

/**
 * Report recipients from a form's text (one address per line, or separated by commas or
 * semicolons) or a JSON array: trimmed, duplicates dropped, in the order given. A problem names the
 * position of the address at fault, never its text.
 */
export function parseRecipients(input: string | readonly unknown[]): RecipientsResult {
  const entries = typeof input === "string" ? input.split(/[\n\r,;]+/) : [...input];
  const recipients: string[] = [];
  let position = 0;
  for (const entry of entries) {
    if (typeof entry !== "string")
      return { problem: t(`Recipient ${position + 1} must be a string.`, `${position + 1}. alıcı metin olmalı.`) };
    const address = entry.trim();
    if (address === "") continue;
    position++;
    if (containsCardNumber(address)) {
      return {
        problem: t(
          `Recipient ${position} looks like it holds a card number, which no text here may carry; remove it.`,
          `${position}. alıcı bir kart numarası içeriyor gibi görünüyor; buradaki hiçbir metin kart numarası taşıyamaz, silin.`,
        ),
      };
    }
    if (address.length > 254 || !ADDRESS.test(address)) {
      return {
        problem: t(
          `Recipient ${position} is not an e-mail address: write it as name@example.com, one per line.`,
          `${position}. alıcı bir e-posta adresi değil: her satıra bir tane, ad@example.com biçiminde yazın.`,
        ),
      };
    }
    if (!recipients.some((r) => r.toLowerCase() === address.toLowerCase())) recipients.push(address);
  }
  if (recipients.length > MAX_RECIPIENTS) {
    return {
      problem: t(
        `At most ${MAX_RECIPIENTS} recipients: remove ${recipients.length - MAX_RECIPIENTS}.`,
        `En çok ${MAX_RECIPIENTS} alıcı: ${recipients.length - MAX_RECIPIENTS} tanesini silin.`,
      ),
    };
  }
  return { recipients };
}

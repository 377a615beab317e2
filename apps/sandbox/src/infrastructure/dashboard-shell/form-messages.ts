import { t } from "../i18n/locale.js";

/**
 * The schema's messages as sentences for people filling in a form, in their language: "Too big:
 * expected string to have <=500 characters" becomes "At most 500 characters." ("En çok 500
 * karakter."). Messages it does not know stay as they are.
 */
export function inWords(message: string): string {
  const rules: [RegExp, (m: RegExpMatchArray) => string][] = [
    [
      /^Too big: expected string to have <=(\d+) characters?/,
      (m) => t(`At most ${m[1]} characters.`, `En çok ${m[1]} karakter.`),
    ],
    [/^Too small: expected string to have >=1 characters?/, () => t("Required.", "Zorunlu.")],
    [
      /^Too small: expected string to have >=(\d+) characters?/,
      (m) => t(`At least ${m[1]} characters.`, `En az ${m[1]} karakter.`),
    ],
    [/^Too big: expected (?:number|int) to be <=?(\S+)/, (m) => t(`At most ${m[1]}.`, `En çok ${m[1]}.`)],
    [/^Too small: expected (?:number|int) to be >=?(\S+)/, (m) => t(`At least ${m[1]}.`, `En az ${m[1]}.`)],
    [
      /^Invalid option: expected one of (.+)$/,
      (m) => {
        const options = m[1]?.replaceAll('"', "").replaceAll("|", ", ");
        return t(`Choose one of ${options}.`, `Şunlardan birini seçin: ${options}.`);
      },
    ],
    [/^Invalid input: expected \w+, received undefined$/, () => t("Required.", "Zorunlu.")],
  ];
  for (const [pattern, say] of rules) {
    const match = message.match(pattern);
    if (match) return say(match);
  }
  return message;
}

/**
 * The schema's messages as sentences for people filling in a form: "Too big: expected string to have
 * <=500 characters" becomes "At most 500 characters." Messages it does not know stay as they are.
 */
export function inWords(message: string): string {
  const rules: [RegExp, (m: RegExpMatchArray) => string][] = [
    [/^Too big: expected string to have <=(\d+) characters?/, (m) => `At most ${m[1]} characters.`],
    [/^Too small: expected string to have >=1 characters?/, () => "Required."],
    [/^Too small: expected string to have >=(\d+) characters?/, (m) => `At least ${m[1]} characters.`],
    [/^Too big: expected (?:number|int) to be <=?(\S+)/, (m) => `At most ${m[1]}.`],
    [/^Too small: expected (?:number|int) to be >=?(\S+)/, (m) => `At least ${m[1]}.`],
    [
      /^Invalid option: expected one of (.+)$/,
      (m) => `Choose one of ${m[1]?.replaceAll('"', "").replaceAll("|", ", ")}.`,
    ],
    [/^Invalid input: expected \w+, received undefined$/, () => "Required."],
  ];
  for (const [pattern, say] of rules) {
    const match = message.match(pattern);
    if (match) return say(match);
  }
  return message;
}

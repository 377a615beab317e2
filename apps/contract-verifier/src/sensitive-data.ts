/** Card data the run itself sent, so that an echo of exactly it is recognised. */
export interface SentCardData {
  readonly cardNumbers: ReadonlySet<string>;
  readonly cvcs: ReadonlySet<string>;
}

const CVC_KEY = /^(cvc2?|cvv2?|cid|security_?code)$/i;
/** 13 to 19 digits standing alone (not inside a longer word, number or decimal). */
const DIGIT_RUN = /(?<![\w.])\d{13,19}(?![\w.])/g;

/** The Luhn checksum every real card number passes (and random digit runs fail nine times in ten). */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Every card number and CVC in a request body, wherever they are nested. */
export function cardDataIn(value: unknown, into: { cardNumbers: Set<string>; cvcs: Set<string> }): void {
  if (Array.isArray(value)) for (const item of value) cardDataIn(item, into);
  else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (/^card_?number$/i.test(key) && (typeof item === "string" || typeof item === "number"))
        into.cardNumbers.add(String(item));
      else if (CVC_KEY.test(key) && (typeof item === "string" || typeof item === "number")) into.cvcs.add(String(item));
      else cardDataIn(item, into);
    }
  }
}

/** Values (strings or numbers) of fields named like a card number, wherever they are nested. */
function* cardLikeValues(value: unknown, path = ""): Generator<{ text: string; path: string }> {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) yield* cardLikeValues(item, `${path}[${i}]`);
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (CARD_NUMBER_NAME.test(key) && (typeof item === "string" || typeof item === "number"))
        yield { text: String(item), path: at };
      else yield* cardLikeValues(item, at);
    }
  }
}

function* keysAndStrings(value: unknown, path = ""): Generator<{ kind: "key" | "string"; text: string; path: string }> {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) yield* keysAndStrings(item, `${path}[${i}]`);
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      yield { kind: "key", text: key, path: at };
      yield* keysAndStrings(item, at);
    }
  } else if (typeof value === "string") {
    yield { kind: "string", text: value, path: path || "(body)" };
  }
}

/** Names of fields and headers that hold a card number: cardNumber, card_no, pan, primaryAccountNumber, ccNumber. */
const CARD_NUMBER_NAME =
  /(card[-_]?(number|num|no)|^pan$|[-_]pan$|primary[-_]?account[-_]?number|^cc[-_]?(number|num)$|credit[-_]?card)/i;

/**
 * What card data a response holds, described without repeating it: a `cvc`/`cvv` field, a string
 * that is a CVC the run sent, any card number the run sent, or a 13–19 digit run that passes Luhn.
 * `anywhere` (the payment APIs, where no such number belongs in an answer): in the body's text, JSON
 * or not, and in headers. `card-context` (any other API, whose timestamps and ids pass Luhn one time
 * in ten): only in a field or header named like a card number.
 */
export function cardDataFindings(
  response: { readonly text: string; readonly json: unknown; readonly headers: Readonly<Record<string, string>> },
  sent: SentCardData,
  where: "anywhere" | "card-context" = "anywhere",
): string[] {
  const findings = new Set<string>();
  for (const item of keysAndStrings(response.json)) {
    if (item.kind === "key" && CVC_KEY.test(item.text)) findings.add(`a "${item.text}" field at ${item.path}`);
    if (item.kind === "string" && sent.cvcs.has(item.text.trim())) findings.add(`a CVC the run sent, at ${item.path}`);
  }
  if (where === "card-context") {
    for (const item of cardLikeValues(response.json)) {
      const digits = item.text.replace(/[\s-]/g, "");
      if (/^\d{13,19}$/.test(digits) && passesLuhn(digits))
        findings.add(`a ${digits.length}-digit number that passes Luhn (a full card number), at ${item.path}`);
    }
    for (const [name, text] of Object.entries(response.headers)) {
      const digits = text.replace(/[\s-]/g, "");
      if (CARD_NUMBER_NAME.test(name) && /^\d{13,19}$/.test(digits) && passesLuhn(digits))
        findings.add(`a full card number in the ${name} header`);
    }
    for (const { where: place, text } of [
      { where: "the body", text: response.text },
      ...Object.entries(response.headers).map(([name, text]) => ({ where: `the ${name} header`, text })),
    ]) {
      for (const pan of sent.cardNumbers)
        if (pan.length >= 13 && text.includes(pan)) findings.add(`a card number the run sent, in ${place}`);
    }
    return [...findings];
  }
  const texts = [
    { where: "the body", text: response.text },
    ...Object.entries(response.headers).map(([name, text]) => ({ where: `the ${name} header`, text })),
  ];
  for (const { where, text } of texts) {
    for (const pan of sent.cardNumbers)
      if (pan.length >= 13 && text.includes(pan)) findings.add(`a card number the run sent, in ${where}`);
    for (const match of text.matchAll(DIGIT_RUN)) {
      if (passesLuhn(match[0]))
        findings.add(`a ${match[0].length}-digit number that passes Luhn (a full card number), in ${where}`);
    }
  }
  return [...findings];
}

/** What the sandbox bank knows about a card from its BIN (first six digits). */
export interface BinInfo {
  readonly cardSchema: string;
  readonly cardBank: string;
  readonly cardBrand: string;
  readonly bankCode: string;
  readonly terminal: string;
}

/** How the sandbox answers a card: the test-card table documented in the gateway spec and README. */
export type CardOutcome = "success" | "bank-decline" | "risk-reject" | "three-d-secure-required";

const BINS: Record<string, BinInfo> = {
  "552879": {
    cardSchema: "MASTERCARD",
    cardBank: "Garanti BBVA",
    cardBrand: "BONUS",
    bankCode: "0062",
    terminal: "GARANTI-VPOS-01",
  },
  "454359": {
    cardSchema: "VISA",
    cardBank: "Akbank",
    cardBrand: "AXESS",
    bankCode: "0046",
    terminal: "AKBANK-VPOS-01",
  },
  "979203": {
    cardSchema: "TROY",
    cardBank: "Ziraat Bankası",
    cardBrand: "BANKKART",
    bankCode: "0010",
    terminal: "ZIRAAT-VPOS-01",
  },
  "415792": {
    cardSchema: "VISA",
    cardBank: "Yapı Kredi",
    cardBrand: "WORLD",
    bankCode: "0067",
    terminal: "YKB-VPOS-02",
  },
  "540001": {
    cardSchema: "MASTERCARD",
    cardBank: "İş Bankası",
    cardBrand: "MAXIMUM",
    bankCode: "0064",
    terminal: "ISBANK-VPOS-01",
  },
  "400000": { cardSchema: "VISA", cardBank: "QNB", cardBrand: "CARDFINANS", bankCode: "0111", terminal: "QNB-VPOS-01" },
};

const UNKNOWN_BIN: BinInfo = {
  cardSchema: "UNKNOWN",
  cardBank: "UNKNOWN",
  cardBrand: "UNKNOWN",
  bankCode: "0000",
  terminal: "SANDBOX-VPOS-01",
};

/** The sandbox's test cards. Any other valid number succeeds. */
export const TEST_CARDS: Readonly<Record<string, CardOutcome>> = {
  "5528790000000008": "success",
  "4543590000000006": "success",
  "9792030000000000": "success",
  "4157920000000002": "bank-decline",
  "5400010000000004": "risk-reject",
  "4000000000003220": "three-d-secure-required",
};

export function binInfo(cardNumber: string): BinInfo {
  return BINS[cardNumber.slice(0, 6)] ?? UNKNOWN_BIN;
}

export function outcomeOf(cardNumber: string): CardOutcome {
  return TEST_CARDS[cardNumber] ?? "success";
}

/** First six and last four digits, the rest `*`: the only form a card number leaves the handler in. */
export function maskCardNumber(cardNumber: string): string {
  return `${cardNumber.slice(0, 6)}${"*".repeat(cardNumber.length - 10)}${cardNumber.slice(-4)}`;
}

/** Commission in percent by installment count: single payments 2.49%, each extra installment adds 0.70. */
export function commissionRate(installment: number): number {
  return Math.round((2.49 + 0.7 * (installment - 1)) * 100) / 100;
}

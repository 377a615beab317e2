import { stretchOf } from "./stretches.js";

/** Bits per stretch: 2 KiB for 1,024 payments, about two bytes a payment. */
const BITS = 16_384;

/**
 * Where the dashboard's search can find its words along a workspace's listing, in memory: for each
 * stretch of 1,024 payments (see stretches.ts), one bit for every piece of one to
 * three letters of their folded reference and description, at that piece's hash. A search skips
 * every stretch missing a bit of its words' three-letter pieces (or, for a word of one or two letters,
 * the word's own), so a reference typed in full reads a few stretches rather than every payment;
 * PostgreSQL does the same with its trigram index (migration 0016). A bit set by another piece only
 * makes a stretch read for nothing: no payment that holds the words is ever skipped. What search looks
 * in never changes after a create, so a stretch's bits hold for every snapshot.
 */
export class SearchStretches {
  readonly #bits: Uint32Array[] = [];

  /** The pieces a search for `folded` needs every one of, as bit positions. */
  static piecesOf(folded: string): number[] {
    const letters = codePoints(folded);
    const size = Math.min(3, letters.length);
    const pieces = new Set<number>();
    for (let i = 0; i + size <= letters.length && size > 0; i++) {
      let hash = FNV_OFFSET;
      for (let j = i; j < i + size; j++) hash = step(hash, letters[j] as number);
      pieces.add(bitOf(hash));
    }
    return [...pieces];
  }

  /** The payment at `index` has this folded text (`foldForSearch` of what search looks in). */
  add(index: number, folded: string): void {
    const stretch = stretchOf(index);
    let bits = this.#bits[stretch];
    if (!bits) {
      bits = new Uint32Array(BITS / 32);
      this.#bits[stretch] = bits;
    }
    const letters = codePoints(folded);
    // Each piece's hash extends the one before it: the letter alone, then with the next, then the next two.
    for (let i = 0; i < letters.length; i++) {
      let hash = FNV_OFFSET;
      for (let j = i; j < i + 3 && j < letters.length; j++) {
        hash = step(hash, letters[j] as number);
        const bit = bitOf(hash);
        bits[bit >>> 5] = (bits[bit >>> 5] as number) | (1 << (bit & 31));
      }
    }
  }

  /** Whether a payment of the stretch may hold text with all these pieces (`piecesOf`). */
  mayHold(stretch: number, pieces: readonly number[]): boolean {
    const bits = this.#bits[stretch];
    if (!bits) return pieces.length === 0;
    return pieces.every((bit) => ((bits[bit >>> 5] as number) & (1 << (bit & 31))) !== 0);
  }
}

const FNV_OFFSET = 0x811c9dc5;

/** One letter more of a piece's FNV-1a hash. */
const step = (hash: number, letter: number) => Math.imul(hash ^ letter, 0x01000193);

const bitOf = (hash: number) => (hash >>> 0) % BITS;

function codePoints(text: string): number[] {
  const letters: number[] = [];
  for (const letter of text) letters.push(letter.codePointAt(0) as number);
  return letters;
}

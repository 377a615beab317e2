import { createRequire } from "node:module";

const fonts = createRequire(import.meta.url);

/** DejaVu (Bitstream Vera licence, public-domain changes): every Turkish letter, embedded as a subset. */
export const MONOSPACED_FONT = fonts.resolve("dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf");
export const TITLE_FONT = fonts.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf");

/** Shown for a character the font has no glyph for (an emoji, a control character). */
const REPLACEMENT = 0xfffd;

/** The parts of pdfkit's embedded font this writer fills in itself, as pdfkit's own `encode` does. */
interface EmbeddedFont {
  id: string;
  ref(): unknown;
  ascender: number;
  scale: number;
  font: {
    hasGlyphForCodePoint(codePoint: number): boolean;
    glyphForCodePoint(codePoint: number): { id: number; advanceWidth: number };
  };
  subset: { includeGlyph(glyphId: number): number };
  widths: number[];
  unicode: number[][];
}

interface DocumentInternals {
  _font: EmbeddedFont;
  page: { height: number; fonts: Record<string, unknown>; xobjects: Record<string, unknown> };
  addContent(data: string): unknown;
  ref(data: Record<string, unknown>): { end(chunk: string): void };
}

/** Text known only once the document is written (a page count), shown on pages written before that. */
export interface DeferredText {
  /** Draws it on the current page, its top left at `x`, `y` (as PlacedText). */
  place(x: number, y: number): void;
  /** What it says, everywhere it was placed: once, at the end. */
  fill(text: string): void;
}

export interface PlacedText {
  /** From the page's left edge, in points. */
  x: number;
  /** From the page's top edge to the top of the line, in points. */
  y: number;
  text: string;
}

/**
 * Text in one embedded monospaced font, written without pdfkit's text layout. Layout runs the font's
 * shaping engine on every word and caches each distinct word for the document's lifetime: for a
 * 100,000-row table of unique ids that is slow and grows without bound. A fixed-pitch font needs
 * neither, so each character maps straight to its glyph (cached per character, so bounded), and a
 * whole page's lines go out as one text object. The glyphs and their Unicode values are registered
 * with pdfkit's subset, so the PDF embeds only the glyphs used and text copied or extracted from
 * it is the original text.
 */
export class MonospacedText {
  readonly #doc: DocumentInternals;
  readonly #font: EmbeddedFont;
  readonly #size: number;
  readonly #hex = new Map<number, string>();
  /** The advance of one character, in points. */
  readonly charWidth: number;

  constructor(doc: PDFKit.PDFDocument, size: number) {
    doc.font(MONOSPACED_FONT).fontSize(size);
    this.#doc = doc as unknown as DocumentInternals;
    this.#font = this.#doc._font;
    if (typeof this.#font?.subset?.includeGlyph !== "function") {
      throw new Error("pdfkit's embedded font no longer has the shape MonospacedText writes into: pin pdfkit");
    }
    this.#size = size;
    this.charWidth = this.#font.font.glyphForCodePoint(0x30).advanceWidth * this.#font.scale * (size / 1000);
  }

  /** How many characters fit in a width of `points`. */
  fit(points: number): number {
    return Math.floor(points / this.charWidth);
  }

  /** Writes the lines on the current page as one text object. */
  write(lines: readonly PlacedText[]): void {
    if (lines.length === 0) return;
    const font = this.#font;
    const doc = this.#doc;
    doc.page.fonts[font.id] ??= font.ref();
    const height = doc.page.height;
    const ascent = (font.ascender / 1000) * this.#size;
    const parts = [`q 1 0 0 -1 0 ${height} cm BT /${font.id} ${this.#size} Tf`];
    for (const { x, y, text } of lines) {
      parts.push(`1 0 0 1 ${x.toFixed(2)} ${(height - y - ascent).toFixed(2)} Tm <${this.#encode(text)}> Tj`);
    }
    parts.push("ET Q");
    doc.addContent(parts.join("\n"));
  }

  /**
   * A PDF form XObject: each page draws it by name, and its content is written last, when it is known
   * (the pages are already written, so "page 2 of 9" needs no second pass over the payments).
   */
  deferred(): DeferredText {
    const doc = this.#doc;
    const font = this.#font;
    const size = this.#size;
    const label = `Deferred${++this.#deferredCount}`;
    const form = doc.ref({
      Type: "XObject",
      Subtype: "Form",
      BBox: [0, -size, 40 * this.charWidth, 2 * size],
      Resources: { Font: { [font.id]: font.ref() } },
    });
    return {
      place: (x, y) => {
        doc.page.xobjects[label] = form;
        const height = doc.page.height;
        const baseline = height - y - (font.ascender / 1000) * size;
        doc.addContent(`q 1 0 0 -1 0 ${height} cm 1 0 0 1 ${x.toFixed(2)} ${baseline.toFixed(2)} cm /${label} Do Q`);
      },
      fill: (text) => form.end(`BT /${font.id} ${size} Tf <${this.#encode(text)}> Tj ET`),
    };
  }

  #deferredCount = 0;

  #encode(text: string): string {
    let hex = "";
    for (const character of text) {
      const codePoint = character.codePointAt(0) as number;
      hex += this.#hex.get(codePoint) ?? this.#glyph(codePoint);
    }
    return hex;
  }

  #glyph(codePoint: number): string {
    const font = this.#font;
    const shown = font.font.hasGlyphForCodePoint(codePoint) && codePoint >= 0x20 ? codePoint : REPLACEMENT;
    const glyph = font.font.glyphForCodePoint(shown);
    const id = font.subset.includeGlyph(glyph.id);
    font.widths[id] ??= glyph.advanceWidth * font.scale;
    font.unicode[id] ??= [shown];
    const hex = id.toString(16).padStart(4, "0");
    this.#hex.set(codePoint, hex);
    return hex;
  }
}

/**
 * Cuts text into lines of at most `width` characters: at the last space that fits, the space itself
 * dropped as any word wrap does, or within a word too long for a line. Whole code points, so no
 * emoji is split; nothing else is left out.
 */
export function wrapText(text: string, width: number): string[] {
  const characters = Array.from(text);
  if (characters.length <= width) return [text];
  const lines: string[] = [];
  let start = 0;
  while (characters.length - start > width) {
    let end = start + width;
    if (characters[end] === " ") {
      lines.push(characters.slice(start, end).join(""));
      start = end + 1;
      continue;
    }
    const space = characters.lastIndexOf(" ", end - 1);
    if (space > start) end = space;
    lines.push(characters.slice(start, end).join(""));
    start = end === space ? end + 1 : end;
  }
  lines.push(characters.slice(start).join(""));
  return lines;
}

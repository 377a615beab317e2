import { describe, expect, it } from "vitest";
import { wrapText } from "../../monospaced-text.js";

describe("wrapping a PDF cell", () => {
  it("breaks at the last space that fits, and leaves that space out", () => {
    expect(wrapText("Kasım faturası İzmir", 10)).toEqual(["Kasım", "faturası", "İzmir"]);
    expect(wrapText("ab cd", 2)).toEqual(["ab", "cd"]);
  });

  it("cuts a word longer than a line within it, and keeps every character", () => {
    const reference = "ŞĞİ-ışğüöç-0042-ÇÖÜ";
    const lines = wrapText(reference, 6);
    expect(lines.every((line) => Array.from(line).length <= 6)).toBe(true);
    expect(lines.join("")).toBe(reference);
  });

  it("counts an emoji as one character and never splits it", () => {
    expect(wrapText("🙂🙂🙂", 2)).toEqual(["🙂🙂", "🙂"]);
    expect(wrapText("ab", 2)).toEqual(["ab"]);
  });
});

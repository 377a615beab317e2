import fc from "fast-check";
import { expect, it } from "vitest";
import { foldForSearch } from "../../../../../infrastructure/text/search-fold.js";
import { numberedId, numberedPayments } from "../../../../test/support/numbered-payments.js";
import type { PaymentQuery } from "../../../payments-store.js";
import { SearchStretches } from "../../search-stretches.js";
import { stretchOf } from "../../stretches.js";

/**
 * The dashboard's search in memory skips the stretches of 1,024 payments whose bits lack a piece of
 * its words. It may read a stretch for nothing, never skip one that holds the words.
 */
it("never skips a stretch holding the words searched for, whatever the text and wherever the words start", () => {
  fc.assert(
    fc.property(
      fc.array(fc.string({ unit: fc.constantFrom(..."aıİiIşŞğĞüçö0123456789-/ 😀") }), {
        minLength: 1,
        maxLength: 40,
      }),
      fc.nat(),
      fc.nat(),
      fc.nat(),
      (texts, which, start, length) => {
        const stretches = new SearchStretches();
        const folded = texts.map(foldForSearch);
        for (const [i, text] of folded.entries()) stretches.add(i * 97, text);
        const index = which % folded.length;
        const letters = [...(folded[index] as string)];
        const from = letters.length === 0 ? 0 : start % letters.length;
        const words = letters.slice(from, from + (length % 6)).join("");
        expect(stretches.mayHold(stretchOf(index * 97), SearchStretches.piecesOf(words))).toBe(true);
      },
    ),
    { numRuns: 500 },
  );
});

it("skips a stretch whose payments hold none of the words", () => {
  const stretches = new SearchStretches();
  stretches.add(0, foldForSearch("INV-2026-0007\nKira ödemesi — İzmir"));
  stretches.add(1_024, foldForSearch("FTR-88\nŞirket aidatı — Iğdır"));
  expect(stretches.mayHold(0, SearchStretches.piecesOf(foldForSearch("izmir")))).toBe(true);
  expect(stretches.mayHold(1, SearchStretches.piecesOf(foldForSearch("izmir")))).toBe(false);
  expect(stretches.mayHold(1, SearchStretches.piecesOf(foldForSearch("IĞDIR")))).toBe(true);
  expect(stretches.mayHold(0, SearchStretches.piecesOf(foldForSearch("ığdır")))).toBe(false);
  // A stretch nothing was made in holds nothing, but the empty search, which every payment matches.
  expect(stretches.mayHold(7, SearchStretches.piecesOf("a"))).toBe(false);
  expect(stretches.mayHold(7, SearchStretches.piecesOf(""))).toBe(true);
});

it("pages through a rare reference across stretches, both ways, with the total a full read gives", async () => {
  // The words in four stretches only, one of them in Turkish capitals; every other payment has its own reference.
  const holders = new Map([
    [5, "SÖZLEŞME-İZMİR-41"],
    [2_050, "sözleşme-izmir-41"],
    [2_051, "Sözleşme-İzmir-41 (ek)"],
    [4_999, "SOZLESME-IZMIR-41"],
  ]);
  const { store, workspace } = await numberedPayments("sk_sandbox_search_stretches", 5_000, (i) => ({
    reference: holders.get(i) ?? `INV-${i}`,
    description: i === 3_333 ? "sözleşme izmir 41" : "Kira ödemesi",
  }));
  const snapshot = await store.snapshot(workspace);
  // Accents stay (ö is not o), and the dotted and dotless i fold together.
  const expected = [5, 2_050, 2_051].map(numberedId);
  const search = foldForSearch("sözleşme-izmir-41");
  for (const descending of [false, true]) {
    const seen: string[] = [];
    let cursor = descending ? snapshot.seq + 1 : 0;
    for (let page = 0; page < 10; page++) {
      const query: PaymentQuery = {
        afterSeq: descending ? 0 : cursor,
        snapshotSeq: descending ? cursor - 1 : snapshot.seq,
        asOfVersion: snapshot.version,
        limit: 1,
        descending,
        countTotal: page === 0,
        search,
      };
      const { items, total } = await store.list(workspace, query);
      if (page === 0) expect(total).toBe(expected.length);
      if (items.length === 0) break;
      seen.push(...items.map((p) => p.id));
      cursor = items.at(-1)?.seq as number;
    }
    expect(seen).toEqual(descending ? [...expected].reverse() : expected);
  }
});

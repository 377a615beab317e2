import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

/**
 * What a PDF reader (Mozilla's pdf.js, not our own parsing) shows, run by run, page after page;
 * `pages: "last"` reads only the last page, where a summary is (reading every page of a 20,000-payment
 * export cost a test about 20 s of CPU).
 */
export async function pdfRuns(
  bytes: Buffer,
  { pages: which = "all" }: { pages?: "all" | "last" } = {},
): Promise<{ runs: string[]; pages: number }> {
  const document = await getDocument({
    data: new Uint8Array(bytes),
    disableFontFace: true,
    isEvalSupported: false,
    useSystemFonts: false,
    verbosity: 0,
  }).promise;
  const runs: string[] = [];
  for (let number = which === "last" ? document.numPages : 1; number <= document.numPages; number++) {
    const content = await (await document.getPage(number)).getTextContent();
    // pdf.js cuts text at its spaces and fills the gaps between columns with a space item. A space one
    // character wide joins its neighbours into one run again; a wider gap starts a new run.
    let end = { x: Number.NaN, y: Number.NaN, charWidth: 0 };
    for (const item of content.items) {
      if (!("str" in item) || item.str === "") continue;
      const [x, y] = [item.transform[4] as number, item.transform[5] as number];
      const sameLine = Math.abs(y - end.y) < 0.01;
      const follows = sameLine && Math.abs(x - end.x) < 0.5;
      // Text drawn one blank character further on (a PDF draws no space glyph there) reads as a space,
      // as it does to a person: a page count drawn after "page 2 of".
      const afterOneSpace = sameLine && x - end.x > 0.5 && x - end.x < 1.5 * end.charWidth;
      const gap = item.str.trim() === "" && item.width > 1.5 * end.charWidth;
      if (afterOneSpace && !gap) runs[runs.length - 1] += ` ${item.str}`;
      else if (follows && !gap) runs[runs.length - 1] += item.str;
      else if (!gap) runs.push(item.str);
      end = gap
        ? { x: Number.NaN, y, charWidth: end.charWidth }
        : { x: x + item.width, y, charWidth: item.width / Array.from(item.str).length };
    }
  }
  const pages = document.numPages;
  await document.destroy();
  return { runs, pages };
}

/** The PDF's text, one run per line. */
export async function pdfText(bytes: Buffer): Promise<string> {
  return (await pdfRuns(bytes)).runs.join("\n");
}

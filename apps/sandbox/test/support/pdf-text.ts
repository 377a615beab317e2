import { inflateSync } from "node:zlib";

/** The text of every stream of a PDF: PDFKit deflates them and writes text as hex strings (`<4b61>`). */
export function pdfText(bytes: Buffer): string {
  const parts: string[] = [];
  let at = 0;
  for (;;) {
    const start = bytes.indexOf("stream", at);
    if (start < 0) break;
    const body = start + (bytes[start + 6] === 0x0d ? 8 : 7);
    const end = bytes.indexOf("endstream", body);
    if (end < 0) break;
    try {
      parts.push(inflateSync(bytes.subarray(body, end)).toString("latin1"));
    } catch {
      parts.push(bytes.subarray(body, end).toString("latin1"));
    }
    at = end + 9;
  }
  // Each text-showing array is one run of text: its hex strings joined, the kerning numbers between them dropped.
  const shown = [...parts.join("\n").matchAll(/\[([^\]]*)\]\s*TJ/g)].map((array) =>
    [...(array[1] ?? "").matchAll(/<([0-9a-fA-F]*)>/g)]
      .map((m) => Buffer.from(m[1] ?? "", "hex").toString("latin1"))
      .join(""),
  );
  return shown.join("\n");
}

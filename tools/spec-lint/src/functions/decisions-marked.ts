import type { IFunctionResult } from "@stoplight/spectral-core";

export interface DecisionsOptions {
  /** Per spec (by info.title): JSON pointers of the places where a decision on a seed gap lives. */
  readonly byTitle: Readonly<Record<string, readonly string[]>>;
}

function at(root: unknown, pointer: string): unknown {
  let node = root;
  for (const part of pointer.split("/").slice(1)) {
    const key = part.replaceAll("~1", "/").replaceAll("~0", "~");
    node = typeof node === "object" && node !== null ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

/**
 * The gaps the seeds leave open ("not shown") must each be decided where they live and marked
 * with `x-payspec-assumed`, so a consumer can tell a seed fact from our decision.
 */
export function decisionsMarked(document: unknown, options: DecisionsOptions): IFunctionResult[] {
  const title = (at(document, "/info/title") as string | undefined) ?? "";
  const pointers = options.byTitle[title] ?? [];
  const problems: IFunctionResult[] = [];
  for (const pointer of pointers) {
    const node = at(document, pointer);
    if (node === undefined) {
      problems.push({ message: `The decision at ${pointer} is missing from the spec.` });
    } else if (typeof node !== "object" || node === null || !("x-payspec-assumed" in node)) {
      problems.push({ message: `${pointer} decides a seed gap and must carry x-payspec-assumed with the reason.` });
    }
  }
  return problems;
}

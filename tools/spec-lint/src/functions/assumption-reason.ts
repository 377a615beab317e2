import type { IFunctionResult } from "@stoplight/spectral-core";

const MAX_REASON_LENGTH = 200;

/**
 * `x-payspec-assumed` carries one reason (or a list of reasons), each a single line, so that
 * ASSUMPTIONS.md can list them one per row.
 */
export function assumptionReason(input: unknown): IFunctionResult[] {
  const reasons = Array.isArray(input) ? input : [input];
  if (reasons.length === 0) return [{ message: "x-payspec-assumed must not be an empty list." }];
  const problems: IFunctionResult[] = [];
  for (const reason of reasons) {
    if (typeof reason !== "string" || reason.trim() === "") {
      problems.push({ message: "x-payspec-assumed must be a non-empty string (or a list of them)." });
    } else if (reason.includes("\n")) {
      problems.push({ message: `x-payspec-assumed reasons are one line: "${reason.slice(0, 40)}…"` });
    } else if (reason.length > MAX_REASON_LENGTH) {
      problems.push({ message: `x-payspec-assumed reason is longer than ${MAX_REASON_LENGTH} characters.` });
    }
  }
  return problems;
}

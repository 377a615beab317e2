import type { IFunctionResult } from "@stoplight/spectral-core";

/**
 * A JSON request or response body shows at least one example, so docs, the mock and the spec tests
 * always have realistic data. Binary bodies (the xlsx report) cannot carry one and are exempt.
 */
export function mediaHasExample(content: unknown): IFunctionResult[] {
  if (typeof content !== "object" || content === null) return [];
  const problems: IFunctionResult[] = [];
  for (const [mediaType, media] of Object.entries(content as Record<string, Record<string, unknown>>)) {
    if (!mediaType.includes("json")) continue;
    const examples = media.examples;
    const hasExamples = typeof examples === "object" && examples !== null && Object.keys(examples).length > 0;
    if (!hasExamples && media.example === undefined) {
      problems.push({ message: `${mediaType} body has no example.`, path: [mediaType] });
    }
  }
  return problems;
}

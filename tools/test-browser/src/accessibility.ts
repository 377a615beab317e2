import { createRequire } from "node:module";
import type { Page } from "playwright-core";

/** WCAG 2.2 A and AA, as axe-core tags them. */
export const WCAG_A_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] as const;

const axeSource: string = createRequire(import.meta.url)("axe-core").source;

/**
 * The WCAG A/AA violations axe-core finds on the page as it stands, one line each: the rule and the
 * elements it names. axe-core runs in the page itself, violations only: @axe-core/playwright's
 * `analyze()` opens a second page for each run to merge frames (our pages have none), which made a
 * page's check take 1.2–2.4 s instead of 0.3 s and a sweep of every page the slowest file of the check.
 */
export async function wcagViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const options = { runOnly: { type: "tag", values: WCAG_A_AA }, resultTypes: ["violations"] };
  return (await page.evaluate(
    `axe.run(document, ${JSON.stringify(options)}).then((result) =>
      result.violations.map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", ")))`,
  )) as string[];
}

import { CHANGE_CATALOGUE } from "./change-catalogue.js";

/** The catalogue as the Markdown table the README shows (a test keeps the two equal). */
export function catalogueTable(): string {
  const rows = CHANGE_CATALOGUE.map(
    (c) =>
      `| \`${c.id}\` | ${c.severity} | ${c.affects} | ${c.why.replaceAll("|", "\\|")} | ${Object.keys(c.edits).join(", ")} |`,
  );
  return ["| Class | Verdict | Breaks | Why | Proven on |", "|---|---|---|---|---|", ...rows].join("\n");
}

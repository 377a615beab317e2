/** A plain-text table, right-aligned numbers. */
export function table(headers: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = [headers, ...rows].map((r) => r.map((c) => (typeof c === "number" ? formatNumber(c) : c)));
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  return cells
    .map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  "))
    .join("\n");
}

function formatNumber(n: number): string {
  if (Number.isNaN(n)) return "—";
  if (Number.isInteger(n) || Math.abs(n) >= 100) return Math.round(n).toLocaleString("en-US");
  return n.toFixed(2);
}

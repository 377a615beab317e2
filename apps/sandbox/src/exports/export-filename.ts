import type { ListingFilters } from "../payments/index.js";

/**
 * An export's file name, as people keep files: whose (the workspace's tag), what (the filters that
 * are set, in a fixed order) and when (the Istanbul date it was made, or the period a scheduled
 * report covers), so that two exports never share a name in a downloads folder:
 * `payments-c7be349c-status-completed-2026-11-27.csv`. A download and a scheduled report's
 * attachment of the same listing are named alike.
 */
export function exportFilename(tag: string, filters: ListingFilters, when: string, format: "csv" | "pdf"): string {
  const parts = (["status", "method", "account", "from", "to", "search"] as const).flatMap((name) => {
    const value = filters[name];
    return value ? [`${name}-${value}`] : [];
  });
  const name = ["payments", tag, ...parts, when].join("-").replace(/[\s/\\:*?"<>|\p{Cc}]+/gu, "_");
  return `${name}.${format}`;
}

/**
 * `Content-Disposition` for a download: the name as it is (Turkish included) in `filename*`
 * (RFC 6266/8187), with an ASCII stand-in in `filename` for clients that read only that.
 */
export function attachmentHeader(filename: string): string {
  const ascii = filename
    .normalize("NFKD")
    .replace(/[^\x20-\x7e]/g, "")
    .replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

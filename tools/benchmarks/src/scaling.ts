/**
 * Cost that grows with the work, no faster: the sandbox (in memory) at 10,000, 100,000 and 1,000,000
 * payments in one workspace, each size against the 10,000 run measured alongside.
 * 1. A page of 1,000 at the end of the listing against a page at its start (cursor pagination):
 *    about the same at every size.
 * 2. The whole workspace exported through the payments client's CSV export: records/s steady and the
 *    client's peak RSS flat as the count grows (the export runs in a process of its own, not in the
 *    one that created the payments).
 */
import { binPath, median, startProcess, table } from "@payspec/bench-kit";
import { DEMO_API_KEYS, seedWorkspace } from "@payspec/sandbox";
import { type ExportRun, exportRun } from "./payment-export.js";

const PORT = 4751;
const SIZES = [10_000, 100_000, 1_000_000];
/** Pages timed at each end of the listing. */
const PAGES_TIMED = 10;
const PAGE = 1_000;
const key = DEMO_API_KEYS[0];
const base = `http://127.0.0.1:${PORT}`;
const [from, to] = seedWorkspace(key)
  .accounts.filter((a) => a.currency === "TRY")
  .map((a) => a.id) as [string, string];

interface PageTimes {
  readonly firstMs: number;
  readonly lastMs: number;
}

/** Walks the whole listing a page of 1,000 at a time, timing each page; the median of each end. */
async function pageTimes(): Promise<PageTimes> {
  const times: number[] = [];
  let cursor: string | undefined;
  do {
    const start = process.hrtime.bigint();
    const answer = await fetch(
      `${base}/v1/payments?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      {
        headers: { authorization: `Bearer ${key}` },
      },
    );
    const page = (await answer.json()) as { pagination: { next_cursor?: string | null } };
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    cursor = page.pagination.next_cursor ?? undefined;
  } while (cursor);
  return { firstMs: median(times.slice(0, PAGES_TIMED)), lastMs: median(times.slice(-PAGES_TIMED)) };
}

// A completion delay far beyond the run keeps every payment pending, so the listing never changes.
const stop = await startProcess(process.execPath, [binPath("@payspec/sandbox", import.meta.resolve)], `${base}/`, {
  env: { PORT: String(PORT), PAYSPEC_COMPLETE_AFTER_SECONDS: "1000000" },
  pinned: true,
});
try {
  const rows: { size: number; pages: PageTimes; exported: ExportRun }[] = [];
  for (const size of SIZES) {
    const exported = await exportRun({ baseUrl: base, apiKey: key }, size, [from, to]);
    rows.push({ size, pages: await pageTimes(), exported });
  }
  const baseline = rows[0] as (typeof rows)[number];
  console.log(
    `1. A page of ${PAGE} at the start and at the end of the listing (median of ${PAGES_TIMED} pages each)\n`,
  );
  console.log(
    table(
      ["payments", "first pages ms", "last pages ms", "last / first", "last vs 10k"],
      rows.map((r) => [
        r.size,
        r.pages.firstMs,
        r.pages.lastMs,
        r.pages.lastMs / r.pages.firstMs,
        r.pages.lastMs / baseline.pages.lastMs,
      ]),
    ),
  );
  console.log("\n2. The whole workspace through the client's CSV export (pages of 10,000)\n");
  console.log(
    table(
      ["payments", "seconds", "records/s", "x 10k records/s", "peak RSS MB", "x 10k RSS", "RSS growth MB"],
      rows.map((r) => [
        r.size,
        r.exported.seconds,
        r.exported.recordsPerSecond,
        r.exported.recordsPerSecond / baseline.exported.recordsPerSecond,
        r.exported.peakRssMb,
        r.exported.peakRssMb / baseline.exported.peakRssMb,
        r.exported.growthMb,
      ]),
    ),
  );
  const largest = rows[rows.length - 1] as (typeof rows)[number];
  console.log(
    `\nAt 1M: the last page costs ${(largest.pages.lastMs / largest.pages.firstMs).toFixed(2)}x the first (about 1x is the goal); export ${(largest.exported.recordsPerSecond / baseline.exported.recordsPerSecond).toFixed(2)}x the 10k records/s, peak RSS ${(largest.exported.peakRssMb / baseline.exported.peakRssMb).toFixed(2)}x (steady and flat are ~1x), the exporting process grew ${largest.exported.growthMb.toFixed(0)} MB during it`,
  );
} finally {
  stop();
}

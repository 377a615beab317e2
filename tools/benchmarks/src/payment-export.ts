import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createPaymentsClient, type PaymentCreate } from "@payspec/payments-client";

/** Where the export runs against: the sandbox's URL and a key of the workspace. */
export interface ExportTarget {
  readonly baseUrl: string;
  readonly apiKey: string;
}

/** What export-client.ts prints. */
interface ExportMeasure {
  readonly records: number;
  readonly seconds: number;
  readonly peakMb: number;
  readonly growthMb: number;
  readonly csvMb: number;
}

/**
 * The export in a fresh process of its own: what creating the payments left in this one (a heap grown
 * to hold batches of 10,000) must not count as the export's memory.
 */
async function exportInItsOwnProcess({ baseUrl, apiKey }: ExportTarget): Promise<ExportMeasure> {
  const script = fileURLToPath(new URL("./export-client.ts", import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, ["--expose-gc", "--import", "tsx", script], {
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    env: { ...process.env, PAYSPEC_BASE_URL: baseUrl, PAYSPEC_API_KEY: apiKey },
    timeout: 600_000,
  });
  return JSON.parse(stdout.trim().split("\n").pop() ?? "") as ExportMeasure;
}

export interface ExportRun {
  readonly records: number;
  readonly seconds: number;
  readonly recordsPerSecond: number;
  readonly peakRssMb: number;
  readonly growthMb: number;
  readonly csvMb: number;
}

/**
 * Tops the workspace up to `records` payments (batches through the client), then streams them all
 * through the client's CSV export into a sink, in a process of its own whose RSS is sampled: the export
 * benchmarks' one measurement, whatever the store behind the sandbox.
 */
export async function exportRun(
  target: ExportTarget,
  records: number,
  accounts: readonly [string, string],
): Promise<ExportRun> {
  const [from, to] = accounts;
  const client = createPaymentsClient({ ...target, timeoutMs: 120_000 });
  const before = await client.listPayments({ limit: 1 });
  for (let have = before.pagination.total; have < records; have += 10_000) {
    const batch: PaymentCreate[] = Array.from({ length: Math.min(10_000, records - have) }, (_, i) => ({
      amount: 100 + i,
      currency: "TRY",
      method: "eft",
      from_account: from,
      to_account: to,
      reference: `BENCH-${have + i}`,
    }));
    await client.createMany(batch);
  }
  const measured = await exportInItsOwnProcess(target);
  return {
    records: measured.records,
    seconds: measured.seconds,
    recordsPerSecond: measured.records / measured.seconds,
    peakRssMb: measured.peakMb,
    growthMb: measured.growthMb,
    csvMb: measured.csvMb,
  };
}

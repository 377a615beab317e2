import { Writable } from "node:stream";
import type { createPaymentsClient, PaymentCreate } from "@payspec/payments-client";
import { sampleRss } from "./rss-sampler.js";

type PaymentsClient = ReturnType<typeof createPaymentsClient>;

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
 * through the client's CSV export into a sink, sampling this process's RSS: the export benchmarks'
 * one measurement, whatever the store behind the sandbox.
 */
export async function exportRun(
  client: PaymentsClient,
  records: number,
  accounts: readonly [string, string],
): Promise<ExportRun> {
  const [from, to] = accounts;
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
  const rss = sampleRss();
  let bytes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done();
    },
  });
  const start = process.hrtime.bigint();
  const written = await client.exportPayments(sink, { format: "csv", query: { limit: 10_000 } });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const { peakMb, growthMb } = rss.stop();
  return {
    records: written,
    seconds,
    recordsPerSecond: written / seconds,
    peakRssMb: peakMb,
    growthMb,
    csvMb: bytes / 1e6,
  };
}

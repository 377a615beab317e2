/**
 * One CSV export of a workspace through the payments client, alone in its process, as a user's export
 * job runs: the process that created the payments is not the one measured. Prints one JSON line (an
 * ExportMeasure). Run by payment-export.ts: node --expose-gc --import tsx export-client.ts, with
 * PAYSPEC_BASE_URL and PAYSPEC_API_KEY set.
 */
import { Writable } from "node:stream";
import { createPaymentsClient } from "@payspec/payments-client";
import { sampleRss } from "./rss-sampler.js";

const baseUrl = process.env.PAYSPEC_BASE_URL;
const apiKey = process.env.PAYSPEC_API_KEY;
if (!baseUrl || !apiKey) throw new Error("Set PAYSPEC_BASE_URL and PAYSPEC_API_KEY: run through payment-export.ts.");
const client = createPaymentsClient({ baseUrl, apiKey, timeoutMs: 120_000 });

const rss = sampleRss();
let bytes = 0;
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    bytes += chunk.length;
    done();
  },
});
const start = process.hrtime.bigint();
const records = await client.exportPayments(sink, { format: "csv", query: { limit: 10_000 } });
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
const { peakMb, growthMb } = rss.stop();
console.log(JSON.stringify({ records, seconds, peakMb, growthMb, csvMb: bytes / 1e6 }));

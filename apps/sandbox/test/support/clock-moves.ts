import { istanbulMidnightAfter } from "../../src/index.js";
import { type Harness, KEY } from "./harness.js";
import { sandboxCall } from "./sandbox-call.js";

/** The workspace's sandbox clock now, read by moving it a millisecond (the control API answers `now`). */
export async function clockNow(h: Harness, key: string = KEY): Promise<number> {
  return Date.parse((await h.control("/clock/advance", { seconds: 0.001 }, key)).body.now);
}

/**
 * Moves the workspace's clock to `seconds` past (before, when negative) the next Istanbul midnight, the settlement cut-off:
 * what was completed before it is settled, with that midnight's date as its value date. The cut-off.
 */
export async function pastNextCutoff(h: Harness, seconds = 60, key: string = KEY): Promise<number> {
  const now = await clockNow(h, key);
  // Before a cut-off closer than that (an hour before one, at 20:30 UTC): the next day's, since a clock
  // only moves forward here. The case ran between 20:00 and 21:00 UTC failed without it.
  const next = istanbulMidnightAfter(now);
  const cutoff = next + seconds * 1000 > now ? next : istanbulMidnightAfter(next + 1);
  await h.control("/clock/advance", { seconds: (cutoff - now) / 1000 + seconds }, key);
  return cutoff;
}

/**
 * Keeps a case that moves the clock a little from crossing the settlement cut-off by chance: when the
 * workspace's clock is within `marginSeconds` of the next Istanbul midnight (21:00 UTC), it moves a
 * minute past it first. Without it a payment completed at 23:59:50 and read 31 s later is `settled`.
 */
export async function clearOfCutoff(h: Harness, key: string = KEY, marginSeconds = 600): Promise<void> {
  const now = await clockNow(h, key);
  if (istanbulMidnightAfter(now) - now < marginSeconds * 1000) await pastNextCutoff(h, 60, key);
}

/**
 * Turns automatic settlement off for the workspace of `key` on the sandbox at `url` (on every instance
 * sharing its database), for a case about something else that moves the clock past a payment's delay
 * and expects it `completed`: run a minute before 21:00 UTC, it would find the payment settled.
 */
export async function settlementOff(url: string, key: string = KEY): Promise<void> {
  const reply = await sandboxCall(url, "PUT", "/_sandbox/settings/settlement", { enabled: false }, key);
  if (reply.status !== 200) throw new Error(`Turning automatic settlement off answered ${reply.status}.`);
}

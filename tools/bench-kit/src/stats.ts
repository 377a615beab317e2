/** The middle value: robust to one noisy round. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * How a target compares with its baseline: the median of their ratios round by round. Each round
 * measures both within seconds of each other, so a slow spell of the machine (which, on a shared
 * VM, lasts seconds) lowers both sides of one ratio instead of one side of the medians' ratio.
 */
export function pairedRatio(target: readonly number[], baseline: readonly number[]): number {
  if (target.length === 0 || target.length !== baseline.length)
    throw new Error("A paired ratio needs as many rounds of the target as of its baseline, at least one.");
  return median(target.map((value, round) => value / (baseline[round] as number)));
}

/** Median wall time in ms of `rounds` runs of `fn`, after one warm-up run. */
export async function medianMs(rounds: number, fn: () => unknown | Promise<unknown>): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(times);
}

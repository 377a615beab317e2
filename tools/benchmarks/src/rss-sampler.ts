/**
 * Samples this process's RSS every 50 ms from now until `stop()` (after a GC when node runs with
 * --expose-gc, so garbage from before does not count): the peak, and how far it rose.
 */
export function sampleRss(): { stop(): { peakMb: number; growthMb: number } } {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  return {
    stop() {
      clearInterval(sampler);
      peak = Math.max(peak, process.memoryUsage().rss);
      return { peakMb: peak / 1e6, growthMb: (peak - before) / 1e6 };
    },
  };
}

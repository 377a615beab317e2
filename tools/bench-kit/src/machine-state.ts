import { readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";

export interface MachineState {
  readonly cores: number;
  /** The 1, 5 and 15 minute load averages. */
  readonly load: readonly [number, number, number];
  /** Each core's idle share over the sample (0 to 1), by core number; empty where /proc/stat is missing. */
  readonly idle: Readonly<Record<number, number>>;
}

/** A core's counters from /proc/stat, in clock ticks since boot. */
export interface CoreTimes {
  readonly idle: number;
  /** Time the hypervisor gave this virtual core's turn to another guest: the core wanted to run and could not. */
  readonly stolen: number;
  readonly total: number;
}

/** Every core's counters now, by core number; empty where /proc/stat is missing. */
export function readCoreTimes(): Map<number, CoreTimes> {
  const times = new Map<number, CoreTimes>();
  let text = "";
  try {
    text = readFileSync("/proc/stat", "utf8");
  } catch {
    return times;
  }
  for (const line of text.split("\n")) {
    const m = /^cpu(\d+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const fields = (m[2] as string).trim().split(/\s+/).map(Number);
    // user nice system idle iowait irq softirq steal: idle and iowait are the core doing nothing.
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    times.set(Number(m[1]), { idle, stolen: fields[7] ?? 0, total: fields.slice(0, 8).reduce((a, b) => a + b, 0) });
  }
  return times;
}

/** The share of a core's time between two readings that went to `counter`; undefined without both. */
function shareBetween(
  start: CoreTimes | undefined,
  end: CoreTimes | undefined,
  counter: "idle" | "stolen",
): number | undefined {
  if (!start || !end || end.total === start.total) return undefined;
  return (end[counter] - start[counter]) / (end.total - start.total);
}

/**
 * The largest share of its time the hypervisor took from any of `cores` (every core, when not given)
 * between two readings; undefined when no core of them is in both. On a shared host a run can lose a
 * third of a core this way while the core looks busy, not idle: the guest cannot see it otherwise.
 */
export function stolenShare(
  before: ReadonlyMap<number, CoreTimes>,
  after: ReadonlyMap<number, CoreTimes>,
  cores: readonly number[] = [...after.keys()],
): number | undefined {
  let largest: number | undefined;
  for (const core of cores) {
    const share = shareBetween(before.get(core), after.get(core), "stolen");
    if (share !== undefined) largest = Math.max(largest ?? 0, share);
  }
  return largest;
}

/**
 * The machine as a benchmark finds it: cores, load averages, and how idle each core was over
 * `sampleMs` before the load starts. A busy core makes every figure of the run a figure of that
 * other work too.
 */
export async function machineState(sampleMs = 1000): Promise<MachineState> {
  const before = readCoreTimes();
  await new Promise((resolve) => setTimeout(resolve, sampleMs));
  const after = readCoreTimes();
  const idle: Record<number, number> = {};
  for (const core of after.keys()) {
    const share = shareBetween(before.get(core), after.get(core), "idle");
    if (share !== undefined) idle[core] = share;
  }
  const [one, five, fifteen] = loadavg() as [number, number, number];
  return { cores: availableParallelism(), load: [one, five, fifteen], idle };
}

export function describeMachine(state: MachineState): string {
  const idle = Object.entries(state.idle)
    .map(([core, share]) => `core ${core} ${Math.round(share * 100)}% idle`)
    .join(", ");
  return `${state.cores} cores, load ${state.load.map((n) => n.toFixed(2)).join(" ")}${idle ? `; before the run: ${idle}` : ""}`;
}

/**
 * The cores of `cores` (every core sampled, when not given) that were less than `quietShare` idle in
 * the sample, with their idle share: other work that a benchmark's figures would carry.
 */
export function busyCores(
  state: MachineState,
  quietShare: number,
  cores: readonly number[] = Object.keys(state.idle).map(Number),
): { core: number; idle: number }[] {
  return cores.flatMap((core) => {
    const idle = state.idle[core];
    return idle !== undefined && idle < quietShare ? [{ core, idle }] : [];
  });
}

/**
 * The machine once servers just started have settled: samples until no core of `cores` (every core,
 * when not given) is busy by busyCores, for at most `maxMs`, and gives the last sample with how long
 * that took. A server still warming up after its first answer is not other work and passes; another
 * program keeps its core busy past the wait, and the sample then says so.
 */
export async function settledMachineState(
  quietShare: number,
  { cores, maxMs = 15_000, sampleMs = 1000 }: { cores?: readonly number[]; maxMs?: number; sampleMs?: number } = {},
): Promise<MachineState & { waitedMs: number }> {
  const started = Date.now();
  for (;;) {
    const state = await machineState(sampleMs);
    const waitedMs = Date.now() - started;
    if (busyCores(state, quietShare, cores).length === 0 || waitedMs + sampleMs > maxMs) return { ...state, waitedMs };
  }
}

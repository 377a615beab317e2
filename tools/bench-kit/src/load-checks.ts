import { judgedCores } from "./cpu-pinning.js";
import { type HttpResult, loadGenerator } from "./http-load.js";
import { busyCores, describeMachine, type MachineState, settledMachineState } from "./machine-state.js";

/** Share of one core at which wrk itself, not the server, is taken to set the pace. */
const GENERATOR_BOUND = 0.9;
/** A core less idle than this before the run is doing other work that the figures would carry. */
const QUIET_CORE = 0.85;
/**
 * A target whose rounds lost more than this share of a core to the hypervisor (the median round) was
 * measured on a host busy with other guests: the slowdown falls on whichever target ran then, not on
 * all alike, so its ratios say as much about the neighbours as about the server.
 */
const STOLEN_LIMIT = 0.05;

/** The share of a core the hypervisor took while a target ran (see HttpResult.stolenShare), for a table. */
export function stolenText(result: HttpResult): string {
  return result.stolenShare === undefined ? "–" : `${Math.round(result.stolenShare * 100)}%`;
}

/** wrk's CPU as a share of its core, for a report. */
export function generatorCpuText(share: number | undefined): string {
  return share === undefined ? "not measured" : `${Math.round(share * 100)}%`;
}

/**
 * The machine as a run finds it once its servers have settled (a server may still be warming up
 * after its first answer): a core still busy after the wait is other work, and voids every figure.
 */
export function machineBeforeLoad(): ReturnType<typeof settledMachineState> {
  return settledMachineState(QUIET_CORE, { cores: judgedCores() });
}

/** The machine line a bench prints above its table: its state once the servers had settled. */
export function machineLine(machine: MachineState & { waitedMs: number }): string {
  return `Machine: ${describeMachine(machine)} (sampled after ${(machine.waitedMs / 1000).toFixed(0)} s for the servers to settle)`;
}

/** What a bench prints instead of its verdicts when loadProblems found any. */
export function noVerdict(problems: readonly string[]): string {
  return `No verdict: ${problems.join("; ")}. Every ratio above is void; run again on a quiet machine.`;
}

/**
 * Why a run's ratios cannot be trusted, if they cannot: a baseline was held back by wrk itself (it
 * used nearly all of its core), a core was busy with other work before the load started, or the
 * hypervisor took a share of a core while a baseline or a `measured` target ran. Empty when they
 * can: the generator check a verdict is printed beside.
 */
export function loadProblems(
  machine: MachineState,
  baselines: { name: string; result: HttpResult }[],
  measured: readonly HttpResult[] = [],
): string[] {
  const problems: string[] = [];
  if (loadGenerator().name !== "wrk") problems.push("the load came from autocannon inside this process, not wrk");
  for (const { name, result } of baselines) {
    if ((result.generatorCpu ?? 0) >= GENERATOR_BOUND)
      problems.push(
        `wrk used ${generatorCpuText(result.generatorCpu)} of its core against ${name}: the generator, not the server, set the pace`,
      );
  }
  for (const { core, idle } of busyCores(machine, QUIET_CORE, judgedCores()))
    problems.push(`core ${core} was only ${Math.round(idle * 100)}% idle before the run`);
  const judged = new Map([
    ...baselines.map(({ name, result }) => [name, result] as const),
    ...measured.map((r) => [r.name, r] as const),
  ]);
  const robbed = [...judged].filter(([, result]) => (result.stolenShare ?? 0) > STOLEN_LIMIT);
  if (robbed.length > 0)
    problems.push(
      `the host's hypervisor took a share of a core from this machine while rows ran (steal time, median round: ${robbed.map(([name, result]) => `${name} ${stolenText(result)}`).join(", ")}): other guests on the host, not the servers, set part of their pace`,
    );
  return problems;
}

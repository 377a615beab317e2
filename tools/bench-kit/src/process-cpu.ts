import { readdirSync, readFileSync } from "node:fs";

/** /proc gives a process's times in clock ticks of 1/100 s (USER_HZ, fixed by Linux's ABI). */
const MS_PER_TICK = 10;

/**
 * The CPU time a running process has used so far (user and system, all its threads), in ms, or
 * undefined where there is no /proc (not Linux) or no such process.
 */
export function processCpuMs(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command's name (the second field) may hold spaces and parentheses: count fields after its ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const user = Number(fields[11]);
  const system = Number(fields[12]);
  return Number.isFinite(user) && Number.isFinite(system) ? (user + system) * MS_PER_TICK : undefined;
}

/** The processes a process started that still run, and theirs, and so on. */
function descendants(pid: number): number[] {
  const found: number[] = [];
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return found;
  }
  for (const thread of threads) {
    let children = "";
    try {
      children = readFileSync(`/proc/${pid}/task/${thread}/children`, "utf8");
    } catch {
      continue;
    }
    for (const child of children.split(" ").filter(Boolean).map(Number)) found.push(child, ...descendants(child));
  }
  return found;
}

/**
 * The CPU time, in ms, that processes and every process they started (still running) have used so
 * far: a server launched through a wrapper (tsx runs its script in a child process) is counted whole.
 * Undefined when one of `pids` cannot be read.
 */
export function processTreeCpuMs(pids: readonly number[]): number | undefined {
  let total = 0;
  for (const pid of pids) {
    const own = processCpuMs(pid);
    if (own === undefined) return undefined;
    total += own;
    // A child that exits between the listing and the read is skipped: its time is no longer running work.
    for (const child of descendants(pid)) total += processCpuMs(child) ?? 0;
  }
  return total;
}

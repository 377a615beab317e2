export { type CpuPinning, cpuPinning } from "./cpu-pinning.js";
export { compareHttp, type HttpResult, type HttpTarget, loadGenerator } from "./http-load.js";
export {
  generatorCpuText,
  loadProblems,
  machineBeforeLoad,
  machineLine,
  noVerdict,
  stolenText,
} from "./load-checks.js";
export {
  busyCores,
  describeMachine,
  type MachineState,
  machineState,
  settledMachineState,
  stolenShare,
} from "./machine-state.js";
export { processCpuMs, processTreeCpuMs } from "./process-cpu.js";
export { binPath, type StartedProcess, type StartOptions, startProcess } from "./processes.js";
export { median, medianMs, pairedRatio } from "./stats.js";
export { table } from "./table.js";
export { type LoadRequest, type LoadResult, parseWrkOutput, runWrk, wrkAvailable, wrkScript } from "./wrk.js";

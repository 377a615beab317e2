import type { Check, CheckResult, Violation } from "./check.js";
import type { SentRequest } from "./exchange.js";
import { type ApiName, rerunFlags, type VerifyOptions } from "./options.js";
import type { ServerDown } from "./server-down.js";

/** The id of the finding a run reports when its target stops answering. */
export const SERVER_DOWN_CHECK = "server.stopped-answering";

/** The rerun flags of the check that sent a request; the whole run's for a request sent before the checks. */
function rerunOf(options: VerifyOptions, check: string): string {
  const flags = rerunFlags(options, check.startsWith("(") ? "" : check);
  return check.startsWith("(") ? flags.replace(/ --only \S*$/, "") : flags;
}

/** One failing result naming the requests sent just before the target fell over, each with its curl and rerun line. */
export function serverDownResult(
  down: ServerDown,
  options: VerifyOptions,
  back: boolean,
  reproduce: (api: ApiName, request: SentRequest) => string,
  /** "after": every request of the run was answered, and the probe after the last one was not. */
  when: "during" | "after" = "during",
): CheckResult {
  const violations: Violation[] = down.recent.map((sent, i) => ({
    check: SERVER_DOWN_CHECK,
    operation: `${sent.request.method} ${sent.request.path.split("?")[0]}`,
    request: sent.request,
    expected: "the server to keep answering",
    actual: `${i === 0 ? "the last request before the server stopped answering" : `${i + 1} requests before it stopped answering`} (sent by ${sent.check}, ${typeof sent.answered === "number" ? `answered ${sent.answered}` : sent.answered}); afterwards nothing answered (${down.why})${back ? ", until it came back" : ""}`,
    reproduce: reproduce(sent.api, sent.request),
    rerun: rerunOf(options, sent.check),
  }));
  return {
    id: SERVER_DOWN_CHECK,
    title: "the server keeps answering through the run (no request brings it down)",
    api: down.recent[0]?.api ?? "openapi",
    profile: "schema",
    status: "failed",
    violations,
    note:
      when === "after"
        ? "the server no longer answers after the run's last request: the requests named here came last; every check before had its answer"
        : back
          ? "the server stopped answering and came back within --wait-for-restart; the run went on"
          : "the server stopped answering; the run stopped sending requests",
    requests: 0,
    durationMs: 0,
    medianResponseMs: 0,
  };
}

/** A check the run did not get to because the target had stopped answering: not run, not failed. */
export function notRunResult(check: Check, why: string): CheckResult {
  return {
    id: check.id,
    title: check.title,
    api: check.api,
    profile: check.profile,
    status: "skipped",
    violations: [],
    note: `not run: ${why}`,
    requests: 0,
    durationMs: 0,
    medianResponseMs: 0,
  };
}

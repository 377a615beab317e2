import { readFile } from "node:fs/promises";
import { CannotRun } from "../cannot-run.js";
import { exchange, NoAnswer, type SentRequest } from "../exchange.js";
import { UsageError, userPath, variableFor } from "../options.js";
import { type Shape, shapeDifferences, shapeOf } from "./answer-shape.js";

export const REPLAY_USAGE = `payspec-verify replay: send a recorded run's requests again and say which now answer differently

  payspec-verify replay FILE --target URL [--timeout-ms N]

  FILE                    a cassette written by payspec-verify --record FILE
  --target URL            where to send them (another deployment, the same one after a change)
  --timeout-ms N          per-request timeout (default 10000)

Credentials are never in a cassette: each masked one is read from the variable its rerun line names
(an Authorization header from $AUTHORIZATION, a query parameter api_key from $API_KEY). A request whose
body held card data, or was too long to keep whole, is not sent again.

Exit codes: 0 every request answered as recorded, 1 some answered differently, 2 could not run.`;

/** One line of a cassette (see VerifyContext's #record). */
interface Recorded extends SentRequest {
  readonly check: string;
  readonly api: string;
  readonly answered: number | string;
  readonly shape?: Shape;
}

export interface ReplayOutcome {
  readonly request: string;
  readonly check: string;
  /** `same`, `different` (with how), or `not sent` (with why). */
  readonly verdict: "same" | "different" | "not sent";
  readonly how?: string;
}

/** A masked value (`***`, `Bearer ***`) with its credential read from the variable named for it. */
function unmasked(value: string, variable: string, env: NodeJS.ProcessEnv): string | undefined {
  const match = /^(?:(\S+) )?\*\*\*$/.exec(value);
  if (!match) return value;
  const secret = env[variable];
  if (!secret) return undefined;
  return match[1] ? `${match[1]} ${secret}` : secret;
}

function parseArgs(argv: readonly string[]): { file: string; target: string; timeoutMs: number } {
  let file: string | undefined;
  let target: string | undefined;
  let timeoutMs = 10_000;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--target") target = argv[++i];
    else if (arg === "--timeout-ms") timeoutMs = Number(argv[++i]);
    else if (arg.startsWith("--")) throw new UsageError(`Unknown option ${arg} for replay.`);
    else if (file === undefined) file = arg;
    else throw new UsageError(`Unexpected argument "${arg}": replay takes one cassette.`);
  }
  if (!file) throw new UsageError("replay needs the cassette a run wrote with --record FILE.");
  if (!target) throw new UsageError("replay needs --target URL: where to send the requests again.");
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1)
    throw new UsageError("--timeout-ms must be a whole number of milliseconds.");
  try {
    return { file, target: new URL(target).toString().replace(/\/+$/, ""), timeoutMs };
  } catch {
    throw new UsageError(`--target must be a URL such as http://127.0.0.1:4010, got "${target}".`);
  }
}

/** The cassette's lines, each checked to be one; a file that is not a cassette cannot be replayed. */
async function readCassette(file: string): Promise<Recorded[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    throw new CannotRun(`there is no cassette at ${file}: write one with payspec-verify --record ${file}.`);
  }
  return text
    .split("\n")
    .filter((line) => line.trim())
    .map((line, i) => {
      try {
        const recorded = JSON.parse(line) as Recorded;
        if (typeof recorded.method === "string" && typeof recorded.path === "string") return recorded;
      } catch {}
      throw new CannotRun(`${file} line ${i + 1} is not a request a run recorded: give the file --record wrote.`);
    });
}

/** Sends one recorded request again and says whether its answer is the recorded one (status, body shape). */
async function replayOne(
  recorded: Recorded,
  target: string,
  timeoutMs: number,
  env: NodeJS.ProcessEnv,
): Promise<ReplayOutcome> {
  const request = `${recorded.method} ${recorded.path.split("?")[0]}`;
  const outcome = (verdict: ReplayOutcome["verdict"], how?: string): ReplayOutcome => ({
    request,
    check: recorded.check,
    verdict,
    ...(how ? { how } : {}),
  });
  if (recorded.bodyCut) return outcome("not sent", "its body was too long to keep whole");
  if (recorded.body !== undefined && /\d{6}\*{2,}\d{4}|"cvc"\s*:\s*"(\*+|)"/i.test(recorded.body))
    return outcome("not sent", "its body held card data, which a cassette never keeps");
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(recorded.headers ?? {})) {
    const sent = unmasked(value, variableFor(name), env);
    if (sent === undefined)
      throw new CannotRun(
        `the cassette's ${name} header is a credential: set $${variableFor(name)} to it and run again.`,
      );
    headers[name] = sent;
  }
  let missing: string | undefined;
  const path = recorded.path.replace(/([?&])([^=&]+)=\*\*\*/g, (_, sep: string, name: string) => {
    const value = env[variableFor(decodeURIComponent(name))];
    if (!value) missing = variableFor(decodeURIComponent(name));
    return `${sep}${name}=${encodeURIComponent(value ?? "")}`;
  });
  if (missing) throw new CannotRun(`a recorded query parameter is a credential: set $${missing} to it and run again.`);
  try {
    const reply = await exchange(
      target,
      { method: recorded.method, path, headers, ...(recorded.body === undefined ? {} : { raw: recorded.body }) },
      timeoutMs,
    );
    if (reply.status !== recorded.answered)
      return outcome("different", `answered ${reply.status}, recorded ${recorded.answered}`);
    if (recorded.shape !== undefined) {
      const differences = shapeDifferences(recorded.shape, reply.body === undefined ? "no JSON" : shapeOf(reply.body));
      if (differences.length > 0) return outcome("different", `its body changed shape: ${differences.join("; ")}`);
    }
    return outcome("same");
  } catch (error) {
    if (!(error instanceof NoAnswer)) throw error;
    return recorded.answered === "no answer"
      ? outcome("same")
      : outcome("different", `no answer (${error.message}), recorded ${recorded.answered}`);
  }
}

/** `payspec-verify replay FILE --target URL`: the exit code, having printed one line per request that answers differently. */
export async function runReplayCommand(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { file, target, timeoutMs } = parseArgs(argv);
  const recorded = await readCassette(userPath(file, env));
  const outcomes: ReplayOutcome[] = [];
  for (const line of recorded) outcomes.push(await replayOne(line, target, timeoutMs, env));
  const count = (verdict: ReplayOutcome["verdict"]) => outcomes.filter((o) => o.verdict === verdict).length;
  for (const o of outcomes.filter((o) => o.verdict !== "same"))
    process.stdout.write(`${o.verdict === "different" ? "✗" : "-"} ${o.request} (recorded by ${o.check}): ${o.how}\n`);
  process.stdout.write(
    `\n${outcomes.length} requests replayed against ${target}: ${count("same")} answered as recorded, ${count("different")} differently, ${count("not sent")} not sent\n`,
  );
  return count("different") > 0 ? 1 : 0;
}

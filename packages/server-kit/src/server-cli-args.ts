import { parseArgs } from "node:util";

/** What a server's command line asked for, or what to print and the exit code when it cannot run. */
export type ServerArgs =
  | {
      readonly ok: true;
      readonly port?: number;
      readonly host?: string;
      /** The boolean switches given (`--dynamic`). */
      readonly on: ReadonlySet<string>;
    }
  | { readonly ok: false; readonly exitCode: 0 | 2; readonly message: string };

/** A TCP port from text (0 picks a free one), or undefined when it is not one. */
export function portNumber(text: string): number | undefined {
  const port = Number(text);
  return /^\d+$/.test(text.trim()) && Number.isInteger(port) && port <= 65_535 ? port : undefined;
}

/**
 * The command line every payspec server shares: `--port N`, `--host ADDRESS`, `--help` (`-h`), and its own
 * boolean switches. A leading `--` is dropped (`pnpm start -- --port 5000` passes it along).
 * `--help` answers exit 0 with the usage; anything wrong answers exit 2 naming it.
 */
export function parseServerArgs(argv: readonly string[], usage: string, switches: readonly string[] = []): ServerArgs {
  const args = argv[0] === "--" ? argv.slice(1) : [...argv];
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args,
      options: {
        port: { type: "string" },
        host: { type: "string" },
        help: { type: "boolean", short: "h" },
        ...Object.fromEntries(switches.map((name) => [name, { type: "boolean" as const }])),
      },
    }).values;
  } catch (error) {
    return { ok: false, exitCode: 2, message: `${(error as Error).message}\n\n${usage}\n` };
  }
  if (values.help) return { ok: false, exitCode: 0, message: `${usage}\n` };
  const port = typeof values.port === "string" ? portNumber(values.port) : undefined;
  if (typeof values.port === "string" && port === undefined) {
    return {
      ok: false,
      exitCode: 2,
      message: `--port must be a whole number from 0 to 65535, got "${values.port}".\n`,
    };
  }
  return {
    ok: true,
    ...(port === undefined ? {} : { port }),
    ...(typeof values.host === "string" ? { host: values.host } : {}),
    on: new Set(switches.filter((name) => values[name] === true)),
  };
}

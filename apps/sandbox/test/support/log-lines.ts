/** A request log line as the sandbox writes it (Fastify's logger, one JSON object a line). */
export interface LogEntry {
  readonly reqId?: string;
  readonly method?: string;
  readonly path?: string;
  readonly status?: number;
  readonly msg?: string;
  readonly [field: string]: unknown;
}

/**
 * The log's lines as objects without what varies by machine and moment (time, pid, hostname): what a
 * test searches for leaks, where a clock's digits could otherwise look like a CVC.
 */
export function logEntries(lines: readonly string[]): LogEntry[] {
  return lines.map((line) => {
    const { time: _time, pid: _pid, hostname: _hostname, ...rest } = JSON.parse(line) as Record<string, unknown>;
    return rest;
  });
}

/** The same, as text to search. */
export function loggedText(lines: readonly string[]): string {
  return logEntries(lines)
    .map((entry) => JSON.stringify(entry))
    .join("\n");
}

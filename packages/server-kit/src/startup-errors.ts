/**
 * A configuration problem a server finds at start (a setting missing or malformed, a database it
 * cannot use): its message says what to do, and the command line prints it without a stack trace.
 */
export class StartupProblem extends Error {
  override readonly name = "StartupProblem";
}

/**
 * What a server's command line prints when it cannot start, or undefined for a fault of our own (which
 * deserves its stack). A user's mistake is one or two sentences that say what to do; exit code 2.
 */
export function startupProblemMessage(error: unknown, where: { port: number; host: string }): string | undefined {
  if (error instanceof StartupProblem) return error.message;
  const code = (error as { code?: string } | null)?.code;
  switch (code) {
    case "EADDRINUSE":
      return `port ${where.port} is in use: pass --port (0 picks a free one) or stop the other process.`;
    case "EACCES":
      return `port ${where.port} needs more privileges than this user has: pass --port 1024 or higher.`;
    case "EADDRNOTAVAIL":
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `cannot listen on ${where.host}: it is not an address of this machine; pass --host 127.0.0.1 (or leave it out).`;
    default:
      return undefined;
  }
}

#!/usr/bin/env node
import { CannotRun } from "./cannot-run.js";
import { parseOptions, USAGE, UsageError } from "./options.js";

// What a run needs (the specs, their validators, the HTTP client, the reporters) is loaded once the
// options are read: --help and a mistyped option answer at once, not after a second of loading.
const pactCommand = () => import("./pact/pact-command.js");
const replayCommand = () => import("./replay/replay-command.js");
const proxyCommand = () => import("./proxy/proxy-command.js");

/**
 * SIGINT or SIGTERM (Ctrl-C, a CI job cancelled): the check under way finishes, no other starts, and
 * what the run created is deleted before it exits with its report. A second signal exits at once.
 */
function stopOnSignals(): AbortSignal {
  const controller = new AbortController();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (controller.signal.aborted) {
        process.stderr.write(`payspec verify: ${signal} again: stopping without cleaning up what the run created.\n`);
        process.exit(130);
      }
      process.stderr.write(
        `payspec verify: ${signal}: finishing the check under way, then deleting what the run created (${signal} again stops at once).\n`,
      );
      controller.abort(signal);
    });
  }
  return controller.signal;
}

/** Exit codes: 0 everything passed, 1 violations, 2 could not run. */
async function main(argv: readonly string[]): Promise<number> {
  const proxyMode = argv[0] === "proxy";
  const pactMode = argv[0] === "pact";
  const replayMode = argv[0] === "replay";
  const help = proxyMode || pactMode || replayMode ? `payspec-verify ${argv[0]} --help` : "payspec-verify --help";
  if (argv.includes("--help") || argv.includes("-h")) {
    const usage = proxyMode
      ? (await proxyCommand()).PROXY_USAGE
      : pactMode
        ? (await pactCommand()).PACT_USAGE
        : replayMode
          ? (await replayCommand()).REPLAY_USAGE
          : USAGE;
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  try {
    if (proxyMode) return await (await proxyCommand()).runProxyCommand(argv.slice(1));
    if (pactMode) return await (await pactCommand()).runPactCommand(argv.slice(1));
    if (replayMode) return await (await replayCommand()).runReplayCommand(argv.slice(1));
    const options = parseOptions(argv);
    const [{ runVerification }, { progressLine, summary }, { writeJson, writeJunit }, { coverageTable }] =
      await Promise.all([
        import("./runner.js"),
        import("./reporters/console-reporter.js"),
        import("./reporters/file-reporters.js"),
        import("./coverage.js"),
      ]);
    const tty = process.stdout.isTTY === true;
    const report = await runVerification(
      options,
      (result, index, total) => process.stdout.write(progressLine(result, index, total, tty)),
      stopOnSignals(),
    );
    if (options.junitFile) await writeJunit(report, options.junitFile);
    if (options.jsonFile) await writeJson(report, options.jsonFile);
    const files = [options.jsonFile, options.junitFile].filter((f): f is string => f !== undefined);
    if (options.showCoverage && report.coverage)
      process.stdout.write(`\nCoverage:\n${coverageTable(report.coverage)}\n`);
    process.stdout.write(`${summary(report, files)}\n`);
    if (report.coverageShortfall) process.stdout.write(`${report.coverageShortfall}\n`);
    return report.counts.failed + report.counts.error > 0 || report.coverageShortfall ? 1 : 0;
  } catch (error) {
    // One sentence that says what to do, never a stack and never the whole usage text burying it.
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n(${help} lists every option.)\n`);
      return 2;
    }
    if (error instanceof CannotRun) {
      process.stderr.write(`payspec verify could not run: ${error.message}\n`);
      return 2;
    }
    const { NoAnswer } = await import("./exchange.js");
    if (error instanceof NoAnswer) {
      process.stderr.write(
        `payspec verify could not run: the provider did not answer ${error.request.method} ${error.request.path} (${error.message}); check that it is up and reachable, or raise --timeout-ms.\n`,
      );
      return 2;
    }
    process.stderr.write(
      `payspec verify stopped on an unexpected error: ${(error as Error).message ?? String(error)}. Run it again with the same flags; if it repeats, report it with this line.\n`,
    );
    return 2;
  }
}

process.exitCode = await main(process.argv.slice(2));

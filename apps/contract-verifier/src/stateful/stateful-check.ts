import fc from "fast-check";
import type { Check } from "../check.js";
import { cardPaymentRequest } from "../operation-requests.js";
import { commandArbitraries, type RealSystem, type Step } from "./commands.js";
import { emptyModel } from "./payment-model.js";

/** Shrinking replays sequences against a real provider: stop it after this long, keeping the smallest so far. */
const SHRINK_TIME_LIMIT_MS = 120_000;

function numbered(steps: readonly Step[]): string {
  return steps.map((s, i) => `  ${i + 1}. ${s.command}: ${s.request}\n     → ${s.answer}`).join("\n");
}

/**
 * `stateful.model`: fast-check draws seeded, bounded sequences of commands (create, get, cancel,
 * batch, list, login, card payment; clock and forced states in the sandbox profile), runs each
 * against the provider and an executable model of the seeds' rules, and shrinks a failing sequence
 * to the shortest that still fails.
 */
export function statefulCheck(runs: number, maxCommands: number): Check {
  return {
    id: "stateful.model",
    title: `${runs} random sequences of up to ${maxCommands} requests agree with the model of the seeds' rules`,
    api: "payments",
    profile: "behaviour",
    operation: "(sequences)",
    async run(run) {
      const { ctx } = run;
      const pair = await ctx.requireAccountPair();
      const sandbox = ctx.options.profile === "sandbox";
      let steps: Step[] = [];
      let failing: { steps: Step[]; message: string } | undefined;
      const property = fc.asyncProperty(
        fc.commands(commandArbitraries(sandbox), { maxCommands, disableReplayLog: true }),
        async (commands) => {
          steps = [];
          const setup = async () => {
            const real: RealSystem = {
              run,
              pair,
              steps,
              moneyAtStart: new Map(),
              cardPayment: () => cardPaymentRequest(ctx),
            };
            const accounts = await run.send({ method: "GET", path: "/v1/accounts" });
            const money = real.moneyAtStart as Map<string, number>;
            for (const a of (Array.isArray(accounts.body) ? accounts.body : []) as {
              currency: string;
              balance: number;
            }[])
              money.set(a.currency, (money.get(a.currency) ?? 0) + a.balance);
            return { model: emptyModel(), real };
          };
          try {
            await fc.asyncModelRun(setup, commands);
          } catch (error) {
            // The last failing run is the one fast-check reports: shrinking only keeps smaller failures.
            failing = { steps: [...steps], message: (error as Error).message };
            throw error;
          }
        },
      );
      const details = await fc.check(property, {
        seed: ctx.options.seed,
        numRuns: runs,
        interruptAfterTimeLimit: SHRINK_TIME_LIMIT_MS,
      });
      // A target that fell over fails every later command at once: that is the finding, not a sequence.
      if (ctx.serverDown) throw ctx.serverDown;
      if (!details.failed || !failing) return;
      run.expect(false, {
        operation: "(a sequence of requests)",
        expected: "every sequence of requests agrees with the model of the seeds' rules",
        actual: `after ${details.numRuns} sequences and ${details.numShrinks} shrinks, these ${failing.steps.length} requests break it (seed ${ctx.options.seed} replays them):\n${numbered(failing.steps)}\n  ${failing.message}`,
      });
    },
  };
}

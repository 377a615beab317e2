import { randomUUID } from "node:crypto";
import { redactCardData } from "@payspec/server-kit";
import fc from "fast-check";
import type { CheckRun } from "../check.js";
import type { AccountPair } from "../context.js";
import type { RecordedExchange } from "../exchange.js";
import { withAccounts } from "../operation-requests.js";
import { CANCELLABLE, ModelBroken, mayHaveBecome, type PaymentModel } from "./payment-model.js";

/** One request of a sequence as the failure report shows it. */
export interface Step {
  readonly command: string;
  readonly request: string;
  readonly answer: string;
}

/** The provider side of a sequence: how to send, what was sent, and what it started from. */
export interface RealSystem {
  readonly run: CheckRun;
  readonly pair: AccountPair;
  readonly steps: Step[];
  /** Money per currency across the workspace's accounts when the sequence started. */
  readonly moneyAtStart: ReadonlyMap<string, number>;
  token?: string;
  /** Builds a valid card payment body with a fresh referenceId. */
  cardPayment(): Record<string, unknown>;
}

type Command = fc.AsyncCommand<PaymentModel, RealSystem>;

function brief(reply: RecordedExchange): string {
  const body = reply.body === undefined ? `${reply.bytes.length} bytes` : JSON.stringify(reply.body);
  return redactCardData(`${reply.status} ${body.length > 240 ? `${body.slice(0, 240)}…` : body}`);
}

async function send(
  real: RealSystem,
  command: string,
  api: "payments" | "gateway",
  request: Parameters<CheckRun["send"]>[0],
): Promise<RecordedExchange> {
  const reply = await real.run.send(request, api);
  const body = reply.request.body ? ` ${reply.request.body.slice(0, 200)}` : "";
  real.steps.push({ command, request: `${reply.request.method} ${reply.request.path}${body}`, answer: brief(reply) });
  return reply;
}

function expect(ok: boolean, expected: string, reply: RecordedExchange): void {
  if (!ok) throw new ModelBroken(`expected ${expected}; got ${brief(reply)}`);
}

async function moneyPerCurrency(real: RealSystem, command: string): Promise<Map<string, number>> {
  const reply = await send(real, command, "payments", { method: "GET", path: "/v1/accounts" });
  expect(reply.status === 200 && Array.isArray(reply.body), "200 with the accounts", reply);
  const totals = new Map<string, number>();
  for (const account of reply.body as { currency: string; balance: number }[]) {
    expect(account.balance >= 0, `no negative balance (${account.currency})`, reply);
    totals.set(account.currency, (totals.get(account.currency) ?? 0) + account.balance);
  }
  return totals;
}

const pick = <T>(items: readonly T[], at: number): T | undefined => items[at % Math.max(items.length, 1)];

/** A reference no other payment has: a statement line names exactly one payment by it. */
const uniqueReference = () => `STATEFUL-${randomUUID().slice(0, 13)}`;

class CreatePayment implements Command {
  constructor(readonly amount: number) {}
  check = () => true;
  async run(model: PaymentModel, real: RealSystem) {
    const json = withAccounts({ amount: this.amount, method: "eft", reference: uniqueReference() }, real.pair);
    const reply = await send(real, this.toString(), "payments", { method: "POST", path: "/v1/payments", json });
    const payment = reply.body as { id?: string; status?: string; amount?: number };
    expect(
      reply.status === 201 && payment.status === "pending" && payment.amount === this.amount,
      `201 with a pending payment of ${this.amount}`,
      reply,
    );
    model.payments.set(payment.id as string, { status: "pending", amount: this.amount });
  }
  toString = () => `create a payment of ${this.amount}`;
}

class CreateBatch implements Command {
  constructor(
    readonly amounts: readonly number[],
    readonly badAt: number | undefined,
  ) {}
  check = () => true;
  async run(model: PaymentModel, real: RealSystem) {
    const payments = this.amounts.map((amount, i) =>
      withAccounts({ amount: i === this.badAt ? 0 : amount, method: "card" }, real.pair),
    );
    const reply = await send(real, this.toString(), "payments", {
      method: "POST",
      path: "/v1/payments/batch",
      json: { payments },
    });
    const results = (reply.body as { results?: { index: number; outcome: string; payment?: { id: string } }[] })
      ?.results;
    const expected = payments.map((p, i) => [i, p.amount === 0 ? "failed" : "created"]);
    expect(
      reply.status === 200 && JSON.stringify(results?.map((r) => [r.index, r.outcome])) === JSON.stringify(expected),
      `200 with one result per entry, in order: ${expected.map((e) => e[1]).join(", ")}`,
      reply,
    );
    for (const [i, result] of (results ?? []).entries())
      if (result.payment)
        model.payments.set(result.payment.id, { status: "pending", amount: payments[i]?.amount ?? 0 });
  }
  toString = () =>
    `create a batch of ${this.amounts.length}${this.badAt === undefined ? "" : ` (entry ${this.badAt} invalid)`}`;
}

class GetPayment implements Command {
  constructor(readonly at: number) {}
  check = (model: Readonly<PaymentModel>) => model.payments.size > 0;
  async run(model: PaymentModel, real: RealSystem) {
    const [id, known] = pick([...model.payments], this.at) ?? [];
    if (!id || !known) return;
    const reply = await send(real, this.toString(), "payments", { method: "GET", path: `/v1/payments/${id}` });
    const status = (reply.body as { status?: string }).status ?? "";
    expect(reply.status === 200 && mayHaveBecome(known, status), `200 with status ${known.status}`, reply);
    known.status = status;
  }
  toString = () => `get payment #${this.at}`;
}

class CancelPayment implements Command {
  constructor(readonly at: number) {}
  check = (model: Readonly<PaymentModel>) => model.payments.size > 0;
  async run(model: PaymentModel, real: RealSystem) {
    const [id, known] = pick([...model.payments], this.at) ?? [];
    if (!id || !known) return;
    const reply = await send(real, this.toString(), "payments", { method: "DELETE", path: `/v1/payments/${id}` });
    if (reply.status === 200) {
      expect(
        CANCELLABLE.includes(known.status) && (reply.body as { status?: string }).status === "cancelled",
        CANCELLABLE.includes(known.status)
          ? "200 with the payment cancelled"
          : `409: a ${known.status} payment cannot be cancelled`,
        reply,
      );
      known.status = "cancelled";
      return;
    }
    expect(reply.status === 409, `200 (cancelled) or 409 (not cancellable)`, reply);
    if (!CANCELLABLE.includes(known.status)) return;
    // A refusal of a payment the model thinks cancellable is right only if it has moved on by itself.
    const now = await send(real, "  (read it back)", "payments", { method: "GET", path: `/v1/payments/${id}` });
    const status = (now.body as { status?: string }).status ?? "";
    expect(
      status !== known.status && mayHaveBecome(known, status) && !CANCELLABLE.includes(status),
      `the ${known.status} payment cancelled, not refused`,
      reply,
    );
    known.status = status;
  }
  toString = () => `cancel payment #${this.at}`;
}

/** A walk visits at most this many pages; on a big workspace the page size grows to fit. */
const MAX_PAGES = 40;

class ListPayments implements Command {
  constructor(readonly limit: number) {}
  check = () => true;
  async run(model: PaymentModel, real: RealSystem) {
    const seen = new Map<string, string>();
    let limit = this.limit;
    let path = `/v1/payments?limit=${limit}`;
    for (let page = 0; ; page++) {
      const reply = await send(real, page === 0 ? this.toString() : "  (next page)", "payments", {
        method: "GET",
        path,
      });
      const body = reply.body as {
        data?: { id: string; status: string }[];
        pagination?: { total: number; has_more: boolean; next_cursor?: string };
      };
      expect(reply.status === 200 && Array.isArray(body.data), "200 with a page", reply);
      expect((body.data?.length ?? 0) <= limit, `at most ${limit} records a page`, reply);
      const total = body.pagination?.total ?? 0;
      if (page === 0 && total > limit * MAX_PAGES && limit < 10_000) {
        // Too many pages at this size for a bounded run: walk again with pages big enough.
        limit = Math.min(10_000, Math.ceil(total / MAX_PAGES) + 1);
        path = `/v1/payments?limit=${limit}`;
        page = -1;
        continue;
      }
      for (const record of body.data ?? []) {
        expect(!seen.has(record.id), `pages that never repeat a record (${record.id} came twice)`, reply);
        seen.set(record.id, record.status);
      }
      if (!body.pagination?.has_more || !body.pagination.next_cursor) break;
      if (page >= MAX_PAGES * 2)
        throw new ModelBroken(`expected the listing to end within ${MAX_PAGES * 2} pages of ${limit}`);
      path = `/v1/payments?cursor=${encodeURIComponent(body.pagination.next_cursor)}`;
    }
    for (const [id, known] of model.payments) {
      const status = seen.get(id);
      if (status === undefined) throw new ModelBroken(`expected payment ${id} in the listing; it was missing`);
      if (!mayHaveBecome(known, status))
        throw new ModelBroken(`expected payment ${id} listed as ${known.status}; it was listed as ${status}`);
      known.status = status;
    }
  }
  toString = () => `list every payment, ${this.limit} a page`;
}

class Login implements Command {
  check = () => true;
  async run(model: PaymentModel, real: RealSystem) {
    const reply = await send(real, this.toString(), "gateway", { method: "POST", path: "/auth/login" });
    const token = (reply.body as { accessToken?: unknown }).accessToken;
    expect(reply.status === 200 && typeof token === "string", "200 with an accessToken", reply);
    real.token = token as string;
    model.loggedIn = true;
  }
  toString = () => "log in to the gateway";
}

class CardPayment implements Command {
  /** `replayOf`: send again the card payment at this index (same body), which must not charge twice. */
  constructor(readonly replayOf: number | undefined) {}
  check = (model: Readonly<PaymentModel>) => model.loggedIn;
  async run(model: PaymentModel, real: RealSystem) {
    const earlier = this.replayOf === undefined ? undefined : pick([...model.cardPayments.values()], this.replayOf);
    const body = earlier?.body ?? real.cardPayment();
    const reply = await send(real, this.toString(), "gateway", {
      method: "POST",
      path: "/api/v1/payments/card",
      json: body,
      auth: { authorization: `Bearer ${real.token}` },
    });
    const id = (reply.body as { response?: { id?: string } }).response?.id;
    if (earlier) {
      expect(
        reply.status === 200 && id === earlier.id,
        `200 with the original payment ${earlier.id}, not a second charge`,
        reply,
      );
      return;
    }
    expect(reply.status === 200 && typeof id === "string", "200 with the new card payment", reply);
    model.cardPayments.set(String(body.referenceId), { id: id as string, body });
  }
  toString = () =>
    this.replayOf === undefined ? "pay by card" : `pay by card again with card payment #${this.replayOf}'s referenceId`;
}

class CheckMoney implements Command {
  check = () => true;
  async run(_model: PaymentModel, real: RealSystem) {
    const totals = await moneyPerCurrency(real, this.toString());
    for (const [currency, total] of real.moneyAtStart) {
      if (totals.get(currency) !== total)
        throw new ModelBroken(
          `expected the ${currency} balances to add up to ${total} (payments only move money); they add up to ${totals.get(currency)}`,
        );
    }
  }
  toString = () => "check that money is conserved";
}

class AdvanceClock implements Command {
  constructor(readonly seconds: number) {}
  check = () => true;
  async run(model: PaymentModel, real: RealSystem) {
    const reply = await send(real, this.toString(), "payments", {
      method: "POST",
      path: "/_sandbox/clock/advance",
      json: { seconds: this.seconds },
    });
    expect(reply.status === 200, "200 from the sandbox control API", reply);
    model.clockAdvanced = true;
  }
  toString = () => `advance the sandbox clock ${this.seconds} s`;
}

/**
 * A bank statement naming one payment (its reference, amount and currency), imported through the
 * sandbox's control API: a settled payment becomes reconciled, a reconciled one is reported as such,
 * anything else is `not_settled` and stays as it is. The only way into `reconciled` besides forcing.
 */
class ReconcileStatement implements Command {
  constructor(readonly at: number) {}
  check = (model: Readonly<PaymentModel>) => model.payments.size > 0;
  async run(model: PaymentModel, real: RealSystem) {
    const [id, known] = pick([...model.payments], this.at) ?? [];
    if (!id || !known) return;
    const got = await send(real, this.toString(), "payments", { method: "GET", path: `/v1/payments/${id}` });
    const payment = got.body as { status?: string; reference?: string; amount?: number; currency?: string };
    const status = payment.status ?? "";
    expect(got.status === 200 && mayHaveBecome(known, status), `200 with status ${known.status}`, got);
    known.status = status;
    if (payment.reference === undefined) return;
    const statement = `reference,amount_minor,currency,value_date\n${payment.reference},${payment.amount},${payment.currency},2026-01-01\n`;
    const reply = await send(real, "  (import the statement)", "payments", {
      method: "POST",
      path: "/_sandbox/reconciliations",
      headers: { "content-type": "text/csv" },
      raw: statement,
    });
    const outcome = (reply.body as { lines?: { outcome?: string }[] }).lines?.[0]?.outcome;
    const expected = status === "settled" ? "matched" : status === "reconciled" ? "already_reconciled" : "not_settled";
    expect(reply.status === 201 && outcome === expected, `201 with the line ${expected}`, reply);
    if (expected === "matched") known.status = "reconciled";
  }
  toString = () => `import a statement naming payment #${this.at}`;
}

/** A dashboard submit, through the control API: with the approval workflow on or off. */
class DashboardSubmit implements Command {
  constructor(
    readonly amount: number,
    readonly workflow: boolean,
  ) {}
  check = () => true;
  async run(model: PaymentModel, real: RealSystem) {
    const setting = await send(real, this.toString(), "payments", {
      method: "PUT",
      path: "/_sandbox/settings/approval-workflow",
      json: { enabled: this.workflow },
    });
    expect(setting.status === 200, "200 from the sandbox control API", setting);
    const json = withAccounts({ amount: this.amount, method: "eft" }, real.pair);
    const reply = await send(real, "  (submit)", "payments", { method: "POST", path: "/_sandbox/payments", json });
    const expected = this.workflow ? "pending" : "processing";
    const payment = reply.body as { id?: string; status?: string };
    expect(reply.status === 201 && payment.status === expected, `201 with a ${expected} payment`, reply);
    model.payments.set(payment.id as string, { status: expected, amount: this.amount, awaitsApproval: this.workflow });
  }
  toString = () =>
    `submit a payment of ${this.amount} from the dashboard, approval workflow ${this.workflow ? "on" : "off"}`;
}

/** An approver approves a payment: only one waiting for an approver can be, and only once. */
class Approve implements Command {
  constructor(readonly at: number) {}
  check = (model: Readonly<PaymentModel>) => model.payments.size > 0;
  async run(model: PaymentModel, real: RealSystem) {
    const [id, known] = pick([...model.payments], this.at) ?? [];
    if (!id || !known) return;
    const reply = await send(real, this.toString(), "payments", {
      method: "POST",
      path: `/_sandbox/payments/${id}/approve`,
    });
    if (known.status === "pending" && known.awaitsApproval) {
      const status = (reply.body as { status?: string }).status;
      expect(reply.status === 200 && status === "approved", "200 with the payment approved", reply);
      known.status = "approved";
      known.awaitsApproval = false;
      return;
    }
    expect(
      reply.status === 409,
      `409: a ${known.status} payment not waiting for an approver cannot be approved`,
      reply,
    );
  }
  toString = () => `approve payment #${this.at}`;
}

class ForceStatus implements Command {
  constructor(
    readonly at: number,
    readonly status: string,
  ) {}
  check = (model: Readonly<PaymentModel>) => model.payments.size > 0;
  async run(model: PaymentModel, real: RealSystem) {
    const [id, known] = pick([...model.payments], this.at) ?? [];
    if (!id || !known) return;
    const reply = await send(real, this.toString(), "payments", {
      method: "POST",
      path: `/_sandbox/payments/${id}/status`,
      json: { status: this.status },
    });
    // 409: the accounts cannot cover the move, or the payment is reconciled (final); it keeps its status.
    expect(
      reply.status === 200 || reply.status === 409,
      "200, or 409 when the money cannot move or the payment is reconciled",
      reply,
    );
    if (reply.status === 200) known.status = this.status;
  }
  toString = () => `force payment #${this.at} to ${this.status}`;
}

/** The commands a sequence is drawn from; the sandbox profile adds clock and forced states. */
export function commandArbitraries(sandbox: boolean): fc.Arbitrary<Command>[] {
  const index = fc.nat({ max: 30 });
  const amount = fc.integer({ min: 1, max: 5000 });
  const commands: fc.Arbitrary<Command>[] = [
    amount.map((a) => new CreatePayment(a)),
    fc
      .tuple(fc.array(amount, { minLength: 1, maxLength: 4 }), fc.option(fc.nat({ max: 3 }), { nil: undefined }))
      .map(([amounts, bad]) => new CreateBatch(amounts, bad !== undefined && bad < amounts.length ? bad : undefined)),
    index.map((i) => new GetPayment(i)),
    index.map((i) => new CancelPayment(i)),
    fc.integer({ min: 1, max: 5 }).map((limit) => new ListPayments(limit)),
    fc.constant(new Login()),
    fc.option(index, { nil: undefined }).map((i) => new CardPayment(i)),
    fc.constant(new CheckMoney()),
  ];
  if (sandbox) {
    commands.push(
      fc.constantFrom(10, 31, 3600).map((s) => new AdvanceClock(s)),
      fc.tuple(amount, fc.boolean()).map(([a, workflow]) => new DashboardSubmit(a, workflow)),
      index.map((i) => new Approve(i)),
      fc
        .tuple(index, fc.constantFrom("processing", "completed", "settled", "failed"))
        .map(([i, status]) => new ForceStatus(i, status)),
      index.map((i) => new ReconcileStatement(i)),
    );
  }
  return commands;
}

/**
 * The provider states payspec's sandbox can set up for a pact, by name, through its control API and
 * public endpoints. Each state resets what it touches first, so interactions never see each other's
 * data. A `{name}` in a state's name is a parameter: give it in the state's params, or write its
 * value in the name ("a card payment exists with referenceId 3f1c…"). What a state returns fills
 * `fromProviderState` expressions (`/v1/payments/${id}`).
 */
export interface StateSetup {
  /** Calls the target as the verification workspace (or, with `gateway`, the gateway), throwing on a refusal. */
  // biome-ignore lint/suspicious/noExplicitAny: the answers are the sandbox's JSON, read by the fields each state needs
  call(method: string, path: string, body?: unknown, as?: "workspace" | "gateway"): Promise<any>;
}

type Params = Readonly<Record<string, unknown>>;

interface CatalogueEntry {
  readonly name: string;
  readonly params: string;
  readonly returns: string;
  setUp(setup: StateSetup, params: Params): Promise<Record<string, unknown>>;
}

const TEST_CARD = {
  cardHolderName: "Ayşe Yılmaz",
  cardNumber: "5528790000000008",
  expireYear: "29",
  expireMonth: "07",
  cvc: "123",
};

async function resetWorkspace(setup: StateSetup): Promise<{ fromAccount: string; toAccount: string }> {
  await setup.call("POST", "/_sandbox/reset");
  return accountsIn(setup, "TRY");
}

async function accountsIn(setup: StateSetup, currency: string): Promise<{ fromAccount: string; toAccount: string }> {
  const accounts = (await setup.call("GET", "/v1/accounts")) as { id: string; currency: string }[];
  const [from, to] = accounts.filter((a) => a.currency === currency);
  if (!from || !to) throw new StateFailed(`the workspace has no two ${currency} accounts to pay between`);
  return { fromAccount: from.id, toAccount: to.id };
}

/** A reset workspace holding `count` pending TRY payments, of 10.00, 10.01, … in the order made. */
async function workspaceWith(setup: StateSetup, count: number): Promise<{ fromAccount: string; toAccount: string }> {
  const accounts = await resetWorkspace(setup);
  for (let i = 0; i < count; i++) {
    await setup.call("POST", "/v1/payments", {
      amount: 1000 + i,
      currency: "TRY",
      method: "eft",
      from_account: accounts.fromAccount,
      to_account: accounts.toAccount,
    });
  }
  return accounts;
}

async function payment(setup: StateSetup, params: Params): Promise<Record<string, unknown>> {
  const currency = typeof params.currency === "string" ? params.currency : "TRY";
  await setup.call("POST", "/_sandbox/reset");
  const { fromAccount, toAccount } = await accountsIn(setup, currency);
  const created = await setup.call("POST", "/v1/payments", {
    amount: typeof params.amount === "number" ? params.amount : 150075,
    currency,
    method: typeof params.method === "string" ? params.method : "eft",
    from_account: fromAccount,
    to_account: toAccount,
    ...(typeof params.reference === "string" ? { reference: params.reference } : {}),
  });
  return { id: created.id, fromAccount, toAccount };
}

async function paymentIn(setup: StateSetup, params: Params, status: string): Promise<Record<string, unknown>> {
  const made = await payment(setup, params);
  if (status === "cancelled") await setup.call("DELETE", `/v1/payments/${made.id}`);
  else await setup.call("POST", `/_sandbox/payments/${made.id}/status`, { status });
  return made;
}

async function cardPayment(setup: StateSetup, referenceId: string): Promise<Record<string, unknown>> {
  await setup.call("POST", "/_sandbox/reset", undefined, "gateway");
  const paid = await setup.call(
    "POST",
    "/api/v1/payments/card",
    {
      referenceId,
      amount: 1250.5,
      finalAmount: 1250.5,
      walletAmount: 0,
      clientIpAddress: "85.105.34.12",
      currency: "TRY",
      card: TEST_CARD,
      products: [{ name: "Kablosuz Kulaklık", price: 1250.5 }],
    },
    "gateway",
  );
  return {
    referenceId,
    transactionId: paid.response?.transactionId,
    date: String(paid.response?.createdDate ?? "").slice(0, 10),
  };
}

export const SANDBOX_PROVIDER_STATES: readonly CatalogueEntry[] = [
  {
    name: "the workspace has its seeded accounts",
    params: "none",
    returns: "fromAccount, toAccount (two TRY accounts)",
    setUp: (setup) => resetWorkspace(setup),
  },
  {
    name: "no payment {id} exists",
    params: "id (optional)",
    returns: "id",
    setUp: async (setup, params) => ({ ...(await resetWorkspace(setup)), id: params.id ?? "pay_doesnotexist0" }),
  },
  {
    name: "a pending payment exists",
    params: "amount, currency, method, reference (all optional)",
    returns: "id, fromAccount, toAccount",
    setUp: (setup, params) => payment(setup, params),
  },
  ...(["processing", "completed", "settled", "cancelled", "failed"] as const).map((status) => ({
    name: `a ${status} payment exists`,
    params: "amount, currency, method, reference (all optional)",
    returns: "id, fromAccount, toAccount",
    setUp: (setup: StateSetup, params: Params) => paymentIn(setup, params, status),
  })),
  {
    name: "the workspace has {count} payments",
    params: "count (0 to 100)",
    returns: "fromAccount, toAccount",
    setUp: async (setup, params) => {
      const count = Number(params.count);
      if (!Number.isInteger(count) || count < 0 || count > 100)
        throw new StateFailed("count must be a whole number from 0 to 100");
      return workspaceWith(setup, count);
    },
  },
  {
    name: "the workspace has {count} payments, listed {limit} a page",
    params: "count (1 to 100), limit (1 to 100)",
    returns: "cursor (the next_cursor of the first page: the second page's cursor), fromAccount, toAccount",
    setUp: async (setup, params) => {
      const count = Number(params.count);
      const limit = Number(params.limit);
      if (!Number.isInteger(count) || count < 1 || count > 100)
        throw new StateFailed("count must be a whole number from 1 to 100");
      if (!Number.isInteger(limit) || limit < 1 || limit > 100 || limit >= count)
        throw new StateFailed(
          "limit must be a whole number from 1 to 100, smaller than count, so there is a second page",
        );
      const accounts = await workspaceWith(setup, count);
      // A cursor is signed by the sandbox that issued it: only a listing can give one.
      const first = await setup.call("GET", `/v1/payments?limit=${limit}`);
      return { ...accounts, cursor: first.pagination?.next_cursor };
    },
  },
  {
    name: "the gateway accepts payments",
    params: "none",
    returns: "nothing",
    setUp: async (setup) => {
      await setup.call("POST", "/_sandbox/reset", undefined, "gateway");
      return {};
    },
  },
  {
    name: "a card payment exists with referenceId {referenceId}",
    params: "referenceId",
    returns: "referenceId, transactionId, date",
    setUp: (setup, params) => {
      if (typeof params.referenceId !== "string") throw new StateFailed("referenceId is needed");
      return cardPayment(setup, params.referenceId);
    },
  },
  {
    name: "a card payment exists today",
    params: "none",
    returns: "referenceId, transactionId, date (YYYY-MM-DD)",
    setUp: (setup) => cardPayment(setup, crypto.randomUUID()),
  },
];

/** A state was named but could not be set up: the message says which and why. */
export class StateFailed extends Error {}

/** A state the catalogue does not have: the message lists the ones it has. */
export class UnknownState extends Error {}

function templateRegex(template: string): { regex: RegExp; names: string[] } {
  const names: string[] = [];
  const pattern = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      if (!part.startsWith("{")) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(part.slice(1, -1));
      return "(.+?)";
    })
    .join("");
  return { regex: new RegExp(`^${pattern}$`, "i"), names };
}

/** The catalogue as text, for an unknown state's error and `--help`. */
export function stateCatalogue(): string {
  return SANDBOX_PROVIDER_STATES.map((s) => `  "${s.name}"  params: ${s.params}; gives: ${s.returns}`).join("\n");
}

/** Sets up one named state; what it returns, with the state's own params, fills the interaction's expressions. */
export async function setUpState(setup: StateSetup, name: string, params: Params): Promise<Record<string, unknown>> {
  for (const entry of SANDBOX_PROVIDER_STATES) {
    if (entry.name.toLowerCase() === name.toLowerCase()) return { ...params, ...(await entry.setUp(setup, params)) };
    const { regex, names } = templateRegex(entry.name);
    const match = regex.exec(name);
    if (!match) continue;
    const fromName = Object.fromEntries(names.map((n, i) => [n, match[i + 1]]));
    const given = { ...fromName, ...params };
    return { ...given, ...(await entry.setUp(setup, given)) };
  }
  throw new UnknownState(`unknown provider state "${name}"; the sandbox sets up these:\n${stateCatalogue()}`);
}

import { binPath } from "@payspec/bench-kit";
import { DEMO_API_KEYS, seedWorkspace } from "@payspec/sandbox";

/** The demo workspace every sandbox benchmark drives: its key, headers, and a create between its TRY accounts. */
export const key = DEMO_API_KEYS[0];
export const auth = { authorization: `Bearer ${key}` };
export const json = { ...auth, "content-type": "application/json" };
/** The workspace's two TRY accounts. */
export const tryAccounts = seedWorkspace(key)
  .accounts.filter((a) => a.currency === "TRY")
  .map((a) => a.id) as [string, string];
export const createBody = JSON.stringify({
  amount: 1000,
  currency: "TRY",
  method: "eft",
  from_account: tryAccounts[0],
  to_account: tryAccounts[1],
});
export const postCreate = { method: "POST" as const, headers: json, body: createBody };

export const sandboxBin = binPath("@payspec/sandbox", import.meta.resolve);
/** A completion delay far beyond any run keeps every payment pending: a create is one insert. */
export const PENDING_FOR_THE_RUN = { PAYSPEC_COMPLETE_AFTER_SECONDS: "1000000" };
export const url = (port: number, path = "") => `http://127.0.0.1:${port}${path}`;

/** How many payments the demo workspace lists (of one status, when given): its listing's total. */
export async function paymentsTotal(base: string, status?: string): Promise<number> {
  const answer = await fetch(`${base}/v1/payments?${status ? `status=${status}&` : ""}limit=1`, { headers: auth });
  if (answer.status !== 200) throw new Error(`GET /v1/payments answered ${answer.status}.`);
  return ((await answer.json()) as { pagination: { total: number } }).pagination.total;
}

/**
 * Signs in to a sandbox's dashboard like a browser (the form's token and its cookie, sent from the
 * dashboard's own origin) as the demo workspace; the session cookie, as a `cookie` header's value.
 */
export async function dashboardSession(base: string): Promise<string> {
  const dashboard = `${base}/_sandbox/dashboard`;
  const form = await fetch(dashboard);
  const formCookie = (form.headers.getSetCookie()[0] ?? "").split(";")[0] as string;
  const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? "";
  const signedIn = await fetch(`${dashboard}/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: formCookie, origin: base },
    body: new URLSearchParams({ _csrf: token, apiKey: key }),
  });
  const session = signedIn.headers.getSetCookie().find((c) => c.startsWith("payspec_dashboard_session"));
  if (!session) throw new Error(`The dashboard's sign-in answered ${signedIn.status}.`);
  return session.split(";")[0] as string;
}

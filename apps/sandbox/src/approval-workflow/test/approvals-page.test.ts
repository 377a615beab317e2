import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { DashboardHttp } from "../../../test/support/dashboard-http.js";
import { type Harness, harness, KEY } from "../../../test/support/harness.js";

/**
 * The approvals queue as an approver uses it: who pays whom, several approved at once, and under the
 * four-eyes rule no button for what the signed-in person submitted, while another person approves it.
 */
let h: Harness;
let from: { id: string; name: string };
let to: { id: string; name: string };

beforeAll(async () => {
  h = await harness({ completeAfterSeconds: 3_600 });
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.control("/reset");
  const accounts = (await h.call("GET", "/v1/accounts", { key: KEY })).body as {
    id: string;
    name: string;
    currency: string;
  }[];
  const [a, b] = accounts.filter((account) => account.currency === "TRY");
  if (!a || !b) throw new Error("The seed has two TRY accounts.");
  [from, to] = [a, b];
  expect(
    (await h.call("PUT", "/_sandbox/settings/approval-workflow", { key: KEY, json: { enabled: true } })).status,
  ).toBe(200);
});

/** A payment submitted from the dashboard (over the control API), waiting for an approver. */
async function submitted(amount: number): Promise<string> {
  const made = await h.control("/payments", {
    amount,
    currency: "TRY",
    method: "eft",
    from_account: from.id,
    to_account: to.id,
  });
  expect([made.status, made.body.status]).toEqual([201, "pending"]);
  return made.body.id;
}
const status = async (id: string) => (await h.call("GET", `/v1/payments/${id}`, { key: KEY })).body.status;
const signedIn = async (key: string) => {
  const browser = new DashboardHttp(h.url);
  await browser.signIn(key);
  browser.cookies.set("payspec_dashboard_lang", "en");
  return browser;
};

it("shows who pays whom, and approves the ticked payments at once, leaving the others waiting", async () => {
  const [a, b, c] = [await submitted(100), await submitted(200), await submitted(300)];
  const browser = await signedIn(KEY);
  const page = (await browser.get("/approvals")).text;
  expect(page).toContain(`${from.name} <code>${from.id}</code>`);
  expect(page).toContain(`${to.name} <code>${to.id}</code>`);
  expect(page.match(/type="checkbox" name="ids"/g)).toHaveLength(3);
  expect(page).toContain("Approve the selected payments");
  const token = await browser.token("/approvals");
  const body = new URLSearchParams([
    ["_csrf", token],
    ["ids", a],
    ["ids", c],
  ]).toString();
  const answer = await browser.post("/approvals", {}, { body });
  expect([answer.status, answer.location]).toEqual([303, "/_sandbox/dashboard/approvals"]);
  expect([await status(a), await status(b), await status(c)]).toEqual(["approved", "pending", "approved"]);
  expect((await browser.get("/approvals")).text).toContain("Approved 2 payments.");
});

it("under four eyes offers no approval of one's own submission, and another person's key approves it", async () => {
  const mine = await submitted(100);
  expect((await h.call("PUT", "/_sandbox/settings/four-eyes", { key: KEY, json: { enabled: true } })).status).toBe(200);
  const submitter = await signedIn(KEY);
  const own = (await submitter.get("/approvals")).text;
  expect(own).toContain("You submitted it: another person approves it.");
  expect(own).not.toContain(`value="${mine}" class="primary"`);
  expect(own).not.toMatch(/type="checkbox" name="ids"/);
  // Sent anyway (an old page, a crafted form): refused, and said why.
  const refused = await submitter.post("/approvals", { _csrf: await submitter.token("/approvals"), only: mine });
  expect(refused.status).toBe(303);
  expect(await status(mine)).toBe("pending");
  expect((await submitter.get("/approvals")).text).toContain("another person approves them");

  const other = (await h.control("/api-keys", { name: "Approver" })).body.key as string;
  const approver = await signedIn(other);
  const offered = (await approver.get("/approvals")).text;
  expect(offered).toMatch(new RegExp(`name="only" value="${mine}"`));
  await approver.post("/approvals", { _csrf: await approver.token("/approvals"), only: mine });
  expect(await status(mine)).toBe("approved");
});

it("rejects the ticked payments at once after asking, cancelling them with nothing moved, and skips one approved meanwhile", async () => {
  const [a, b, c] = [await submitted(100), await submitted(200), await submitted(300)];
  const balances = async () => (await h.call("GET", "/v1/accounts", { key: KEY })).body as { balance: number }[];
  const before = await balances();
  const browser = await signedIn(KEY);
  expect((await browser.get("/approvals")).text).toContain("Reject the selected payments");
  const chosen = (token: string, extra: [string, string][] = []) =>
    new URLSearchParams([["_csrf", token], ["decision", "reject"], ["ids", a], ["ids", c], ...extra]).toString();

  // First the question: how many, how much, and that it cannot be undone; nothing is rejected yet.
  const asked = await browser.post("/approvals", {}, { body: chosen(await browser.token("/approvals")) });
  expect(asked.status).toBe(200);
  expect(asked.text).toContain("Reject 2 payments (4.00 TRY in all)?");
  expect(asked.text).toContain("cannot be sent again");
  expect([await status(a), await status(c)]).toEqual(["pending", "pending"]);
  const carried = asked.text.match(/name="chosen" value="([^"]+)"/)?.[1];
  expect(carried?.split(" ").sort()).toEqual([a, c].sort());

  // Approved by someone else before the answer: that one stays approved, and the page says so.
  expect((await h.control(`/payments/${c}/approve`, {})).status).toBe(200);
  const token = asked.text.match(/name="_csrf" value="([^"]+)"/)?.[1] ?? "";
  const body = new URLSearchParams([
    ["_csrf", token],
    ["confirm", "yes"],
    ["decision", "reject"],
    ["chosen", carried ?? ""],
  ]);
  const answer = await browser.post("/approvals", {}, { body: body.toString() });
  expect([answer.status, answer.location]).toEqual([303, "/_sandbox/dashboard/approvals"]);
  expect([await status(a), await status(b), await status(c)]).toEqual(["cancelled", "pending", "approved"]);
  const after = (await browser.get("/approvals")).text;
  expect(after).toContain("Rejected 1 payment: cancelled, nothing moved.");
  expect(after).toContain("1 payment was no longer waiting for an approver.");
  expect(await balances()).toEqual(before);
});

it("lets the submitter withdraw their own payment under four eyes, and refuses to reject one that does not wait", async () => {
  const mine = await submitted(100);
  expect((await h.call("PUT", "/_sandbox/settings/four-eyes", { key: KEY, json: { enabled: true } })).status).toBe(200);
  const submitter = await signedIn(KEY);
  const own = (await submitter.get("/approvals")).text;
  expect(own).toMatch(new RegExp(`name="reject" value="${mine}"`));
  expect(own).not.toMatch(new RegExp(`name="only" value="${mine}"`));
  const asked = await submitter.post("/approvals", { _csrf: await submitter.token("/approvals"), reject: mine });
  expect(asked.text).toContain(`Reject payment ${mine} of 1.00 TRY?`);
  expect(asked.text).toContain("Reject this payment?");
  const token = asked.text.match(/name="_csrf" value="([^"]+)"/)?.[1] ?? "";
  await submitter.post("/approvals", { _csrf: token, confirm: "yes", decision: "reject", chosen: mine });
  expect(await status(mine)).toBe("cancelled");

  // The control API's rejection says why not, in its own error shape.
  const again = await h.control(`/payments/${mine}/reject`, {});
  expect(again.status).toBe(409);
  expect(JSON.stringify(again.body)).toContain("not waiting for an approver (it is cancelled)");
  expect((await h.control("/payments/pay_nothing/reject", {})).status).toBe(404);
});

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

import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Browser, type BrowserContext, launchChromium, type Page } from "@payspec/test-browser";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Harness, harness, KEY, OTHER_KEY } from "./support/harness.js";

/** Screenshots of each page, kept as test artifacts (two of them are in the README). */
const SHOTS = fileURLToPath(new URL("../test-results/dashboard/", import.meta.url));

let h: Harness;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let dashboard: string;

beforeAll(async () => {
  h = await harness({ completeAfterSeconds: 30 });
  dashboard = `${h.url}/_sandbox/dashboard`;
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await h.close();
});
beforeEach(async () => {
  await h.control("/reset");
  await h.control("/reset", {}, OTHER_KEY);
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
});
afterEach(async () => {
  await context.close();
  expect(h.problems.splice(0)).toEqual([]);
});

async function create(key: string, overrides: Record<string, unknown> = {}) {
  const accounts = await h.accounts(key);
  const [from, to] = accounts.filter((a) => a.currency === "TRY").map((a) => a.id);
  const reply = await h.call("POST", "/v1/payments", {
    key,
    json: { amount: 12_345, currency: "TRY", method: "eft", from_account: from, to_account: to, ...overrides },
  });
  expect(reply.status).toBe(201);
  return reply.body as { id: string };
}

async function signIn(key: string = KEY) {
  await page.goto(dashboard);
  await page.getByLabel(/Workspace API key/).fill(key);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Accounts and payments" }).waitFor();
}

const paymentRows = () => page.getByRole("table", { name: "Payments" }).locator("tbody tr");

describe("the sandbox dashboard, in a real browser", () => {
  it("signs in with a workspace's API key into an HttpOnly, SameSite=Strict session, and out again", async () => {
    await page.goto(dashboard);
    await page.screenshot({ path: `${SHOTS}sign-in.png` });
    await page.getByLabel(/Workspace API key/).fill("sk_live_not_a_sandbox_key");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert").textContent()).resolves.toContain("not the API key of a workspace");
    expect(await page.content()).not.toContain("sk_live_not_a_sandbox_key");

    await signIn();
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === "payspec_dashboard_session");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/_sandbox/dashboard" });
    // The cookie names the workspace by its tag, never by its key.
    expect(session?.value).not.toContain(KEY);
    const balances = await page.getByRole("table", { name: "Accounts" }).locator("tbody tr").allTextContents();
    expect(balances).toHaveLength(6);
    expect(balances[0]).toMatch(/2,500,000\.00 TRY/);

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    expect((await context.cookies()).find((c) => c.name === "payspec_dashboard_session")).toBeUndefined();
  });

  it("refuses a form without its CSRF token", async () => {
    const answer = await fetch(`${dashboard}/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `apiKey=${KEY}`,
    });
    expect(answer.status).toBe(403);
    expect(answer.headers.get("set-cookie") ?? "").not.toContain("payspec_dashboard_session");
    expect(await answer.text()).toContain("did not come from this dashboard");
  });

  it("shows user text as text: a <script> description never runs", async () => {
    await create(KEY, { description: "<script>window.__owned = 1</script><b>bold</b>" });
    await signIn();
    const cell = paymentRows().first().locator("td").last();
    expect(await cell.textContent()).toBe("<script>window.__owned = 1</script><b>bold</b>");
    expect(await page.evaluate(() => (globalThis as { __owned?: number }).__owned)).toBeUndefined();
    expect(await page.locator("main b").count()).toBe(0);
  });

  it("lists payments with the API's filters and cursors, and shows a payment's history with causes", async () => {
    const made = [];
    for (let i = 0; i < 28; i++) made.push(await create(KEY, { amount: 100 + i }));
    const cancelled = made[3] as { id: string };
    await h.call("DELETE", `/v1/payments/${cancelled.id}`, { key: KEY });
    await h.control(`/payments/${made[5]?.id}/status`, { status: "completed" });
    await signIn();
    await page.screenshot({ path: `${SHOTS}payments.png`, fullPage: true });
    expect(await page.getByText("28 payments.").count()).toBe(1);
    expect(await paymentRows().count()).toBe(25);
    await page.getByRole("link", { name: "Next page" }).click();
    expect(await paymentRows().count()).toBe(3);

    await page.goto(dashboard);
    await page.getByLabel("Status").selectOption("cancelled");
    await page.getByRole("button", { name: "Filter" }).click();
    expect(await paymentRows().count()).toBe(1);
    expect(await paymentRows().first().textContent()).toContain(cancelled.id);
    const today = new Date().toISOString().slice(0, 10);
    await page.goto(`${dashboard}?from=2000-01-01&to=2000-01-31`);
    expect(await paymentRows().count()).toBe(0);
    await page.goto(`${dashboard}?from=${today}&to=${today}`);
    expect(await page.getByText("28 payments.").count()).toBe(1);

    await page.goto(dashboard);
    await page.getByRole("link", { name: made[5]?.id }).click();
    await page.getByRole("heading", { name: "Status history" }).waitFor();
    await page.screenshot({ path: `${SHOTS}payment.png`, fullPage: true });
    const history = await page.getByRole("table", { name: "Status history" }).locator("tbody tr").allTextContents();
    expect(history).toHaveLength(2);
    expect(history[0]).toMatch(/pending\s*API/);
    expect(history[1]).toMatch(/completed\s*Control API/);
    const fields = await page.getByRole("table", { name: "Payment fields" }).textContent();
    expect(fields).toContain("1.05 TRY");
    expect(fields).toContain("completed_at");
  });

  it("never shows another workspace's payments", async () => {
    const mine = await create(KEY, { description: "mine" });
    const theirs = await create(OTHER_KEY, { description: "theirs" });
    await signIn();
    const content = await page.content();
    expect(content).toContain(mine.id);
    expect(content).not.toContain(theirs.id);
    const detail = await page.goto(`${dashboard}/payments/${theirs.id}`);
    expect(detail?.status()).toBe(404);
    expect(await page.content()).not.toContain("theirs");
  });
});

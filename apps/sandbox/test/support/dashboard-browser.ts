import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Browser, type BrowserContext, launchChromium, type Page } from "@payspec/test-browser";
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from "vitest";
import type { SandboxOptions } from "../../src/index.js";
import { type Harness, harness, KEY, OTHER_KEY } from "./harness.js";

/** Screenshots of the pages, kept as test artifacts (the README's come from here). */
const SHOTS = fileURLToPath(new URL("../../test-results/dashboard/", import.meta.url));

/** `PAYSPEC_SCREENSHOTS=1`: every page the tests visit is photographed, for the README or a review. */
const EVERY_SCREENSHOT = process.env.PAYSPEC_SCREENSHOTS === "1";

/**
 * A full-page screenshot in `test-results/dashboard/<name>.png`, when it is asked for
 * (`PAYSPEC_SCREENSHOTS=1`) or when it shows a problem a test found (`problem`). A full page costs
 * Chromium about a fifth of a second of a core to paint and encode: taken of every page of every run,
 * screenshots nobody looked at were a sixth of the browser tests' CPU.
 */
export async function keepScreenshot(page: Page, name: string, problem = false): Promise<void> {
  if (!problem && !EVERY_SCREENSHOT) return;
  await page.screenshot({ path: `${SHOTS}${name}.png`, fullPage: true });
}

/** A laptop's and a phone's width, each in both languages: the combinations a browser case runs in. */
export const WIDTHS_IN_LANGUAGES = [
  [1366, "en"],
  [390, "tr"],
  [390, "en"],
  [1366, "tr"],
] as const;

const BROWSER_CASE_TIMEOUT_MS = 180_000;

export interface DashboardSession {
  readonly h: Harness;
  readonly page: Page;
  readonly context: BrowserContext;
  /** `<sandbox>/_sandbox/dashboard`. */
  readonly url: string;
  signIn(key?: string): Promise<void>;
  /**
   * Does what starts a navigation (a link's or a form's click) and waits for the document it leads
   * to. A click returns before that: a count or a check read at once sees the old page, or (as one CI
   * run did) a new document with nothing in it yet. Only for an action that surely navigates.
   */
  navigate(action: () => Promise<unknown>): Promise<void>;
  /** A payment through the API, between the workspace's two TRY accounts. */
  create(key: string, overrides?: Record<string, unknown>): Promise<{ id: string; created_at: string }>;
}

/**
 * A real sandbox (memory or PostgreSQL, by project) and Debian's Chromium for a dashboard test file:
 * both workspaces reset and a fresh browser context before each case, spec problems checked after.
 */
export function useDashboard(
  completeAfterSeconds = 30,
  /** More settings, read when the sandbox starts (after earlier `beforeAll`s, such as an SMTP server's). */
  options: () => SandboxOptions = () => ({}),
): DashboardSession {
  let h: Harness;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let url: string;

  // A browser case drives a real Chromium through several pages: alone 2–25 s, and several times that
  // on a two-core machine running the rest of the check beside it (a 28-payment listing case took
  // over 60 s on CI's). The bound is against a hang: three minutes, for this file's cases only.
  vi.setConfig({ testTimeout: BROWSER_CASE_TIMEOUT_MS });
  beforeAll(async () => {
    h = await harness({ completeAfterSeconds, ...options() });
    url = `${h.url}/_sandbox/dashboard`;
    browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    vi.resetConfig();
    await browser?.close();
    await h.close();
  });
  beforeEach(async () => {
    await h.control("/reset");
    await h.control("/reset", {}, OTHER_KEY);
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
  });
  afterEach(async (test) => {
    // The page a failed case ended on, as Playwright's `screenshot: "only-on-failure"` keeps it.
    if (test.task.result?.state === "fail")
      await keepScreenshot(page, `failed-${test.task.name.replace(/[^\p{L}\p{N}]+/gu, "-").slice(0, 80)}`, true).catch(
        () => undefined,
      );
    await context.close();
    expect(h.problems.splice(0)).toEqual([]);
  });

  return {
    get h() {
      return h;
    },
    get page() {
      return page;
    },
    get context() {
      return context;
    },
    get url() {
      return url;
    },
    async signIn(key = KEY) {
      await page.goto(url);
      await page.getByLabel(/Workspace API key/).fill(key);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByRole("heading", { name: "Accounts and payments" }).waitFor();
    },
    async navigate(action) {
      const loaded = page.waitForEvent("domcontentloaded");
      await action();
      await loaded;
    },
    async create(key, overrides = {}) {
      const accounts = await h.accounts(key);
      const [from, to] = accounts.filter((a) => a.currency === "TRY").map((a) => a.id);
      const reply = await h.call("POST", "/v1/payments", {
        key,
        json: { amount: 12_345, currency: "TRY", method: "eft", from_account: from, to_account: to, ...overrides },
      });
      expect(reply.status).toBe(201);
      return reply.body as { id: string; created_at: string };
    },
  };
}

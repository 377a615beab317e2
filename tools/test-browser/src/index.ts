import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

export type { Browser, BrowserContext, Locator, Page } from "playwright-core";

/**
 * Debian's Chromium headless shell (the `chromium-headless-shell` package, which
 * scripts/install-system-deps.sh installs): the same Blink as the full browser, without its window
 * machinery, as Playwright itself runs headless tests. It spent a third of the full browser's CPU on the
 * same pages here, and the browser tests are most of the sandbox suite's CPU. The full `chromium`
 * serves where only it is installed; PAYSPEC_CHROMIUM points elsewhere.
 */
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const FULL_BROWSER = "/usr/bin/chromium";

export const CHROMIUM =
  process.env.PAYSPEC_CHROMIUM ??
  (existsSync(HEADLESS_SHELL) || !existsSync(FULL_BROWSER) ? HEADLESS_SHELL : FULL_BROWSER);

/**
 * Launches the system Chromium headless for a test, with everything that would reach the network
 * (updates, sync, background fetches) turned off. No browser is ever downloaded.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}: run bash scripts/install-system-deps.sh (it installs chromium-headless-shell), or set PAYSPEC_CHROMIUM.`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export { WCAG_A_AA, wcagViolations } from "./accessibility.js";

import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

export type { Browser, BrowserContext, Page } from "playwright-core";

/** Debian's chromium (scripts/install-system-deps.sh installs it); PAYSPEC_CHROMIUM points elsewhere. */
export const CHROMIUM = process.env.PAYSPEC_CHROMIUM ?? "/usr/bin/chromium";

/**
 * Launches the system Chromium headless for a test, with everything that would reach the network
 * (updates, sync, background fetches) turned off. No browser is ever downloaded.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`No Chromium at ${CHROMIUM}: run bash scripts/install-system-deps.sh, or set PAYSPEC_CHROMIUM.`);
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

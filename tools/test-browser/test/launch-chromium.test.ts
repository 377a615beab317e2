import { expect, it } from "vitest";
import { launchChromium } from "../src/index.js";

it("launches the system Chromium and renders a page", async () => {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.setContent("<h1>payspec</h1><p id='x'>&lt;script&gt;</p>");
    expect(await page.locator("h1").textContent()).toBe("payspec");
    expect(await page.locator("#x").textContent()).toBe("<script>");
    expect(browser.version()).toMatch(/^\d+\./);
  } finally {
    await browser.close();
  }
});

import { expect, it } from "vitest";
import { launchChromium, wcagViolations } from "../src/index.js";

it("names the WCAG A/AA rule a page breaks and the element, and nothing on a page that keeps them", async () => {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.setContent(
      `<html lang="tr"><head><title>Ödemeler</title></head><body><main><h1>Ödemeler</h1>
       <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" id="logo"><input id="amount"></main></body></html>`,
    );
    expect(await wcagViolations(page)).toEqual(["image-alt: #logo", "label: #amount"]);
    await page.setContent(
      `<html lang="tr"><head><title>Ödemeler</title></head><body><main><h1>Ödemeler</h1>
       <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="payspec"><label>Tutar <input></label></main></body></html>`,
    );
    expect(await wcagViolations(page)).toEqual([]);
  } finally {
    await browser.close();
  }
});

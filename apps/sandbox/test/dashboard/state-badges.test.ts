import { describe, expect, it } from "vitest";
import { keepScreenshot, useDashboard, WIDTHS_IN_LANGUAGES } from "../support/dashboard-browser.js";
import { eventually } from "../support/eventually.js";
import { KEY } from "../support/harness.js";

const d = useDashboard();

/** Each page's state words, in each language, with the tone its badge must show. */
const EXPECTED = {
  en: {
    "/settings/api-keys": [
      ["active", "good"],
      ["revoked", "bad"],
    ],
    "/outbox": [["caught", "good"]],
    "/exports": [["ready", "good"]],
  },
  tr: {
    "/settings/api-keys": [
      ["etkin", "good"],
      ["iptal edildi", "bad"],
    ],
    "/outbox": [["yakalandı", "good"]],
    "/exports": [["hazır", "good"]],
  },
} as const;

describe("a badge for every state word", () => {
  for (const [width, language] of WIDTHS_IN_LANGUAGES)
    it(`on the API keys, Outbox and Exports pages at ${width} px in ${language}, coloured by what the state tells`, async () => {
      await d.page.setViewportSize({ width, height: 844 });
      const kept = await d.h.call("POST", "/_sandbox/api-keys", { key: KEY, json: { name: "Muhasebe Şükrü" } });
      const gone = await d.h.call("POST", "/_sandbox/api-keys", { key: KEY, json: { name: "Eski anahtar" } });
      expect([kept.status, gone.status]).toEqual([201, 201]);
      expect((await d.h.call("DELETE", `/_sandbox/api-keys/${gone.body.id}`, { key: KEY })).status).toBe(200);
      const recipients = { recipients: ["muhasebe@example.com"] };
      expect(
        (await d.h.call("PUT", "/_sandbox/settings/report-recipients", { key: KEY, json: recipients })).status,
      ).toBe(200);
      expect((await d.h.call("POST", "/_sandbox/outbox/test", { key: KEY })).status).toBe(201);
      const job = await d.h.call("POST", "/_sandbox/exports", { key: KEY, json: { format: "csv" } });
      await eventually(async () => {
        const state = (await d.h.call("GET", `/_sandbox/exports/${job.body.id}`, { key: KEY })).body.state;
        return state === "ready" ? state : undefined;
      }, "The export's file");
      await d.signIn();
      await d.context.addCookies([{ name: "payspec_dashboard_lang", value: language, url: d.url }]);

      const backgrounds = new Map<string, string>();
      for (const [path, states] of Object.entries(EXPECTED[language])) {
        await d.page.goto(`${d.url}${path}`);
        // Every state cell holds a badge; none is plain text.
        for (const cell of await d.page.locator("main td.status").all())
          expect(await cell.locator(".badge").count(), `${path}: ${await cell.textContent()}`).toBe(1);
        for (const [word, tone] of states) {
          const badge = d.page.locator(".badge", { hasText: word }).first();
          expect(await badge.getAttribute("class"), `${path} ${word}`).toContain(`tone-${tone}`);
          backgrounds.set(
            tone,
            await badge.evaluate((el: { computedStyleMap(): Map<string, unknown> }) =>
              String(el.computedStyleMap().get("background-color")),
            ),
          );
        }
        expect(await d.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")).toBe(0);
        await keepScreenshot(d.page, `badges${path.replaceAll("/", "-")}-${language}-${width}`);
      }
      // Good and bad read apart at a glance.
      expect(backgrounds.get("good")).not.toBe(backgrounds.get("bad"));
    });
});

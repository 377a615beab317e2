import { describe, expect, it } from "vitest";
import { useDashboard, WIDTHS_IN_LANGUAGES } from "../support/dashboard-browser.js";
import { KEY } from "../support/harness.js";

const d = useDashboard();

/** What each language says, for the parts a person reads. */
const WORDS = {
  en: {
    reconcile: "Reconcile",
    addLayout: "Add the layout",
    columnRequired: "a column name is required",
    declare: "Declare the fault",
    latencyOnly: "applies to the latency faults only, not to error-500.",
    createKey: "Create key",
    keyBoxes: "2 boxes need attention",
    recipientsSave: "Save recipients",
    recipientsBad: "Recipients 2 and 4 are not e-mail addresses",
    advance: "Advance the clock",
    reset: "Reset this workspace",
  },
  tr: {
    reconcile: "Mutabakat yap",
    addLayout: "Düzeni ekle",
    columnRequired: "bir sütun adı gerekli",
    declare: "Hatayı tanımla",
    latencyOnly: "yalnızca gecikme hataları için geçerli, error-500 için değil.",
    createKey: "Anahtarı oluştur",
    keyBoxes: "2 kutu",
    recipientsSave: "Alıcıları kaydet",
    recipientsBad: "2. ve 4. alıcı bir e-posta adresi değil",
    advance: "Saati ilerlet",
    reset: "Bu çalışma alanını sıfırla",
  },
} as const;

const turkishOr = <T>(language: "en" | "tr", turkish: T, english: T) => (language === "tr" ? turkish : english);

describe("every form keeps what was typed and says every problem in the page's language", () => {
  for (const [width, language] of WIDTHS_IN_LANGUAGES)
    it(`at ${width} px in ${language}`, async () => {
      const words = WORDS[language];
      await d.page.setViewportSize({ width, height: 844 });
      await d.signIn();
      await d.context.addCookies([{ name: "payspec_dashboard_lang", value: language, url: d.url }]);
      const submit = (name: string) => d.navigate(() => d.page.getByRole("button", { name, exact: true }).click());

      // A pasted statement with two bad lines comes back as pasted, both lines named at once.
      const statement =
        "reference,amount_minor,currency,value_date\nKİRA-ŞUBAT,on iki,TRY,2026-11-27\nX,5,TRY,2026-13-01\n";
      await d.page.goto(`${d.url}/reconciliation`);
      await d.page.locator('textarea[name="statement"]').fill(statement);
      await submit(words.reconcile);
      expect(await d.page.locator('textarea[name="statement"]').inputValue()).toBe(statement);
      expect(await d.page.locator('textarea[name="statement"]').getAttribute("aria-invalid")).toBe("true");
      const lineProblems = await d.page.locator(".error-summary").textContent();
      for (const line of turkishOr(language, ["2. satır", "3. satır"], ["Line 2", "Line 3"]))
        expect(lineProblems).toContain(line);

      // A CSV layout without its date column: the name stays, the problem is in the page's language.
      await d.page.goto(`${d.url}/reconciliation`);
      const layout = d.page.getByRole("form", { name: language === "tr" ? "CSV düzeni ekle" : "Add a CSV layout" });
      await layout.locator('input[name="name"]').fill("Ziraat Bankası İşlem Dökümü");
      await layout.locator('input[name="amount"]').fill("İşlem Tutarı");
      await layout.locator('select[name="numbers"]').selectOption(", ");
      await submit(words.addLayout);
      const refusedLayout = d.page.getByRole("form", {
        name: language === "tr" ? "CSV düzeni ekle" : "Add a CSV layout",
      });
      expect(await refusedLayout.locator('input[name="name"]').inputValue()).toBe("Ziraat Bankası İşlem Dökümü");
      expect(await refusedLayout.locator('input[name="amount"]').inputValue()).toBe("İşlem Tutarı");
      expect(await refusedLayout.locator('select[name="numbers"]').inputValue()).toBe(", ");
      expect(await refusedLayout.locator('input[name="date"]').getAttribute("aria-invalid")).toBe("true");
      expect(await d.page.locator("main").textContent()).toContain(words.columnRequired);

      // A fault with a setting it has no use for: every box as filled in, the reason in one language.
      await d.page.goto(`${d.url}/faults`);
      await d.page.locator('select[name="operation"]').selectOption("createPayment");
      await d.page.locator('select[name="fault"]').selectOption("error-500");
      await d.page.locator('input[name="next"]').fill("3");
      await d.page.locator('input[name="latencyMs"]').fill("200-800");
      await submit(words.declare);
      expect(await d.page.getByRole("alert").first().textContent()).toContain(words.latencyOnly);
      expect(await d.page.locator('select[name="operation"]').inputValue()).toBe("createPayment");
      expect(await d.page.locator('select[name="fault"]').inputValue()).toBe("error-500");
      // What the client sees of each fault, in the page's language.
      expect(await d.page.locator('select[name="fault"] option[value="error-500"]').textContent()).toBe(
        turkishOr(language, "error-500: API'nin hata biçiminde 500", "error-500: 500 in the API's error shape"),
      );
      expect(await d.page.locator('input[name="next"]').inputValue()).toBe("3");
      expect(await d.page.locator('input[name="latencyMs"]').inputValue()).toBe("200-800");
      // The box the problem is about is flagged; the operation is in the page's words, its code beside.
      expect(await d.page.locator('input[name="latencyMs"]').getAttribute("aria-invalid")).toBe("true");
      expect(await d.page.locator('select[name="operation"] option[value="createPayment"]').textContent()).toBe(
        turkishOr(language, "Ödeme oluştur (createPayment)", "Create a payment (createPayment)"),
      );

      // An API key with a blank name and a past expiry: both said at once, both boxes flagged.
      await d.page.goto(`${d.url}/settings/api-keys`);
      await d.page.locator('input[name="name"]').fill("   ");
      await d.page.locator('input[name="expires_on"]').fill("2020-01-01");
      await submit(words.createKey);
      expect(await d.page.locator(".error-summary h2").textContent()).toContain(words.keyBoxes);
      for (const box of ["name", "expires_on"])
        expect(await d.page.locator(`input[name="${box}"]`).getAttribute("aria-invalid"), box).toBe("true");
      expect(await d.page.locator('input[name="expires_on"]').inputValue()).toBe("2020-01-01");

      // Account menus lead with the name: on a phone the cut falls on the id, not on whose account it is.
      await d.page.goto(`${d.url}/payments/new`);
      const [firstAccount] = await d.h.accounts(KEY);
      expect(await d.page.locator('select[name="from_account"] option').first().textContent()).toBe(
        `${firstAccount?.name} (${firstAccount?.currency}) · ${firstAccount?.id}`,
      );

      // Recipients: every bad address named at once; a good one's domain kept in lower case.
      await d.page.goto(`${d.url}/settings/reports`);
      const recipients = "OPS@Example.COM\nnot an address\nmuhasebe@example.com\nşükrü@\n";
      await d.page.locator('textarea[name="recipients"]').fill(recipients);
      await submit(words.recipientsSave);
      expect(await d.page.getByRole("alert").first().textContent()).toContain(words.recipientsBad);
      expect(await d.page.locator('textarea[name="recipients"]').inputValue()).toBe(recipients);
      await d.page.locator('textarea[name="recipients"]').fill("OPS@Example.COM\n muhasebe@ornek.com.TR ");
      await submit(words.recipientsSave);
      const kept = (await d.h.call("GET", "/_sandbox/settings/report-recipients", { key: KEY })).body;
      expect(kept.recipients).toEqual(["OPS@example.com", "muhasebe@ornek.com.tr"]);

      // The clock moved further than it may: the amount and unit stay, the amount's box flagged.
      await d.page.goto(`${d.url}/settings`);
      await d.page.locator('input[name="amount"]').fill("99999");
      await d.page.locator('select[name="unit"]').selectOption("days");
      await submit(words.advance);
      expect(await d.page.locator(".error-summary").count()).toBe(1);
      expect(await d.page.locator('input[name="amount"]').inputValue()).toBe("99999");
      expect(await d.page.locator('select[name="unit"]').inputValue()).toBe("days");
      expect(await d.page.locator('input[name="amount"]').getAttribute("aria-invalid")).toBe("true");
      // A reset sent without its box ticked (the browser's own check bypassed): that box is the one flagged.
      await d.navigate(() => d.page.evaluate(`document.querySelector('input[name="confirm"]').form.submit()`));
      expect(await d.page.locator('input[name="confirm"]').getAttribute("aria-invalid")).toBe("true");
      expect(await d.page.locator(".error-summary").textContent()).toContain(words.reset);
      expect(await d.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")).toBe(0);
    });
});

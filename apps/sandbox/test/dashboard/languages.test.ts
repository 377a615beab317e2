import { describe, expect, it, vi } from "vitest";
import { workspaceTag } from "../../src/index.js";
import { localeHolders } from "../../src/infrastructure/i18n/locale.js";
import { keepScreenshot, useDashboard } from "../support/dashboard-browser.js";
import { eventually } from "../support/eventually.js";
import { KEY } from "../support/harness.js";
import { pdfText } from "../support/pdf-text.js";

const d = useDashboard();

/** What a browser set to Turkish sends. */
const TURKISH_BROWSER = { "accept-language": "tr-TR,tr;q=0.9,en-US;q=0.8,en;q=0.7" };
/** 2.500.000,00 ₺: Turkish grouping and decimal comma, the lira sign after the amount. */
const TURKISH_LIRA = /^\d{1,3}(?:\.\d{3})*,\d{2} ₺$/;
/** 26.11.2026 14:05:07: day first, dotted. */
const TURKISH_TIME = /^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}$/;

async function signInInTurkish() {
  await d.context.setExtraHTTPHeaders(TURKISH_BROWSER);
  await d.page.goto(d.url);
  await d.page.getByRole("heading", { name: "Oturum aç" }).waitFor();
  await d.page.getByLabel(/Çalışma alanının API anahtarı/).fill(KEY);
  await d.page.getByRole("button", { name: "Oturum aç", exact: true }).click();
  await d.page.getByRole("heading", { name: "Hesaplar ve ödemeler" }).waitFor();
}

describe("the dashboard in Turkish and English", () => {
  it("speaks Turkish to a Turkish browser (money, times, statuses, ş ğ ı İ exact) and switches to English and back, remembered", async () => {
    const { id } = await d.create(KEY, { description: "Kira ödemesi — Işık İnşaat" });
    await signInInTurkish();
    expect(await d.page.getAttribute("html", "lang")).toBe("tr");
    const nav = d.page.getByRole("navigation", { name: "Panel" });
    for (const name of ["Ödemeler", "Yeni ödeme", "İstek kaydı", "Giden kutusu", "Zamanlanmış raporlar", "Ayarlar"])
      expect(await nav.getByRole("link", { name, exact: true }).count(), name).toBe(1);
    const balances = await d.page.getByRole("table", { name: "Hesaplar" }).locator("td.money").allTextContents();
    expect(balances.length).toBeGreaterThan(0);
    for (const balance of balances.filter((b) => b.endsWith("₺"))) expect(balance).toMatch(TURKISH_LIRA);
    expect(await d.page.locator("#payment-count").textContent()).toBe("1 ödeme.");
    const row = d.page.getByRole("table", { name: "Ödemeler" }).locator("tbody tr").first();
    expect(await row.locator("time").textContent()).toMatch(TURKISH_TIME);
    expect(await row.locator(".badge").textContent()).toBe("beklemede");
    expect(await row.textContent()).toContain("Kira ödemesi — Işık İnşaat");
    await keepScreenshot(d.page, "tr-overview");

    // A payment's page: the history's cause and the confirmation in Turkish too.
    await d.page.goto(`${d.url}/payments/${id}`);
    await d.page.getByRole("heading", { name: `Ödeme ${id}` }).waitFor();
    expect(await d.page.getByRole("table", { name: "Durum geçmişi" }).textContent()).toContain("API");

    // The header's link switches the language, and the choice outlives a reload and a new page.
    await d.page.getByRole("link", { name: "English" }).click();
    await d.page.getByRole("heading", { name: `Payment ${id}` }).waitFor();
    expect(await d.page.getAttribute("html", "lang")).toBe("en");
    await d.page.goto(d.url);
    await d.page.getByRole("heading", { name: "Accounts and payments" }).waitFor();
    for (const balance of await d.page.getByRole("table", { name: "Accounts" }).locator("td.money").allTextContents())
      expect(balance).toMatch(/^\d{1,3}(?:,\d{3})*\.\d{2} [A-Z]{3}$/);
    await d.page.getByRole("link", { name: "Türkçe" }).click();
    await d.page.getByRole("heading", { name: "Hesaplar ve ödemeler" }).waitFor();
  });

  it("says what is wrong with a form in Turkish, naming its own boxes, and keeps what was typed", async () => {
    await signInInTurkish();
    await d.page.goto(`${d.url}/payments/new`);
    await d.page.getByLabel(/^Tutar/).fill("12,5,0");
    await d.page.getByLabel(/^Açıklama/).fill("Şubat kirası — Ümraniye");
    await d.page.getByRole("button", { name: "Ödemeyi oluştur" }).click();
    const summary = d.page.getByRole("alert").filter({ hasText: "düzeltilmeli" });
    expect(await summary.textContent()).toContain("Tutar: 1.250,50 gibi bir tutar girin");
    expect(await d.page.getByLabel(/^Açıklama/).inputValue()).toBe("Şubat kirası — Ümraniye");
  });

  it("lists every problem of a schedule or API key form at once, in Turkish, each linked to its box, values kept", async () => {
    await signInInTurkish();
    await d.page.goto(`${d.url}/settings/schedules`);
    await d.page.getByLabel(/^Ad/).fill("   ");
    await d.page.getByLabel(/^Saat/).fill("");
    await d.page.getByLabel(/^Alıcılar/).fill("muhasebe@example.com");
    await d.page.getByRole("button", { name: "Oluştur" }).click();
    const summary = d.page.getByRole("alert");
    expect(await summary.getByRole("heading").textContent()).toBe("2 kutu düzeltilmeli");
    expect(await summary.getByRole("link").allTextContents()).toEqual([
      "Ad: bir ad gerekli",
      "Saat: SS:DD biçiminde bir saat (İstanbul)",
    ]);
    // A link of the summary moves to its box, which says what is wrong beside it.
    await summary.getByRole("link", { name: /^Saat/ }).click();
    expect(await d.page.evaluate("location.hash")).toBe("#field-time");
    expect(await d.page.getByLabel(/^Saat/).getAttribute("aria-invalid")).toBe("true");
    expect(await d.page.getByLabel(/^Alıcılar/).inputValue()).toBe("muhasebe@example.com");

    await d.page.goto(`${d.url}/settings/api-keys`);
    await d.page.getByLabel(/^Son geçerlilik tarihi/).fill("2020-01-01");
    await d.page.getByRole("button", { name: "Anahtarı oluştur" }).click();
    expect(await d.page.getByRole("alert").textContent()).toContain("Ad: Zorunlu.");
    await d.page.getByLabel(/^Ad/).fill("Muhasebe İşlemleri");
    await d.page.getByRole("button", { name: "Anahtarı oluştur" }).click();
    expect(await d.page.getByRole("alert").textContent()).toContain("Son geçerlilik tarihi: bugün (");
    expect(await d.page.getByLabel(/^Ad/).inputValue()).toBe("Muhasebe İşlemleri");
  });

  it("writes e-mails and the PDF they carry in the workspace's chosen language, and a page's PDF in the reader's", async () => {
    await d.create(KEY, { reference: "FTR-ŞĞİ-0042" });
    await signInInTurkish();

    // The e-mail language is the workspace's (no browser is there when a report is sent).
    await d.page.goto(`${d.url}/settings/reports`);
    await d.page.getByLabel(/^Rapor alıcıları/).fill("muhasebe@example.com");
    await d.page.getByRole("button", { name: "Alıcıları kaydet" }).click();
    await d.page.getByLabel(/E-postaların ve ekindeki raporların dili/).selectOption("tr");
    await d.page.getByRole("button", { name: "Dili kaydet" }).click();
    expect(await d.page.getByRole("status").textContent()).toContain("artık Türkçe yazılıyor");
    await d.page.getByRole("button", { name: "Deneme e-postası gönder" }).click();
    const outbox = (await d.h.call("GET", "/_sandbox/outbox", { key: KEY })).body.data;
    expect(outbox[0].subject).toBe("payspec sandbox: deneme e-postası — ş ğ ı İ");
    expect(outbox[0].text).toContain("Hesaplar:");
    expect(outbox[0].html).toContain('<html lang="tr">');

    // A scheduled report's e-mail and its PDF, written in the background, in Turkish as chosen.
    await d.h.control("/schedules", { name: "Günlük özet", format: "pdf", every: "day", time: "09:00" });
    await d.h.control("/clock/advance", { seconds: 2 * 86_400 });
    const report = await waitForMail((m) => m.subject.startsWith("Günlük özet"));
    // The period's day as Turkish writes it, never an ISO date inside a Turkish subject.
    expect(report.subject).toMatch(/^Günlük özet: ödemeler \d\d\.\d\d\.\d{4}( – \d\d\.\d\d\.\d{4})?$/);
    expect(report.text).toContain("Bu rapor her gün saat 09:00'da (İstanbul saatiyle) gönderilir.");
    const full = (await d.h.call("GET", `/_sandbox/outbox/${report.id}`, { key: KEY })).body;
    const attached = await pdfText(Buffer.from(full.attachments[0].content_base64, "base64"));
    expect(attached).toContain(`Çalışma alanı ${workspaceTag(KEY)}`);
    expect(attached).toContain("sayfa 1 / 1");

    // The page's own PDF download is in the language the reader reads.
    const pdf = await pdfText(Buffer.from(await (await d.context.request.get(`${d.url}/export.pdf`)).body()));
    expect(pdf).toContain("Ödemeler");
    expect(pdf).toContain("Gönderen hesap");
    expect(pdf).toContain("FTR-ŞĞİ-0042");
    // The payment settled on the way here: its money moved, and nothing is on its way.
    expect(pdf).toMatch(/TRY hareket eden \(tamamlandı, hesaba geçti, mutabakatı yapıldı\): [\d.]+,\d{2} ₺, 1 ödeme/);
    expect(pdf).toContain("TRY işlemde (beklemede, onaylandı, işleniyor): 0,00 ₺, 0 ödeme");
    // Written and closed: no page holds a language any more, so the API's requests run without the
    // storage's promise hooks (Node 20) from now on.
    await vi.waitFor(() => expect(localeHolders()).toBe(0), { timeout: 5_000 });
  });

  it("a language link keeps the browser on the dashboard: an address elsewhere is not followed", async () => {
    await d.page.goto(`${d.url}/language?to=tr&next=${encodeURIComponent("https://evil.example/")}`);
    expect(new URL(d.page.url()).pathname).toBe("/_sandbox/dashboard");
    await d.page.getByRole("heading", { name: "Oturum aç" }).waitFor();
  });
});

interface MailView {
  readonly id: string;
  readonly subject: string;
  readonly text: string;
}

/** The first e-mail of the workspace that `wanted` picks, once the schedules' loop has sent it (bounded). */
async function waitForMail(wanted: (m: MailView) => boolean): Promise<MailView> {
  return eventually(
    async () => ((await d.h.call("GET", "/_sandbox/outbox", { key: KEY })).body.data as MailView[]).find(wanted),
    "The scheduled report's e-mail",
    { withinMs: 15_000, everyMs: 100 },
  );
}

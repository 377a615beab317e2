import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { istanbulDate, istanbulMidnightAfter } from "../../src/index.js";
import { keepScreenshot, useDashboard } from "../support/dashboard-browser.js";
import { KEY } from "../support/harness.js";

const d = useDashboard(30);

describe("the dashboard's back office, in a real browser", () => {
  it("creates an API key shown once, revokes it, and a sign-in with it then says why", async () => {
    await d.signIn();
    await d.page.getByRole("link", { name: "API keys" }).click();
    await d.page.getByLabel("Name").fill("Muhasebe ışığı");
    await d.page.getByRole("button", { name: "Create key" }).click();
    const key = (await d.page.locator("#new-api-key").textContent()) as string;
    expect(key).toMatch(/^sk_sandbox_/);
    expect(await d.page.getByRole("status").textContent()).toContain("will not be shown again");
    await keepScreenshot(d.page, "api-keys");
    // The key was shown on the page the form redirected to: a reload asks for that page again, posts
    // nothing, mints no second key and no longer shows the first.
    expect(new URL(d.page.url()).pathname).toBe("/_sandbox/dashboard/settings/api-keys");
    await d.page.reload();
    expect(await d.page.locator("#new-api-key").count()).toBe(0);
    expect(await d.page.content()).not.toContain(key);
    const named = (await d.h.call("GET", "/_sandbox/api-keys", { key: KEY })).body.data.filter(
      (k: { name: string }) => k.name === "Muhasebe ışığı",
    );
    expect(named).toHaveLength(1);
    // Only the mask afterwards, the Turkish name exact.
    await d.page.getByRole("link", { name: "API keys" }).click();
    const table = (await d.page.getByRole("table", { name: "API keys" }).textContent()) as string;
    expect(table).toContain("Muhasebe ışığı");
    expect(table).toContain(`sk_sandbox_…${key.slice(-4)}`);
    expect(await d.page.content()).not.toContain(key);
    expect((await d.h.call("GET", "/v1/accounts", { key })).status).toBe(200);

    // Revoking cannot be undone: the confirmation names the key; going back keeps it working.
    await d.page.getByRole("button", { name: "Revoke Muhasebe ışığı" }).click();
    await d.page.getByRole("heading", { name: "Revoke this key?" }).waitFor();
    expect(await d.page.locator("#confirm-question").textContent()).toContain("Muhasebe ışığı");
    expect(await d.page.content()).not.toContain(key);
    await d.page.getByRole("link", { name: "No, keep it" }).click();
    expect((await d.h.call("GET", "/v1/accounts", { key })).status).toBe(200);
    await d.page.getByRole("button", { name: "Revoke Muhasebe ışığı" }).click();
    await d.page.getByRole("button", { name: 'Yes, revoke "Muhasebe ışığı"' }).click();
    expect(await d.page.getByRole("status").textContent()).toContain("revoked");
    expect((await d.h.call("GET", "/v1/accounts", { key })).status).toBe(401);

    // Sign-in with the revoked key says why.
    await d.page.getByRole("button", { name: "Sign out" }).click();
    await d.page.getByLabel(/Workspace API key/).fill(key);
    await d.page.getByRole("button", { name: "Sign in", exact: true }).click();
    expect(await d.page.getByRole("alert").textContent()).toContain("was revoked on");
  });

  it("turns automatic settlement off and on from the Settings page", async () => {
    const made = await d.create(KEY);
    await d.signIn();
    await d.page.getByRole("link", { name: "Settings", exact: true }).click();
    await d.page.getByRole("button", { name: "Turn automatic settlement off" }).click();
    expect(await d.page.locator("#auto-settlement").textContent()).toBe("off");
    await d.page.getByLabel("Amount").fill("2");
    await d.page.getByLabel("Unit").selectOption("days");
    await d.page.getByRole("button", { name: "Advance the clock" }).click();
    await d.page.getByRole("status").waitFor();
    expect((await d.h.call("GET", `/v1/payments/${made.id}`, { key: KEY })).body.status).toBe("completed");
    await d.page.getByRole("button", { name: "Turn automatic settlement on" }).click();
    expect(await d.page.locator("#auto-settlement").textContent()).toBe("on");
    expect((await d.h.call("GET", `/v1/payments/${made.id}`, { key: KEY })).body.status).toBe("settled");
  });

  it("imports a statement file and shows the outcome of each line, with the report as CSV", async () => {
    const made = await d.create(KEY, { reference: "FTR-ŞĞİ-0042", amount: 4_990 });
    await d.h.control("/clock/advance", { seconds: 31 });
    const now = Date.parse((await d.h.control("/clock/advance", { seconds: 1 })).body.now);
    const cutoff = istanbulMidnightAfter(now);
    await d.h.control("/clock/advance", { seconds: (cutoff - now) / 1000 + 60 });
    const valueDate = istanbulDate(cutoff);
    // The internet branch's export as the bank writes it: semicolons, decimal commas, Windows-1254.
    const file = join(tmpdir(), `statement-${process.pid}.csv`);
    const dmy = valueDate.split("-").reverse().join(".");
    writeFileSync(
      file,
      iconv.encode(
        `Tarih;Açıklama;Tutar;Bakiye\r\n${dmy};KİRA ÖDEMESİ FTR-ŞĞİ-0042;-49,90;100,00\r\n${dmy};YOK-1 İADE;-1,00;99,00\r\n`,
        "windows-1254",
      ),
    );

    await d.signIn();
    await d.page.getByRole("link", { name: "Reconciliation" }).click();
    await d.page.getByLabel("Statement file").setInputFiles(file);
    await d.page.getByRole("button", { name: "Reconcile" }).click();
    expect(await d.page.getByRole("status").textContent()).toContain("1 matched");
    const rows = d.page.getByRole("table", { name: "Statement lines" }).locator("tbody tr");
    const lines: string[] = [];
    for (const row of await rows.all()) lines.push((await row.locator("td").allTextContents()).join("|"));
    // The statement's own amount, date and description beside the payment's, Turkish letters exact.
    expect(lines.map((line) => line.replace(/\s+/g, " "))).toEqual([
      `2|matched|${valueDate}|49.90 TRY|KİRA ÖDEMESİ FTR-ŞĞİ-0042|${made.id}|49.90 TRY`,
      `3|no payment|${valueDate}|1.00 TRY|YOK-1 İADE||`,
    ]);
    // An exception reads apart from a match: a red badge beside a green one.
    expect(await rows.nth(0).locator(".badge").getAttribute("class")).toContain("tone-good");
    expect(await rows.nth(1).locator(".badge").getAttribute("class")).toContain("tone-bad");
    // Filtered by outcome.
    await d.page.getByLabel("Outcome").selectOption("no_payment");
    await d.navigate(() => d.page.getByRole("button", { name: "Show" }).click());
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain("YOK-1");
    await keepScreenshot(d.page, "reconciliation");
    expect((await d.h.call("GET", `/v1/payments/${made.id}`, { key: KEY })).body.status).toBe("reconciled");

    const download = d.page.waitForEvent("download");
    await d.page.getByRole("link", { name: "Report (CSV)" }).first().click();
    const report = await (await download).createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of report) chunks.push(chunk as Buffer);
    const csv = Buffer.concat(chunks).toString("utf8");
    expect(csv).toContain(`2,matched,,4990,TRY,${valueDate},${made.id},settled`);
    expect(csv).toContain("debit,KİRA ÖDEMESİ FTR-ŞĞİ-0042");

    // The import landed on the run's own page: a reload shows the run again and imports nothing.
    await d.page.goto(d.page.url().split("?")[0] as string);
    expect(await d.page.getByRole("table", { name: "Statement lines" }).locator("tbody tr").count()).toBe(2);
    expect((await d.h.call("GET", "/_sandbox/reconciliations", { key: KEY })).body.data).toHaveLength(1);

    // A bad file changes nothing and names the line.
    await d.page.getByRole("link", { name: "All runs" }).click();
    await d.page.getByLabel(/Or its text/).fill("reference,amount_minor,currency,value_date\nX,-5,TRY,2026-01-01\n");
    await d.page.getByRole("button", { name: "Reconcile" }).click();
    expect(await d.page.getByRole("alert").textContent()).toContain("Line 2 (amount_minor, column 2)");
    // Beside the box it came from, which names it as its description.
    expect(await d.page.getByRole("textbox", { name: /Or its text/ }).getAttribute("aria-invalid")).toBe("true");
    expect(await d.page.locator("#statement-error").textContent()).toContain("Line 2 (amount_minor, column 2)");
  });

  it("adds a bank's CSV layout from the Reconciliation page, and removes it after asking", async () => {
    await d.signIn();
    await d.page.getByRole("link", { name: "Reconciliation" }).click();
    const form = d.page.getByRole("form", { name: "Add a CSV layout" });
    await form.getByLabel("Name").fill("Örnek Bankası");
    await form.getByLabel("Date column").fill("Valör");
    await form.getByLabel("Date format").selectOption("dd/MM/yyyy");
    await form.getByLabel(/^Debit column/).fill("Çıkan");
    await form.getByLabel(/^Credit column/).fill("Giren");
    await form.getByLabel(/Description columns/).fill("İşlem Açıklaması");
    await form.getByRole("button", { name: "Add the layout" }).click();
    expect(await d.page.getByRole("status").textContent()).toContain('Layout "Örnek Bankası" added.');
    const layouts = d.page.getByRole("table", { name: "CSV layouts" });
    expect(await layouts.textContent()).toContain("Çıkan / Giren");
    const saved = (await d.h.call("GET", "/_sandbox/settings/statement-mappings", { key: KEY })).body.mappings;
    expect(saved).toEqual([expect.objectContaining({ name: "Örnek Bankası", date: "Valör", debit: "Çıkan" })]);
    // A layout that cannot work is refused, saying why.
    await form.getByLabel("Name").fill("Eksik");
    await form.getByLabel("Date column").fill("Tarih");
    await form.getByRole("button", { name: "Add the layout" }).click();
    expect(await d.page.getByRole("alert").textContent()).toContain("either amount");
    await d.page.getByRole("button", { name: "Remove Örnek Bankası" }).click();
    await d.page.getByRole("button", { name: 'Yes, remove "Örnek Bankası"' }).click();
    expect((await d.h.call("GET", "/_sandbox/settings/statement-mappings", { key: KEY })).body.mappings).toEqual([]);
  });
});

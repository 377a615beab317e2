import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { paymentCsvColumns } from "@payspec/payments-zod";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { DEMO_GATEWAY_KEY, DEMO_GATEWAY_SECRET, istanbulDate, workspaceTag } from "../../src/index.js";
import { istanbulDateTime } from "../../src/infrastructure/time/istanbul-time.js";
import { keepScreenshot, useDashboard } from "../support/dashboard-browser.js";
import { cardPayment, KEY } from "../support/harness.js";
import { pdfRuns, pdfText } from "../support/pdf-text.js";

const d = useDashboard();
const run = promisify(execFile);

/** The file a link downloads, and the name the browser would save it under. */
async function downloaded(linkName: string) {
  const [file] = await Promise.all([
    d.page.waitForEvent("download"),
    d.page.getByRole("link", { name: linkName, exact: true }).click(),
  ]);
  return { bytes: await readFile((await file.path()) as string), name: file.suggestedFilename() };
}

async function download(linkName: string) {
  return (await downloaded(linkName)).bytes;
}

describe("the dashboard's exports, request log and gateway view, in a real browser", () => {
  it("filters by method and account, and exports the filter as CSV (matching the API) and PDF", async () => {
    const accounts = await d.h.accounts();
    const [tryA, tryB] = accounts.filter((a) => a.currency === "TRY").map((a) => a.id) as [string, string];
    for (let i = 0; i < 30; i++) {
      await d.create(KEY, {
        method: i % 3 === 0 ? "card" : "eft",
        description: i === 0 ? 'Comma, "quote"\nnew line' : `n${i}`,
        ...(i % 5 === 0 ? { from_account: tryB, to_account: tryA } : {}),
      });
    }
    await d.signIn();
    await d.page.locator('select[name="method"]').selectOption("card");
    await d.page.getByRole("button", { name: "Filter" }).click();
    expect(await d.page.locator("#payment-count").textContent()).toBe("10 payments.");
    await d.page.locator('select[name="account"]').selectOption(tryB);
    await d.page.getByRole("button", { name: "Filter" }).click();
    // Card payments that touch tryB: all ten (every payment is between tryA and tryB).
    expect(await d.page.locator("#payment-count").textContent()).toBe("10 payments.");
    await d.page.goto(`${d.url}?method=eft`);
    const rows = d.page.getByRole("table", { name: "Payments" }).locator("tbody tr");
    expect(await rows.count()).toBe(20);

    const csv = (await download("CSV")).toString("utf8");
    // A byte order mark first, so Excel on Windows reads the Turkish letters as UTF-8.
    expect(csv.startsWith("\uFEFF")).toBe(true);
    const records = parse(csv, { columns: true, bom: true }) as Record<string, string>[];
    expect(csv.slice(1).split("\n")[0]).toBe(paymentCsvColumns.join(","));
    const api = (await d.h.call("GET", "/v1/payments?limit=100", { key: KEY })).body.data.filter(
      (p: { method: string }) => p.method === "eft",
    );
    expect(records).toHaveLength(20);
    expect(records.map((r) => [r.id, Number(r.amount), r.status, r.description])).toEqual(
      api.map((p: Record<string, unknown>) => [p.id, p.amount, p.status, p.description ?? ""]),
    );

    // Each file is named for the workspace, the filters and the day, Turkish search text included.
    const now = (await d.h.control("/clock/advance", { seconds: 0.001 })).body.now as string;
    const day = istanbulDate(Date.parse(now));
    const tag = workspaceTag(KEY);
    expect((await downloaded("CSV")).name).toBe(`payments-${tag}-method-eft-${day}.csv`);
    await d.page.goto(`${d.url}?method=card&q=${encodeURIComponent("Şubat ödemesi")}`);
    expect((await downloaded("PDF")).name).toBe(`payments-${tag}-method-card-search-Şubat_ödemesi-${day}.pdf`);

    await d.page.goto(`${d.url}?method=card`);
    const pdf = await download("PDF");
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdf.subarray(-6).toString()).toContain("%%EOF");
    // Every payment can be identified from the PDF: ids, accounts and times whole, never cut with "…";
    // the title names the filters given, and no "undefined" for those that were not.
    const shown = await pdfText(pdf);
    expect(shown).toContain("Payments (method card)");
    expect(shown).not.toContain("undefined");
    const cards = (await d.h.call("GET", "/v1/payments?limit=100", { key: KEY })).body.data.filter(
      (p: { method: string }) => p.method === "card",
    );
    expect(cards).toHaveLength(10);
    // Each payment by its id, its accounts by their names, its method in words: no bare account id.
    const nameOf = (id: string) => accounts.find((a) => a.id === id)?.name;
    for (const p of cards as Record<string, string>[]) {
      expect(shown).toContain(p.id);
      for (const field of ["from_account", "to_account"]) {
        // A long name wraps within its column, so it is found word by word.
        for (const word of nameOf(p[field] as string)?.split(" ") ?? ["(no such account)"])
          expect(shown).toContain(word);
        expect(shown).not.toContain(p[field]);
      }
    }
    expect(shown).toContain("Created");
    expect(shown).not.toMatch(/created_at|from_account|to_account/);
    // Times in Istanbul time, as the page's language writes them (English here).
    for (const p of cards as Record<string, string>[])
      expect(shown).toContain(istanbulDateTime(Date.parse(p.created_at as string)));
    expect(pdf.toString("latin1").match(/\/Type \/Page\b/g)).toHaveLength(1);
    // For people: whose and when, the page's number, and the totals per currency by outcome (10 card
    // payments of 123.45 TRY each, none of them moved yet).
    expect(shown).toContain(`Workspace ${workspaceTag(KEY)} · generated`);
    expect(shown).toContain("page 1");
    expect(shown).toContain("TRY moved (completed, settled, reconciled): 0.00 TRY, 0 payments");
    expect(shown).toContain("TRY in progress (pending, approved, processing): 1,234.50 TRY, 10 payments");
    expect(shown).toContain("TRY not moved (failed, cancelled): 0.00 TRY, 0 payments");
  });

  it("exports text a spreadsheet would run as a formula as text (OWASP), Turkish letters exact", async () => {
    await d.create(KEY, { description: '=HYPERLINK("http://x")', reference: "FTR-ŞĞİ-0042 ı ş ğ" });
    await d.signIn();
    const csv = (await (await d.context.request.get(`${d.url}/export.csv`)).body()).toString("utf8");
    const record = (parse(csv, { columns: true, bom: true }) as Record<string, string>[]).find(
      (r) => r.reference === "FTR-ŞĞİ-0042 ı ş ğ",
    );
    expect(record?.description).toBe('\'=HYPERLINK("http://x")');
  });

  it("prints Turkish text in the PDF as stored, long references wrapped and never cut, settled_at in each row", async () => {
    const short = { reference: "FTR-ŞĞİ-0042 ı ş ğ", description: "Kasım faturası, İzmir şubesi" };
    const long = {
      reference: `ŞĞİ-${"ışğüöçİŞĞÜÖÇ".repeat(8)}-SON`,
      description: `Uzun açıklama: ${"Ağustos ödemesi ışığında. ".repeat(7)}`.trim(),
    };
    const a = await d.create(KEY, short);
    const b = await d.create(KEY, { ...long, description: `${long.description} 🙂` });
    // 31 s completes both; the next 00:00 Istanbul settles them (at most a day and a minute ahead).
    await d.h.control("/clock/advance", { seconds: 86_460 });
    const settled = (await d.h.call("GET", `/v1/payments/${a.id}`, { key: KEY })).body;
    expect(settled.status).toBe("settled");
    await d.signIn();
    const { runs } = await pdfRuns(await (await d.context.request.get(`${d.url}/export.pdf`)).body());
    // pdf.js reads back exactly the stored text: one run per line of a cell.
    expect(runs).toContain(short.reference);
    expect(runs).toContain(short.description);
    expect(runs).toContain(istanbulDateTime(Date.parse(settled.settled_at)));
    // The long ones wrap over several lines of their column, in order, with nothing left out: the
    // reference within its one long word, the description at its spaces. The emoji, which the font
    // has no glyph for, reads back as U+FFFD.
    expect(runs.join("")).toContain(long.reference);
    expect(runs.join(" ")).toContain(`${long.description} \uFFFD`);
    expect(runs).not.toContain(long.reference);
    expect(runs.some((run) => run.includes("…"))).toBe(false);
    expect(runs).toContain(b.id);
  });

  it("exports a listing bigger than one export page as PDF over several pages", async () => {
    const accounts = await d.h.accounts();
    const [from, to] = accounts.filter((a) => a.currency === "TRY").map((a) => a.id);
    const entry = { amount: 1, currency: "TRY", method: "eft", from_account: from, to_account: to };
    for (let i = 0; i < 3; i++) {
      const batch = await d.h.call("POST", "/v1/payments/batch", {
        key: KEY,
        json: { payments: Array.from({ length: 500 }, () => entry) },
      });
      expect(batch.body.created).toBe(500);
    }
    // Not signed in: the dashboard sends the browser to sign in, and exports nothing.
    const answer = await d.context.request.get(`${d.url}/export.pdf`, { maxRedirects: 0 });
    expect([answer.status(), answer.headers().location]).toEqual([
      303,
      `/_sandbox/dashboard?next=${encodeURIComponent("/_sandbox/dashboard/export.pdf")}`,
    ]);
    await d.signIn();
    const pdf = await (await d.context.request.get(`${d.url}/export.pdf`)).body();
    // 1,500 rows at about 52 a page.
    const { pages, runs } = await pdfRuns(pdf);
    expect(pages).toBeGreaterThanOrEqual(28);
    expect(pages).toBeLessThanOrEqual(31);
    // Each page's foot says which page of how many, the count written once after the last page.
    expect(runs.filter((run) => /^page \d+ of \d+$/.test(run))).toEqual(
      Array.from({ length: pages }, (_, i) => `page ${i + 1} of ${pages}`),
    );
    const csv = (await (await d.context.request.get(`${d.url}/export.csv`)).body()).toString("utf8");
    expect(csv.trimEnd().split("\n")).toHaveLength(1_501);
  });

  it("shows a curl request in the live request log with its spec verdict, card numbers masked", async () => {
    await d.signIn();
    await d.page.getByRole("link", { name: "Request log" }).click();
    await d.page.getByText("No API requests for this workspace yet").waitFor();
    const accounts = await d.h.accounts();
    const [from, to] = accounts.filter((a) => a.currency === "TRY").map((a) => a.id);
    await run("curl", [
      "-sS",
      "--noproxy",
      "*",
      "--max-time",
      "10",
      "-X",
      "POST",
      `${d.h.url}/v1/payments`,
      "-H",
      `Authorization: Bearer ${KEY}`,
      "-H",
      "Content-Type: application/json",
      "--data",
      JSON.stringify({
        amount: 990,
        currency: "TRY",
        method: "card",
        from_account: from,
        to_account: to,
        description: "Kasım faturası FTR-ŞĞİ-0042",
      }),
    ]);
    // The page refreshes itself: the curl request appears without a reload.
    const row = d.page.getByRole("table", { name: "Request log" }).locator("tbody tr", { hasText: "/v1/payments" });
    await row.first().waitFor({ timeout: 10_000 });
    const cells = await row.first().locator("td").allTextContents();
    expect(cells.slice(1)).toEqual(["POST", "/v1/payments", "201", expect.stringMatching(/ms$/), "conforms"]);
    await keepScreenshot(d.page, "request-log");
    await row.first().getByRole("link").click();
    const detail = await d.page.locator("main").textContent();
    expect(detail).toContain("Kasım faturası FTR-ŞĞİ-0042");
    expect(detail).toContain('"amount":990');

    // A card number in free text is refused (400, conforming to the spec), and masked in the log.
    const refused = await d.h.call("POST", "/v1/payments", {
      key: KEY,
      json: {
        amount: 990,
        currency: "TRY",
        method: "card",
        from_account: from,
        to_account: to,
        description: "card 4543590000000006 cvc 123",
      },
    });
    expect(refused.status).toBe(400);
    await d.page.goto(`${d.url}/requests`);
    const refusedRow = d.page.getByRole("table", { name: "Request log" }).locator("tbody tr", { hasText: "400" });
    expect((await refusedRow.first().locator("td").allTextContents()).at(-1)).toBe("conforms");
    await refusedRow.first().getByRole("link").click();
    const refusedDetail = await d.page.locator("main").textContent();
    expect(refusedDetail).toContain("454359******0006");
    expect(refusedDetail).not.toContain("4543590000000006");

    // An exchange the spec does not cover gets a verdict that says so (HEAD is served, but not specified).
    await d.h.call("HEAD", "/v1/accounts", { key: KEY });
    await d.page.goto(`${d.url}/requests`);
    const head = d.page.getByRole("table", { name: "Request log" }).locator("tbody tr", { hasText: "HEAD" });
    expect(await head.locator("td").last().textContent()).toBe("1 violation");
    await head.getByRole("link").click();
    expect(await d.page.locator("main li").textContent()).toContain("not an operation of the spec");
  });

  it("shows the gateway's card payments masked, and downloads the daily report", async () => {
    const token = await d.h.login();
    const paid = await d.h.call("POST", "/api/v1/payments/card", { token, json: cardPayment({ amount: 1250.5 }) });
    expect(paid.status).toBe(200);
    const declined = await d.h.call("POST", "/api/v1/payments/card", {
      token,
      json: cardPayment({ amount: 75 }, { cardNumber: "4157920000000002", cardHolderName: "Şükrü Işıkgöz" }),
    });
    expect(declined.body.response.paymentStatus).toBe("FAILURE");
    // A workspace's session sees none of the gateway's data: it is sent back to its own overview.
    await d.signIn();
    expect(await d.page.getByRole("link", { name: "Gateway" }).count()).toBe(0);
    await d.page.goto(`${d.url}/gateway`);
    await d.page.getByRole("heading", { name: "Accounts and payments" }).waitFor();
    await d.page.getByRole("button", { name: "Sign out" }).click();
    // The gateway's own credentials (those of its Basic login) sign in to the gateway's view.
    await d.page.getByLabel("Gateway API key").fill(DEMO_GATEWAY_KEY);
    await d.page.getByLabel("Gateway secret").fill(DEMO_GATEWAY_SECRET);
    await d.page.getByRole("button", { name: "Sign in to the gateway" }).click();
    await d.page.getByRole("heading", { name: "Gateway card payments" }).waitFor();
    const table = d.page.getByRole("table", { name: "Card payments" });
    expect(await table.locator("tbody tr").count()).toBe(2);
    // Money as every other page shows it; the holder and the bank beside the masked card.
    expect(await table.locator("tbody td.money").allTextContents()).toEqual(
      expect.arrayContaining(["1,250.50 TRY", "75.00 TRY"]),
    );
    expect(await table.textContent()).toContain("Şükrü Işıkgöz");
    // The gateway's outcomes in words, with the colour of their kind: a decline looks like a failure.
    const declinedBadge = table.locator("tbody tr", { hasText: "Şükrü Işıkgöz" }).locator(".badge");
    expect(await declinedBadge.textContent()).toBe("declined");
    const background = await declinedBadge.evaluate((el: { computedStyleMap(): Map<string, unknown> }) =>
      String(el.computedStyleMap().get("background-color")),
    );
    // The failed payments' red (#fde7e9).
    expect(background).toBe("rgb(253, 231, 233)");
    // The page says what the .xlsx holds: the successful payments only.
    expect(await d.page.locator("main").textContent()).toContain("2 card payments");
    expect(await d.page.locator("main").textContent()).toContain("1 successful one");
    expect(await d.page.locator("main").textContent()).toContain("lists the successful payments only");
    const text = await d.page.content();
    expect(text).toContain("552879******0008");
    expect(text).not.toContain("5528790000000008");
    expect(text).not.toContain('"123"');
    await keepScreenshot(d.page, "gateway");
    const report = await download("Download the daily report (.xlsx)");
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(report as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet?.rowCount).toBe(2);
    expect(JSON.stringify(sheet?.getRow(2).values)).not.toContain("5528790000000008");

    // Each card payment has a page of its own: the declined one says why, in words, masked.
    await table.locator("tbody tr", { hasText: "Şükrü Işıkgöz" }).getByRole("link").click();
    await d.page.getByRole("heading", { name: /^Card payment ORD-/ }).waitFor();
    expect(await d.page.locator("#card-outcome").textContent()).toContain("Declined by");
    const detail = (await d.page.getByRole("table", { name: "Card payment" }).textContent()) as string;
    expect(detail).toContain("415792******0002");
    expect(detail).toContain("Şükrü Işıkgöz");
    // The transaction's type in words, its code beside.
    expect(detail).toContain("sale (AUTH)");
    expect(await d.page.content()).not.toContain("4157920000000002");
  });
});

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { istanbulDate, istanbulMidnightAfter } from "../src/index.js";
import { expectBooksBalanced } from "./support/books.js";
import { DashboardHttp } from "./support/dashboard-http.js";
import { type Harness, harness, KEY } from "./support/harness.js";

/**
 * What an attacker and an operations user found in the dashboard (issue: hardening, third round), over
 * real HTTP as a browser sends it, on memory and PostgreSQL: form values that answered 500, input the
 * form rewrote, a sign-in that could leave the dashboard, a forced status that rewrote history, and
 * actions a reload repeated.
 */
let h: Harness;
let from: string;
let to: string;
let browser: DashboardHttp;

beforeAll(async () => {
  h = await harness({ completeAfterSeconds: 30 });
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.control("/reset");
  [from, to] = (await h.accounts()).filter((a) => a.currency === "TRY").map((a) => a.id) as [string, string];
  browser = new DashboardHttp(h.url);
  await browser.signIn(KEY);
});
afterEach(() => {
  expect(h.problems.splice(0)).toEqual([]);
});

const total = async () => (await h.call("GET", "/v1/payments?limit=1", { key: KEY })).body.pagination.total as number;
const newPayment = async (fields: Record<string, string>) =>
  browser.post("/payments", {
    _csrf: await browser.token("/payments/new"),
    amount: "12.50",
    currency: "TRY",
    method: "eft",
    from_account: from,
    to_account: to,
    ...fields,
  });

describe("the new payment form", () => {
  it("answers 400 beside Currency to any currency that is not three capital letters, never 500, never quoting it", async () => {
    for (const currency of ["usd", "' OR '1'='1", "<script>alert(1)</script>", "a\u0000b", "TRYY", ""]) {
      for (const amount of ["12.50", "abc"]) {
        const answer = await newPayment({ currency, amount });
        expect(answer.status, `${JSON.stringify(currency)} ${amount}`).toBe(400);
        expect(answer.text).toContain('id="currency-error"');
        if (currency.length > 3) expect(answer.text).not.toContain(currency.replaceAll("<", "&lt;"));
      }
    }
    expect(await total()).toBe(0);
  });

  it("takes an amount typed as people write money in the form's language: 1.500,75 in Turkish, 1,500.75 in English", async () => {
    const typed: [lang: string, amount: string, minor: number][] = [
      ["tr", "1.500,75", 150_075],
      ["tr", "100,50", 10_050],
      ["tr", "1 500", 150_000],
      ["tr", "1.500", 150_000],
      ["tr", "1250.50", 125_050],
      ["en", "1,500.75", 150_075],
      ["en", "1,500", 150_000],
      ["en", "12.50", 1_250],
    ];
    for (const [lang, amount] of typed) {
      browser.cookies.set("payspec_dashboard_lang", lang);
      const answer = await newPayment({ amount });
      expect(answer.status, `${lang} ${amount}`).toBe(303);
    }
    const made = (await h.call("GET", "/v1/payments?limit=20", { key: KEY })).body.data as { amount: number }[];
    expect(made.map((p) => p.amount)).toEqual(typed.map(([, , minor]) => minor));
    // What can be read two ways, or not at all, is refused beside Amount with the language's own example.
    browser.cookies.set("payspec_dashboard_lang", "tr");
    for (const amount of ["12,5,0", "1.500,755", "1,500.75"]) {
      const answer = await newPayment({ amount });
      expect(answer.status, amount).toBe(400);
      expect(answer.text).toContain("1.250,50 gibi bir tutar girin");
    }
    expect(await total()).toBe(typed.length);
  });

  it("takes back every way the page writes an amount, refuses one that reads two ways with both readings, and a sign of another currency", async () => {
    const errorOf = (page: string) => /id="amount-error"[^>]*>([^<]*)</.exec(page)?.[1]?.trim();
    // As the pages print amounts (`money`), and as people copy them from statements and banks.
    const written: [lang: string, amount: string][] = [
      ["tr", "1.500,75 ₺"],
      ["tr", "₺1.500,75"],
      ["tr", "₺ 1.500,75"],
      ["tr", "1.500,75 TL"],
      ["tr", "1.500,75TL"],
      ["tr", "TRY 1.500,75"],
      ["en", "1,500.75 TRY"],
      ["en", "TRY 1,500.75"],
      ["en", "1,500.75\u00a0TRY"],
    ];
    for (const [lang, amount] of written) {
      browser.cookies.set("payspec_dashboard_lang", lang);
      expect((await newPayment({ amount })).status, `${lang} ${amount}`).toBe(303);
    }
    const made = (await h.call("GET", "/v1/payments?limit=20", { key: KEY })).body.data as { amount: number }[];
    expect(made.map((p) => p.amount)).toEqual(written.map(() => 150_075));

    // `1,500` on a Turkish page and `1.500` on an English one: both readings shown, neither taken.
    browser.cookies.set("payspec_dashboard_lang", "tr");
    for (const amount of ["1,500", "1,500 ₺"]) {
      const answer = await newPayment({ amount });
      expect(answer.status, amount).toBe(400);
      expect(errorOf(answer.text)).toBe(
        "Bu tutar iki türlü okunabilir: 1,50 ₺ ya da 1.500,00 ₺. Hangisi olduğunu 1,50 ya da 1.500,00 yazarak belirtin.",
      );
      expect(answer.text).toMatch(/name="amount"[^>]*value="1,500/);
    }
    // A reading the currency cannot hold is still shown as typed: 1,234 ₺ has three decimals.
    expect(errorOf((await newPayment({ amount: "1,234" })).text)).toContain("1,234 ₺ ya da 1.234,00 ₺");
    browser.cookies.set("payspec_dashboard_lang", "en");
    expect(errorOf((await newPayment({ amount: "1.500" })).text)).toBe(
      "This amount reads two ways: 1.50 TRY or 1,500.00 TRY. Type 1.50 or 1,500.00 to say which.",
    );
    // What each reading is typed as is then taken one way.
    expect((await newPayment({ amount: "1,500.00" })).status).toBe(303);
    // A dollar sign on a TRY payment is a question, not a conversion; an empty box asks for an amount.
    expect(errorOf((await newPayment({ amount: "$1,500.75" })).text)).toBe(
      "The amount is written in USD and the payment is in TRY: remove the sign, or choose USD as the currency.",
    );
    expect(errorOf((await newPayment({ amount: " " })).text)).toBe("Enter an amount.");
    browser.cookies.set("payspec_dashboard_lang", "tr");
    expect(errorOf((await newPayment({ amount: "" })).text)).toBe("Tutar girin.");
    expect(await total()).toBe(written.length + 1);
  });

  it("says each problem in words beside its own box, and only the boxes that are wrong", async () => {
    browser.cookies.set("payspec_dashboard_lang", "en");
    const errorOf = (page: string, field: string) =>
      new RegExp(`id="${field}-error"[^>]*>([^<]*)<`).exec(page)?.[1]?.trim();
    // A currency that is no currency: its problem in words; the amount, which reads well, has none.
    const bad = await newPayment({ currency: "TRYY", amount: "100" });
    expect(bad.status).toBe(400);
    expect(errorOf(bad.text, "currency")).toBe("Choose a currency: three capital letters, such as TRY.");
    expect(errorOf(bad.text, "amount")).toBeUndefined();
    expect(errorOf(bad.text, "from_account")).toBeUndefined();
    expect(bad.text).not.toContain("must match pattern");
    // ` usd ` reads one way only: it is USD, and the From account (in TRY) is flagged beside the currency.
    const lower = await newPayment({ currency: " usd ", amount: "100" });
    expect(lower.status).toBe(400);
    expect(errorOf(lower.text, "currency")).toContain("holds TRY: choose TRY, or a From account in USD");
    expect(errorOf(lower.text, "from_account")).toContain("holds TRY, not USD");
    expect(errorOf(lower.text, "amount")).toBeUndefined();
    // Zero: the bound in money, not in minor units.
    const zero = await newPayment({ amount: "0" });
    expect(errorOf(zero.text, "amount")).toBe("Enter an amount of at least 0.01 TRY.");
    // From in USD, To in EUR, currency TRY: both the currency and the To account are wrong.
    const accounts = await h.accounts();
    const usd = accounts.find((a) => a.currency === "USD")?.id as string;
    const eur = accounts.find((a) => a.currency === "EUR")?.id as string;
    const mixed = await newPayment({ from_account: usd, to_account: eur, currency: "TRY" });
    expect(errorOf(mixed.text, "currency")).toContain("holds USD");
    expect(errorOf(mixed.text, "to_account")).toContain("choose two accounts of one currency");
    expect(await total()).toBe(0);
  });

  it("refuses a card number in Description or Reference beside the field, leaves it empty, and never rewrites it", async () => {
    for (const field of ["reference", "description"]) {
      for (const amount of ["abc", "12.50"]) {
        const answer = await newPayment({ amount, [field]: "4111 1111 1111 1111" });
        expect(answer.status, `${field} ${amount}`).toBe(400);
        expect(answer.text).toContain(`id="${field}-error"`);
        expect(answer.text).toContain("looks like a card number");
        // Every problem at once: the amount's error stays beside the card number's.
        if (amount === "abc") expect(answer.text).toContain('id="amount-error"');
        expect(answer.text).toMatch(new RegExp(`name="${field}" value=""`));
        expect(answer.text).not.toMatch(/4111|411111\*+1111/);
      }
    }
    expect(await total()).toBe(0);
  });
});

describe("sign-in's next", () => {
  const signInWith = async (next: string) => {
    const fresh = new DashboardHttp(h.url);
    const form = await fresh.get(`?next=${encodeURIComponent(next)}`);
    const token = /name="_csrf" value="([^"]+)"/.exec(form.text)?.[1] as string;
    const answer = await fresh.post("/sign-in", { _csrf: token, apiKey: KEY, next });
    return { form: form.text, location: answer.location, status: answer.status };
  };

  it("stays under the dashboard once normalised as a browser would, or goes to the overview", async () => {
    for (const next of [
      "/_sandbox/dashboard/../../evil",
      "/_sandbox/dashboard/%2e%2e/%2e%2e/evil",
      "/_sandbox/dashboard/%2E%2E/x",
      "/_sandbox/dashboardx/requests",
      "//evil.example/_sandbox/dashboard/",
      "https://evil.example/_sandbox/dashboard/x",
    ]) {
      const { form, location, status } = await signInWith(next);
      expect(status, next).toBe(303);
      const resolved = new URL(location as string, "http://sandbox.test");
      expect(resolved.origin, next).toBe("http://sandbox.test");
      expect(
        resolved.pathname === "/_sandbox/dashboard" || resolved.pathname.startsWith("/_sandbox/dashboard/"),
        next,
      ).toBe(true);
      expect(form, next).not.toContain("evil");
    }
    const normalised = await signInWith("/_sandbox/dashboard/payments/../requests?x=1");
    expect(normalised.location).toBe("/_sandbox/dashboard/requests?x=1");
  });

  it("signs in when the form's address carries a query (the token check reads the path only)", async () => {
    const fresh = new DashboardHttp(h.url);
    const answer = await fresh.post("/sign-in?next=/_sandbox/dashboard/requests", {
      _csrf: await fresh.token(),
      apiKey: KEY,
    });
    expect(answer.status).toBe(303);
  });
});

describe("a forced status", () => {
  async function reconciledPayment(): Promise<string> {
    const made = await h.call("POST", "/v1/payments", {
      key: KEY,
      json: { amount: 1_000, currency: "TRY", method: "eft", from_account: from, to_account: to, reference: "FORCE-1" },
    });
    await h.control("/clock/advance", { seconds: 31 });
    const now = Date.parse((await h.control("/clock/advance", { seconds: 0.001 })).body.now);
    const cutoff = istanbulMidnightAfter(now);
    await h.control("/clock/advance", { seconds: (cutoff - now) / 1000 + 60 });
    const run = await h.call("POST", "/_sandbox/reconciliations", {
      raw: `reference,amount_minor,currency,value_date\nFORCE-1,1000,TRY,${istanbulDate(cutoff)}\n`,
      headers: { authorization: `Bearer ${KEY}`, "content-type": "text/csv" },
    });
    expect(run.body.counts.matched).toBe(1);
    return made.body.id as string;
  }

  it("cannot move a reconciled payment: 409 saying why, through the control API and the dashboard", async () => {
    const id = await reconciledPayment();
    const refused = await h.control(`/payments/${id}/status`, { status: "pending" });
    expect([refused.status, refused.body.param]).toEqual([409, "status"]);
    expect(refused.body.message).toContain("is reconciled");
    const page = await browser.get(`/payments/${id}`);
    // Force status starts on the current status, not on the first of the list.
    expect(page.text).toMatch(/<option value="reconciled" selected>/);
    const posted = await browser.post(`/payments/${id}/status`, {
      _csrf: await browser.token(`/payments/${id}`),
      status: "pending",
      confirm: "yes",
    });
    expect([posted.status, posted.location]).toEqual([303, `/_sandbox/dashboard/payments/${id}`]);
    const shown = await browser.get(`/payments/${id}`);
    expect(shown.text).toContain("is reconciled");
    const payment = (await h.call("GET", `/v1/payments/${id}`, { key: KEY })).body;
    expect(payment.status).toBe("reconciled");
    await expectBooksBalanced(h);
  });

  it("moves a settled payment back with a history in time order, completing again no earlier than the move", async () => {
    const made = await h.call("POST", "/v1/payments", {
      key: KEY,
      json: { amount: 1_000, currency: "TRY", method: "eft", from_account: from, to_account: to },
    });
    const id = made.body.id as string;
    await h.control("/clock/advance", { seconds: 2 * 86_400 });
    expect((await h.call("GET", `/v1/payments/${id}`, { key: KEY })).body.status).toBe("settled");
    const forced = await h.control(`/payments/${id}/status`, { status: "pending" });
    expect(forced.body.status).toBe("pending");
    const forcedAt = Date.parse((await h.control("/clock/advance", { seconds: 0.001 })).body.now);
    // Not due at once: its countdown starts again at the forced move.
    expect((await h.call("GET", `/v1/payments/${id}`, { key: KEY })).body.status).toBe("pending");
    await h.control("/clock/advance", { seconds: 2 * 86_400 });
    const after = (await h.call("GET", `/v1/payments/${id}`, { key: KEY })).body;
    expect(after.status).toBe("settled");
    expect(Date.parse(after.completed_at)).toBeGreaterThanOrEqual(forcedAt);
    const page = await browser.get(`/payments/${id}`);
    const history = page.text.slice(page.text.indexOf('aria-label="Status history"'));
    const times = [...history.matchAll(/<time[^>]*datetime="([^"]+)"/g)].map((m) => Date.parse(m[1] as string));
    const statuses = [...history.matchAll(/<span class="badge badge-\w+ tone-\w+"[^>]*>(\w+)<\/span>/g)].map(
      (m) => m[1],
    );
    expect(statuses).toEqual(["pending", "completed", "settled", "pending", "completed", "settled"]);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times[4]).toBeGreaterThanOrEqual(forcedAt);
    await expectBooksBalanced(h);
  });
});

describe("every action redirects (Post/Redirect/Get)", () => {
  /** Posts a form and follows its redirect as a browser would: the address bar's URL must answer a GET. */
  const act = async (path: string, fields: Record<string, string>, formPage: string) => {
    const answer = await browser.post(path, { _csrf: await browser.token(formPage), ...fields });
    expect(answer.status, path).toBe(303);
    const landed = await browser.get((answer.location as string).replace("/_sandbox/dashboard", ""));
    expect(landed.status, `${path} → ${answer.location}`).toBe(200);
    return landed;
  };
  const keys = async () =>
    (await h.call("GET", "/_sandbox/api-keys", { key: KEY })).body.data as { name: string; status: string }[];

  it("shows a new API key once, on a page a reload cannot re-create, and mints one key", async () => {
    const landed = await act("/settings/api-keys", { name: "Muhasebe şğı", expires_on: "" }, "/settings/api-keys");
    const secret = /id="new-api-key">([^<]+)</.exec(landed.text)?.[1];
    expect(secret).toMatch(/^sk_/);
    expect(landed.text).toContain("Muhasebe şğı");
    const reloaded = await browser.get("/settings/api-keys");
    expect(reloaded.text).not.toContain(secret);
    expect(reloaded.text).not.toContain('id="new-api-key"');
    expect((await keys()).filter((k) => k.name === "Muhasebe şğı")).toHaveLength(1);
    // Another session cannot read a flash cookie it was handed.
    const thief = new DashboardHttp(h.url);
    await thief.signIn(KEY);
    const made = await browser.post("/settings/api-keys", {
      _csrf: await browser.token("/settings/api-keys"),
      name: "İkinci",
    });
    const flash = browser.cookies.get("payspec_dashboard_flash") as string;
    expect(made.status).toBe(303);
    thief.cookies.set("payspec_dashboard_flash", flash);
    expect((await thief.get("/settings/api-keys")).text).not.toContain('id="new-api-key"');
  });

  it("revokes a key, sends a test e-mail, saves recipients, pauses, resumes and deletes a schedule, each by redirect", async () => {
    await act("/settings/api-keys", { name: "Geçici" }, "/settings/api-keys");
    const id = (
      (await h.call("GET", "/_sandbox/api-keys", { key: KEY })).body.data as { id: string; name: string }[]
    ).find((k) => k.name === "Geçici")?.id as string;
    expect((await act(`/settings/api-keys/${id}/revoke`, { confirm: "yes" }, "/settings/api-keys")).text).toContain(
      "Key &quot;Geçici&quot; revoked.",
    );

    // Without recipients the test e-mail is refused; the refusal is shown on the page it redirects to.
    expect((await act("/settings/reports/test", {}, "/settings/reports")).text).toContain('role="alert"');
    expect((await act("/settings/reports", { recipients: "ops@example.com" }, "/settings/reports")).text).toContain(
      "Recipients saved.",
    );
    expect((await act("/settings/reports/test", {}, "/settings/reports")).text).toContain("Test e-mail sent");

    const created = await act(
      "/settings/schedules",
      { name: "Günlük İşlemler", format: "csv", every: "day", time: "09:00" },
      "/settings/schedules",
    );
    expect(created.text).toContain("Schedule &quot;Günlük İşlemler&quot; created.");
    const scheduleId = /settings\/schedules\/(sch_[^"]+)"/.exec(created.text)?.[1] as string;
    const base = `/settings/schedules/${scheduleId}`;
    expect((await act(`${base}/pause`, {}, base)).text).toContain("Paused.");
    expect((await act(`${base}/resume`, {}, base)).text).toContain("Resumed");
    expect(
      (await act(base, { name: "Haftalık", format: "pdf", every: "week", weekday: "1", time: "10:00" }, base)).text,
    ).toContain("Schedule saved.");
    expect((await act(`${base}/delete`, { confirm: "yes" }, base)).text).toContain("Schedule deleted.");
  });

  it("imports a statement and lands on the run's own page", async () => {
    const landed = await act(
      "/reconciliation",
      { statement: "reference,amount_minor,currency,value_date\nNONE-1,100,TRY,2026-01-05\n" },
      "/reconciliation",
    );
    expect(landed.text).toContain("0 matched");
    expect(landed.text).toContain('aria-label="Statement lines"');
  });

  it("refuses a card number in a schedule's name beside the form, the box left empty", async () => {
    const answer = await browser.post("/settings/schedules", {
      _csrf: await browser.token("/settings/schedules"),
      name: "Rapor 4111 1111 1111 1111",
      format: "csv",
      every: "day",
      time: "09:00",
    });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain("card number");
    expect(answer.text).not.toMatch(/4111|411111\*/);
    expect(answer.text).toMatch(/name="name" required maxlength="100" value=""/);
    expect((await h.call("GET", "/_sandbox/schedules", { key: KEY })).body.data).toEqual([]);
  });
});

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DashboardHttp } from "./support/dashboard-http.js";
import { type Harness, harness, KEY } from "./support/harness.js";

/**
 * An irreversible action's address opened with a GET (a bookmark, the back button, the address bar)
 * shows its question again, with the form that does it, and never acts, `confirm=yes` in the query
 * included. Over real HTTP, on memory and PostgreSQL.
 */
let h: Harness;
let browser: DashboardHttp;

beforeAll(async () => {
  h = await harness({ completeAfterSeconds: 3_600 });
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.control("/reset");
  browser = new DashboardHttp(h.url);
  browser.cookies.set("payspec_dashboard_lang", "tr");
  await browser.signIn(KEY);
});
afterEach(() => {
  expect(h.problems.splice(0)).toEqual([]);
});

const bearer = { authorization: `Bearer ${KEY}` };

/** The page a GET of `path` shows: its status, and the form that would do the action. */
async function opened(path: string) {
  const page = await browser.get(path);
  const form = /<form method="post" action="([^"]+)" class="confirm"[\s\S]*?<\/form>/.exec(page.text);
  return {
    status: page.status,
    action: form?.[1],
    confirms: form?.[0].includes('name="confirm" value="yes"') ?? false,
    text: page.text,
  };
}

describe("a confirmation's address opened with a GET", () => {
  it("asks again before cancelling a payment or forcing its status, and changes nothing", async () => {
    const [from, to] = (await h.accounts()).filter((a) => a.currency === "TRY").map((a) => a.id);
    const made = await h.call("POST", "/v1/payments", {
      key: KEY,
      json: { amount: 4_990, currency: "TRY", method: "eft", from_account: from, to_account: to },
    });
    const id = made.body.id as string;
    for (const path of [`/payments/${id}/cancel`, `/payments/${id}/cancel?confirm=yes`]) {
      const page = await opened(path);
      expect([page.status, page.action, page.confirms], path).toEqual([
        200,
        `/_sandbox/dashboard/payments/${id}/cancel`,
        true,
      ]);
      expect(page.text).toContain("ödemesi iptal edilsin mi?");
    }
    const forced = await opened(`/payments/${id}/status?status=failed&confirm=yes`);
    expect([forced.status, forced.confirms]).toEqual([200, true]);
    expect(forced.text).toContain('name="status" value="failed"');
    expect((await h.call("GET", `/v1/payments/${id}`, { key: KEY })).body.status).toBe("pending");
  });

  it("asks again before revoking an API key, deleting a schedule or removing a statement layout, and changes nothing", async () => {
    const key = await h.call("POST", "/_sandbox/api-keys", { headers: bearer, json: { name: "Muhasebe şğı" } });
    await h.call("PUT", "/_sandbox/settings/report-recipients", {
      headers: bearer,
      json: { recipients: ["muhasebe@example.com"] },
    });
    const schedule = await h.control("/schedules", { name: "Günlük özet", format: "csv", every: "day", time: "09:00" });
    const layouts = {
      mappings: [
        {
          name: "Örnek Bankası",
          date: "Valör",
          date_format: "dd/MM/yyyy",
          narrative: ["İşlem Açıklaması"],
          amount: "Tutar",
          currency: "TRY",
          decimal: ",",
          thousands: ".",
        },
      ],
    };
    const put = await h.call("PUT", "/_sandbox/settings/statement-mappings", { headers: bearer, json: layouts });
    expect([key.status, schedule.status, put.status]).toEqual([201, 201, 200]);
    const pages = [
      [`/settings/api-keys/${key.body.id}/revoke?confirm=yes`, "anahtarı"],
      [`/settings/schedules/${schedule.body.id}/delete?confirm=yes`, "Günlük özet"],
      ["/reconciliation/layouts/0/remove?confirm=yes", "Örnek Bankası"],
    ] as const;
    for (const [path, named] of pages) {
      const page = await opened(path);
      expect([page.status, page.action, page.confirms], path).toEqual([
        200,
        `/_sandbox/dashboard${path.split("?")[0]}`,
        true,
      ]);
      expect(page.text, path).toContain(named);
    }
    const keys = (await h.call("GET", "/_sandbox/api-keys", { headers: bearer })).body.data as {
      id: string;
      status: string;
    }[];
    expect(keys.find((k) => k.id === key.body.id)?.status).toBe("active");
    expect((await h.call("GET", `/_sandbox/schedules/${schedule.body.id}`, { headers: bearer })).status).toBe(200);
    expect(
      (await h.call("GET", "/_sandbox/settings/statement-mappings", { headers: bearer })).body.mappings,
    ).toHaveLength(1);
  });
});

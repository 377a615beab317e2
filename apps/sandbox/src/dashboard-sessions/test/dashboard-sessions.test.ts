import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DashboardHttp } from "../../../test/support/dashboard-http.js";
import { cardPayment, type Harness, harness, KEY, OTHER_KEY } from "../../../test/support/harness.js";
import { DEMO_GATEWAY_KEY, DEMO_GATEWAY_SECRET } from "../../index.js";

/**
 * The dashboard's sessions and forms under attack, over real HTTP, on memory and PostgreSQL: replayed
 * cookies and tokens, forms from another origin or in another content type, framing, and the gateway's
 * data behind the gateway's own credentials.
 */
let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());
afterEach(async () => {
  await h.control("/reset");
  await h.control("/reset", {}, OTHER_KEY);
});

async function approvalWorkflow(): Promise<boolean> {
  const browser = new DashboardHttp(h.url);
  await browser.signIn(KEY);
  return (await browser.get("/settings")).text.includes('<strong id="approval-workflow">on</strong>');
}

describe("server-side sessions", () => {
  it("refuses a session cookie replayed after sign-out, for pages and forms", async () => {
    const alice = new DashboardHttp(h.url);
    await alice.signIn(KEY);
    expect(await alice.signedIn()).toBe(true);
    const stolenCookie = new Map(alice.cookies);
    const stolenToken = await alice.token("");
    expect((await alice.post("/sign-out", { _csrf: stolenToken })).status).toBe(303);

    const thief = new DashboardHttp(h.url);
    for (const [name, value] of stolenCookie) thief.cookies.set(name, value);
    expect(await thief.signedIn()).toBe(false);
    const posted = await thief.post("/settings/approval-workflow", { _csrf: stolenToken, enabled: "on" });
    expect(posted.status).toBe(403);
    expect(await approvalWorkflow()).toBe(false);
  });

  it("ends every session of a workspace when it is reset, and only that workspace's", async () => {
    const alice = new DashboardHttp(h.url);
    const bob = new DashboardHttp(h.url);
    await alice.signIn(KEY);
    await bob.signIn(OTHER_KEY);
    expect((await h.control("/reset")).status).toBe(200);
    expect(await alice.signedIn()).toBe(false);
    expect(await bob.signedIn()).toBe(true);
  });

  it("ends an idle session and a session past its absolute lifetime", async () => {
    const short = await harness({ dashboardIdleSeconds: 1, dashboardMaxSeconds: 3 });
    try {
      const idle = new DashboardHttp(short.url);
      await idle.signIn(KEY);
      await new Promise((resolve) => setTimeout(resolve, 1_300));
      expect(await idle.signedIn()).toBe(false);

      // Used every half second: never idle, yet over after its absolute lifetime. What each answer must
      // be follows from when it was asked (a loaded CI machine answers late), not from its place in line.
      const busy = new DashboardHttp(short.url);
      const beforeSignIn = Date.now();
      await busy.signIn(KEY);
      const signedIn = Date.now();
      const seen: { asked: number; answered: number; signedIn: boolean }[] = [];
      for (let i = 0; i < 7; i++) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        const asked = Date.now();
        const answer = await busy.signedIn();
        seen.push({ asked, answered: Date.now(), signedIn: answer });
      }
      // Answered within its lifetime, and within a second of when the last use was asked (so the session
      // cannot have sat unused a full second), it must still be signed in.
      let lastUseAsked = beforeSignIn;
      for (const check of seen) {
        const young = check.answered - beforeSignIn < 3_000;
        if (young && check.answered - lastUseAsked < 1_000) expect(check.signedIn).toBe(true);
        lastUseAsked = check.asked;
      }
      // Kept past the idle second by use: at least one answer more than a second after signing in said so.
      expect(seen.some((check) => check.asked - signedIn > 1_000 && check.signedIn)).toBe(true);
      // Asked 3.5 s or more after signing in: past the absolute lifetime whatever the load.
      expect(seen.at(-1)?.signedIn).toBe(false);
    } finally {
      await short.close();
    }
  });
});

describe("CSRF tokens and origins", () => {
  it("refuses an anonymous token paired with a signed-in session", async () => {
    const anonymous = new DashboardHttp(h.url);
    const anonymousToken = await anonymous.token("");
    const alice = new DashboardHttp(h.url);
    await alice.signIn(KEY);
    for (const [name, value] of anonymous.cookies) alice.cookies.set(name, value);
    const posted = await alice.post("/settings/approval-workflow", { _csrf: anonymousToken, enabled: "on" });
    expect(posted.status).toBe(403);
    expect(await approvalWorkflow()).toBe(false);
  });

  it("rotates the token at sign-in: one from before sign-out does not work after signing in again", async () => {
    const alice = new DashboardHttp(h.url);
    await alice.signIn(KEY);
    const before = await alice.token("");
    await alice.post("/sign-out", { _csrf: before });
    await alice.signIn(KEY);
    const after = await alice.token("");
    expect(after).not.toBe(before);
    expect((await alice.post("/reset", { _csrf: before })).status).toBe(403);
    expect(await alice.signedIn()).toBe(true);
    expect((await alice.post("/reset", { _csrf: after, confirm: "yes" })).status).toBe(303);
  });

  it("refuses a valid form sent from another origin (another local port), or with no origin at all", async () => {
    const alice = new DashboardHttp(h.url);
    await alice.signIn(KEY);
    const token = await alice.token("");
    const otherPort = h.url.replace(/:(\d+)$/, (_m, port) => `:${Number(port) + 1}`);
    const fromElsewhere = await alice.post(
      "/settings/approval-workflow",
      { _csrf: token, enabled: "on" },
      { origin: otherPort },
    );
    expect(fromElsewhere.status).toBe(403);
    const viaReferer = await alice.post(
      "/settings/approval-workflow",
      { _csrf: token, enabled: "on" },
      { origin: null, headers: { referer: `${otherPort}/evil` } },
    );
    expect(viaReferer.status).toBe(403);
    const crossSite = await alice.post(
      "/settings/approval-workflow",
      { _csrf: token, enabled: "on" },
      { origin: "null", headers: { "sec-fetch-site": "same-site" } },
    );
    expect(crossSite.status).toBe(403);
    const bare = await alice.post("/settings/approval-workflow", { _csrf: token, enabled: "on" }, { origin: null });
    expect(bare.status).toBe(403);
    expect(await approvalWorkflow()).toBe(false);
    // A browser under Referrer-Policy: no-referrer sends `Origin: null` with its fetch metadata.
    const sameOrigin = await alice.post(
      "/settings/approval-workflow",
      { _csrf: token, enabled: "on" },
      { origin: "null", headers: { "sec-fetch-site": "same-origin" } },
    );
    expect(sameOrigin.status).toBe(303);
    expect(await approvalWorkflow()).toBe(true);
  });

  it("takes forms only as urlencoded: other bodies are 415, never a 500, signed in or not", async () => {
    const alice = new DashboardHttp(h.url);
    const anonymous = new DashboardHttp(h.url);
    await alice.signIn(KEY);
    const bodies: [string, string][] = [
      ["text/plain", "_csrf=x"],
      ["multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=a\r\n\r\nb\r\n--x--\r\n"],
      ["application/xml", "<a/>"],
      ["application/json", '{"broken": '],
      ["application/json", "{}"],
    ];
    for (const [contentType, body] of bodies) {
      for (const who of [alice, anonymous]) {
        for (const path of ["/reset", "/sign-in", "/settings/approval-workflow"]) {
          const answer = await who.post(path, {}, { contentType, body });
          expect(answer.status, `${contentType} ${path}`).toBe(415);
          expect(answer.text).toContain("application/x-www-form-urlencoded");
        }
      }
    }
  });
});

describe("headers", () => {
  it("forbids framing, inline script, sniffing, referrers and caching on every page", async () => {
    const alice = new DashboardHttp(h.url);
    const pages = [await alice.get("")];
    await alice.signIn(KEY);
    for (const path of ["", "/payments/new", "/requests", "/no-such-page"]) pages.push(await alice.get(path));
    for (const page of pages) {
      const csp = page.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain("unsafe-inline");
      expect(page.headers.get("x-frame-options")).toBe("DENY");
      expect(page.headers.get("x-content-type-options")).toBe("nosniff");
      expect(page.headers.get("referrer-policy")).toBe("no-referrer");
      expect(page.headers.get("cache-control")).toBe("no-store");
    }
    // No inline script or style that the policy would block: the page's own files only.
    expect(pages[1]?.text).not.toMatch(/<script>|<style>| style="/);
  });
});

describe("the gateway's data", () => {
  it("is shown only to a session signed in with the gateway's credentials", async () => {
    const token = await h.login();
    expect((await h.call("POST", "/api/v1/payments/card", { token, json: cardPayment() })).status).toBe(200);

    const workspace = new DashboardHttp(h.url);
    await workspace.signIn(KEY);
    for (const path of ["/gateway", "/gateway/report.xlsx"]) {
      const answer = await workspace.get(path);
      expect(answer.status, path).toBe(303);
      expect(answer.text).not.toContain("552879");
    }
    expect((await workspace.get("")).text).not.toContain("/gateway");

    const wrong = new DashboardHttp(h.url);
    expect((await wrong.signInToGateway(DEMO_GATEWAY_KEY, "not-the-secret")).status).toBe(401);
    expect((await wrong.get("/gateway")).status).toBe(303);

    const gateway = new DashboardHttp(h.url);
    expect((await gateway.signInToGateway(DEMO_GATEWAY_KEY, DEMO_GATEWAY_SECRET)).status).toBe(303);
    const page = await gateway.get("/gateway");
    expect(page.status).toBe(200);
    expect(page.text).toContain("552879******0008");
    expect((await gateway.get("/gateway/report.xlsx")).status).toBe(200);
    // …and nothing of a workspace.
    expect((await gateway.get("")).status).toBe(303);
    expect((await gateway.get("/requests")).status).toBe(303);
  });
});

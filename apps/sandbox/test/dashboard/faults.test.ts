import { describe, expect, it } from "vitest";
import { keepScreenshot, useDashboard } from "../support/dashboard-browser.js";
import { KEY, OTHER_KEY } from "../support/harness.js";

const d = useDashboard(30);

describe("the dashboard's Faults page, in a real browser", () => {
  it("declares a fault through the control API, shows how often it struck, and clears it", async () => {
    await d.signIn();
    await d.page.getByRole("link", { name: "Faults", exact: true }).click();
    expect(await d.page.locator("#fault-count").textContent()).toBe("No faults declared.");
    await d.page.locator("select[name=operation]").selectOption("listAccounts");
    await d.page.locator("select[name=fault]").selectOption("error-503");
    await d.page.getByLabel("Retry-After seconds").fill("4");
    await d.page.getByRole("button", { name: "Declare the fault" }).click();
    expect(await d.page.getByRole("status").textContent()).toContain("Fault declared");
    const table = d.page.getByRole("table", { name: "Declared faults" });
    expect(await table.textContent()).toContain("error-503");
    // What it strikes, in words, with the method and path it matches.
    expect(await table.textContent()).toContain("List accounts (GET /v1/accounts)");

    // It strikes this workspace's next request, not the other workspace's.
    expect((await d.h.call("GET", "/v1/accounts", { key: OTHER_KEY })).status).toBe(200);
    const struck = await d.h.call("GET", "/v1/accounts", { key: KEY });
    expect([struck.status, struck.headers.get("retry-after")]).toEqual([503, "4"]);
    // A 503 with Retry-After is one the spec declares for every operation: nothing to report.
    expect(d.h.problems.splice(0)).toEqual([]);
    expect((await d.h.call("GET", "/v1/accounts", { key: KEY })).status).toBe(200);
    await d.page.reload();
    const row = (await table.locator("tbody tr").first().textContent()) as string;
    expect(row).toMatch(/the next 1\s*1\s*spent/);
    await keepScreenshot(d.page, "faults");

    await d.page.getByRole("button", { name: "Clear all faults" }).click();
    expect(await d.page.getByRole("status").textContent()).toContain("cleared");
    expect(await d.page.locator("#fault-count").textContent()).toBe("No faults declared.");
  });

  it("refuses what the control API refuses, with its message naming the field", async () => {
    await d.signIn();
    await d.page.getByRole("link", { name: "Faults", exact: true }).click();
    await d.page.locator("select[name=fault]").selectOption("latency-before");
    await d.page.getByLabel(/Or each with probability/).fill("2");
    await d.page.getByRole("button", { name: "Declare the fault" }).click();
    expect(await d.page.getByRole("alert").textContent()).toContain(
      "probability: must be a number above 0 and at most 1",
    );
    await d.page.getByLabel(/Or each with probability/).fill("");
    await d.page.getByLabel(/Latency in ms/).fill("900-100");
    await d.page.getByRole("button", { name: "Declare the fault" }).click();
    // Named by its box's label in the summary, and the box itself flagged.
    expect(await d.page.getByRole("alert").textContent()).toContain("Latency in ms: ");
    expect(await d.page.getByLabel(/Latency in ms/).getAttribute("aria-invalid")).toBe("true");
    expect(await d.page.getByLabel(/Or each with probability/).getAttribute("aria-invalid")).toBeNull();
    // Nothing half-declared.
    expect((await d.h.call("GET", "/_sandbox/faults", { key: KEY })).body.faults).toEqual([]);
  });
});

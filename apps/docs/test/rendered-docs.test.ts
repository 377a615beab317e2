import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cardGatewaySpec, paymentsAccountsSpec } from "@payspec/specs";
import { launchChromium } from "@payspec/test-browser";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const docsDir = fileURLToPath(new URL("../dist/", import.meta.url));

let server: Server;
let base: string;
let browser: Browser;

beforeAll(async () => {
  server = createServer((req, res) => {
    const file = join(docsDir, (req.url ?? "/") === "/" ? "index.html" : (req.url ?? "").slice(1));
    let html: Buffer;
    try {
      html = readFileSync(file);
    } catch {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server.close(resolve));
});

function operations(spec: object): { operationId: string; summary: string }[] {
  const paths = (spec as { paths: Record<string, Record<string, { operationId?: string; summary?: string }>> }).paths;
  return Object.values(paths).flatMap((item) =>
    Object.values(item)
      .filter((op) => op.operationId)
      .map((op) => ({ operationId: op.operationId as string, summary: op.summary as string })),
  );
}

describe("the rendered API reference, in a real browser", () => {
  it.each([
    ["payments-accounts.html", paymentsAccountsSpec],
    ["card-gateway.html", cardGatewaySpec],
  ])("%s shows every operation of its spec", async (file, spec) => {
    const page = await browser.newPage();
    await page.goto(`${base}/${file}`);
    // The reference renders on the client; wait until it has drawn the first operation.
    const [first] = operations(spec);
    await page.waitForFunction((summary) => document.body.innerText.includes(summary), first?.summary ?? "");
    const text = await page.innerText("body");
    const missing = operations(spec).filter((op) => !text.includes(op.summary));
    expect(missing).toEqual([]);
    expect(operations(spec).length).toBeGreaterThanOrEqual(4);
    await page.close();
  });

  it("the index links both references and lists the assumptions", async () => {
    const page = await browser.newPage();
    await page.goto(base);
    expect(await page.locator("a").allInnerTexts()).toEqual(["Payments and Accounts API", "Card Payment Gateway API"]);
    const text = await page.innerText("body");
    expect(text).toContain("The error body is not shown");
    expect(text).toContain("Token lifetime is not shown");
    await page.close();
  });
});

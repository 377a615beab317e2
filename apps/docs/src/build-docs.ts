// `pnpm docs`: renders both specs to static HTML with Redoc, plus an index page that links them and
// shows every assumption (specs/ASSUMPTIONS.md). Output: apps/docs/dist/. Everything is local: the
// Redoc bundle is copied next to the pages, so they open with no network.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { cardGatewaySpec, paymentsAccountsSpec } from "@payspec/specs";
import { marked } from "marked";

export const docsDir = fileURLToPath(new URL("../dist/", import.meta.url));
const redocBundle = createRequire(import.meta.url).resolve("redoc/bundles/redoc.standalone.js");

const pages = [
  { name: "payments-accounts", title: "Payments and Accounts API", spec: paymentsAccountsSpec },
  { name: "card-gateway", title: "Card Payment Gateway API", spec: cardGatewaySpec },
] as const;

/** JSON that is safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replaceAll("<", "\\u003c");
}

function referencePage(title: string, spec: object): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} — payspec</title>
<style>body{margin:0}</style></head>
<body>
<div id="reference"></div>
<script src="redoc.standalone.js"></script>
<script>Redoc.init(${scriptJson(spec)}, { hideDownloadButton: false, expandResponses: "200,201", jsonSampleExpandLevel: 3 }, document.getElementById("reference"));</script>
</body>
</html>
`;
}

mkdirSync(docsDir, { recursive: true });
copyFileSync(redocBundle, `${docsDir}redoc.standalone.js`);
for (const page of pages) writeFileSync(`${docsDir}${page.name}.html`, referencePage(page.title, page.spec));

const assumptions = readFileSync(fileURLToPath(new URL("../../../specs/ASSUMPTIONS.md", import.meta.url)), "utf8");
writeFileSync(
  `${docsDir}index.html`,
  `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>payspec API reference</title>
<style>body{font-family:system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;line-height:1.5}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}</style>
</head>
<body>
<h1>payspec API reference</h1>
<ul>${pages.map((p) => `<li><a href="${p.name}.html">${p.title}</a></li>`).join("")}</ul>
${await marked.parse(assumptions)}
</body>
</html>
`,
);
console.log(`docs: ${pages.length} API references and the assumptions in ${docsDir}`);

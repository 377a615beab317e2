import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const dist = fileURLToPath(new URL("../dist/index.mjs", import.meta.url));

/**
 * In a process of its own (a module cache of its own): whether exceljs is loaded after importing the
 * built client, and after its first report read. exceljs is a CommonJS package, so an ESM import of it
 * lands in the CommonJS module cache too.
 */
const PROGRAM = `
import { createRequire } from "node:module";
const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes("/exceljs/"));
const client = await import(${JSON.stringify(dist)});
const afterImport = loaded();
const refused = await client.parseDailyReport(new Uint8Array([1, 2, 3])).then(() => "read", (e) => e.name);
console.log(JSON.stringify({ afterImport, afterRead: loaded(), refused }));
`;

it("loads the report's .xlsx reader on the first report read, not when the client is imported", async () => {
  const out = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, ["--input-type=module", "-e", PROGRAM], { timeout: 30_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    ),
  );
  const seen = JSON.parse(out) as { afterImport: boolean; afterRead: boolean; refused: string };
  expect(seen.afterImport).toBe(false);
  expect(seen.afterRead).toBe(true);
  // A file that is not an .xlsx is refused as such, through the lazily loaded parser.
  expect(seen.refused).toBe("ReportFormatError");
});

import iconv from "iconv-lite";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { pastNextCutoff } from "../../../test/support/clock-moves.js";
import { DashboardHttp } from "../../../test/support/dashboard-http.js";
import { type Harness, harness, KEY } from "../../../test/support/harness.js";
import { istanbulDate } from "../../index.js";

/**
 * The Reconciliation page takes the files the control API takes, as a browser sends a file box
 * (multipart, no script), and shows the API's own refusal beside the box it came from; a run's page
 * shows what did not add up and what the bank had not booked. Over real HTTP, on memory and PostgreSQL.
 */
let h: Harness;
let browser: DashboardHttp;
let tryA: string;
let tryB: string;

beforeAll(async () => {
  h = await harness({ completeAfterSeconds: 30 });
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.control("/reset");
  [tryA, tryB] = (await h.accounts()).filter((a) => a.currency === "TRY").map((a) => a.id) as [string, string];
  browser = new DashboardHttp(h.url);
  await browser.signIn(KEY);
});
afterEach(() => {
  expect(h.problems.splice(0)).toEqual([]);
});

/** Payments made, completed and settled at the next Istanbul cut-off; the value date that gives them. */
async function settled(references: { reference: string; amount: number }[]) {
  const made: { id: string }[] = [];
  for (const { reference, amount } of references) {
    const reply = await h.call("POST", "/v1/payments", {
      key: KEY,
      json: { amount, currency: "TRY", method: "eft", from_account: tryA, to_account: tryB, reference },
    });
    expect(reply.status).toBe(201);
    made.push(reply.body);
  }
  await h.control("/clock/advance", { seconds: 31 });
  const cutoff = await pastNextCutoff(h);
  return { made, valueDate: istanbulDate(cutoff) };
}

const upload = async (bytes: Buffer, name: string) =>
  browser.postFile(
    "/reconciliation",
    { _csrf: await browser.token("/reconciliation"), statement: "" },
    { box: "statement_file", name, bytes },
  );

/** What the control API says of the same bytes. */
const apiMessage = async (bytes: Buffer) => {
  const reply = await h.call("POST", "/_sandbox/reconciliations", {
    raw: bytes as unknown as string,
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/octet-stream" },
  });
  expect(reply.status).toBe(400);
  return reply.body.message as string;
};

const unescaped = (text: string) =>
  text
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");

/** The problem shown beside a box, and whether the box points at it. */
function besideBox(page: string, box: string) {
  const message = new RegExp(`id="${box}-error">([^<]*)<`).exec(page)?.[1];
  return {
    message: message === undefined ? undefined : unescaped(message),
    tied: new RegExp(`id="field-${box}" aria-invalid="true" aria-describedby="${box}-error"`).test(page),
    summarised: page.includes(`href="#field-${box}"`),
  };
}

const runs = async () => (await h.call("GET", "/_sandbox/reconciliations", { key: KEY })).body.data as unknown[];

describe("the Reconciliation page's statement upload", () => {
  it("reconciles a bank's Windows-1254 CSV file sent from the file box, with no script, and lands on the run", async () => {
    const { made, valueDate } = await settled([{ reference: "FTR-ŞĞİ-0042", amount: 4_990 }]);
    const dmy = valueDate.split("-").reverse().join(".");
    const file = iconv.encode(
      `Tarih;Açıklama;Tutar;Bakiye\r\n${dmy};KİRA ÖDEMESİ FTR-ŞĞİ-0042;-49,90;100,00\r\n`,
      "windows-1254",
    );
    const answer = await upload(file, "hesap-hareketleri-ş.csv");
    expect(answer.status).toBe(303);
    const run = await browser.get((answer.location as string).replace("/_sandbox/dashboard", ""));
    expect(run.status).toBe(200);
    expect(run.text).toContain("1 matched");
    expect(run.text).toContain("KİRA ÖDEMESİ FTR-ŞĞİ-0042");
    expect((await h.call("GET", `/v1/payments/${made[0]?.id}`, { key: KEY })).body.status).toBe("reconciled");
  });

  it("shows the control API's own message for a refused file beside the file box, linked from the summary, and imports nothing", async () => {
    const cases = [
      Buffer.from("reference,amount_minor,currency,value_date\nSECRET-REF,-5,TRY,2026-01-01\n"),
      Buffer.from(
        '<?xml version="1.0"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">\n  <BkToCstmrStmt><Stmt>\n</Document>\n',
      ),
      Buffer.from(":20:STMT\r\n:25:TR33\r\n:60F:C261127TRY1,00\r\n:61:2611XXD1,00NTRFX//\r\n-"),
    ];
    for (const bytes of cases) {
      const said = await apiMessage(bytes);
      const answer = await upload(bytes, "ekstre.txt");
      expect(answer.status).toBe(400);
      const shown = besideBox(answer.text, "statement_file");
      expect(shown).toEqual({ message: said, tied: true, summarised: true });
      // The text box is not blamed for the file's fault.
      expect(besideBox(answer.text, "statement").message).toBeUndefined();
      expect(answer.text).not.toContain("SECRET-REF");
    }
    expect(await runs()).toEqual([]);
  });

  it("puts a refusal of pasted text beside the text box", async () => {
    const text = "reference,amount_minor,currency,value_date\nX,12,ZZZ,2026-01-01\n";
    const said = await apiMessage(Buffer.from(text));
    const answer = await browser.post("/reconciliation", {
      _csrf: await browser.token("/reconciliation"),
      statement: text,
    });
    expect(answer.status).toBe(400);
    expect(besideBox(answer.text, "statement")).toEqual({ message: said, tied: true, summarised: true });
    expect(await runs()).toEqual([]);
  });

  it("says beside the file box that a file over 10 MB is too large, without an error page", async () => {
    const answer = await upload(Buffer.alloc(10 * 1024 * 1024 + 1, "a"), "big.csv");
    expect(answer.status).toBe(413);
    expect(besideBox(answer.text, "statement_file")).toEqual({
      message: "The file is larger than 10 MB; split it by value date.",
      tied: true,
      summarised: true,
    });
    expect(await runs()).toEqual([]);
  });

  it("takes a file form only where a file is taken: another page's form sent as multipart is refused", async () => {
    const answer = await browser.postFile(
      "/settings/reports",
      { _csrf: await browser.token("/settings/reports"), recipients: "a@example.com" },
      { box: "file", name: "x.csv", bytes: Buffer.from("x") },
    );
    expect(answer.status).toBe(415);
  });
});

describe("a reconciliation run's page", () => {
  it("shows an MT940's balances that do not add up, and a camt.053 entry the bank has not booked, in Turkish", async () => {
    const { valueDate } = await settled([
      { reference: "BAL-1", amount: 4_250 },
      { reference: "PEND-1", amount: 5_000 },
    ]);
    const date6 = valueDate.slice(2).replaceAll("-", "");
    const mt940 = [
      ":20:STMT-9",
      ":25:TR330006100519786457841326",
      ":28C:1/1",
      `:60F:C${date6}TRY100,00`,
      `:61:${date6}D42,50NTRFBAL-1//`,
      ":86:ÖDEME BAL-1",
      `:62F:C${date6}TRY50,00`,
      "-",
    ].join("\r\n");
    // A Turkish user's choice of language, as the language switch keeps it.
    const turkish = new DashboardHttp(h.url);
    turkish.cookies.set("payspec_dashboard_lang", "tr");
    await turkish.signIn(KEY);
    const first = await turkish.postFile(
      "/reconciliation",
      { _csrf: await turkish.token("/reconciliation") },
      { box: "statement_file", name: "ekstre.sta", bytes: Buffer.from(mt940) },
    );
    expect(first.status).toBe(303);
    const run = await turkish.get((first.location as string).replace("/_sandbox/dashboard", ""));
    expect(run.text).toContain("Dosya tutmadı");
    expect(run.text).toContain(
      "STMT-9 mesajı: açılış bakiyesi 100,00 ₺ ile hareketler -42,50 ₺ toplamı 57,50 ₺, kapanış bakiyesi 50,00 ₺ değil (fark -7,50 ₺); satırlar bankanın yazdığı gibi mutabakata alındı.",
    );

    const camt = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>
  <GrpHdr><MsgId>M-1</MsgId><CreDtTm>${valueDate}T18:00:00</CreDtTm></GrpHdr>
  <Stmt><Id>S-1</Id><CreDtTm>${valueDate}T18:00:00</CreDtTm><Acct><Id><IBAN>TR330006100519786457841326</IBAN></Id></Acct>
    <Ntry><Amt Ccy="TRY">50.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>PDNG</Sts>
      <BookgDt><Dt>${valueDate}</Dt></BookgDt><ValDt><Dt>${valueDate}</Dt></ValDt>
      <NtryDtls><TxDtls><Refs><EndToEndId>PEND-1</EndToEndId></Refs></TxDtls></NtryDtls></Ntry>
  </Stmt></BkToCstmrStmt></Document>`;
    const second = await upload(Buffer.from(camt), "camt053.xml");
    expect(second.status).toBe(303);
    const pending = await browser.get((second.location as string).replace("/_sandbox/dashboard", ""));
    expect(pending.text).toMatch(/tone-waiting"\s*>not booked by the bank<\/span> 1/);
    expect(pending.text).not.toContain("The file did not add up");
  });
});

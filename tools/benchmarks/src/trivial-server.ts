// The baseline: the least a Node HTTP server can do to answer the same JSON. With BENCH_PARSE_BODY=1
// it also reads a POST's body and parses it as JSON, the least a server of a JSON API must do: the
// gap between the two is what parsing costs, before any framework. With BENCH_WRITE_AFTER_READS=1 it
// writes each answer once its turn of the event loop has read every request, as server-kit does: the
// gap between that and the baseline is what that timing alone gives, before any framework.
import { createServer, type ServerResponse } from "node:http";

const accounts = JSON.stringify(JSON.parse(process.env.BENCH_BODY ?? "[]"));
const parseBody = process.env.BENCH_PARSE_BODY === "1";
const afterReads = process.env.BENCH_WRITE_AFTER_READS === "1";
const write = (res: ServerResponse, status: number, body?: string) =>
  res.writeHead(status, body === undefined ? {} : { "content-type": "application/json" }).end(body);
const answer = afterReads
  ? (res: ServerResponse, status: number, body?: string) => setImmediate(write, res, status, body)
  : write;

createServer((req, res) => {
  if (req.method === "POST") {
    if (!parseBody) {
      req.resume();
      req.on("end", () => answer(res, 201, accounts));
      return;
    }
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      text += chunk;
    });
    req.on("end", () => {
      try {
        JSON.parse(text);
      } catch {
        answer(res, 400);
        return;
      }
      answer(res, 201, accounts);
    });
    return;
  }
  answer(res, 200, accounts);
}).listen(Number(process.env.PORT), "127.0.0.1");

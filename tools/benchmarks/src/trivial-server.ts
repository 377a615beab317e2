// The baseline: the least a Node HTTP server can do to answer the same JSON. With BENCH_PARSE_BODY=1
// it also reads a POST's body and parses it as JSON, the least a server of a JSON API must do: the
// gap between the two is what parsing costs, before any framework.
import { createServer } from "node:http";

const accounts = JSON.stringify(JSON.parse(process.env.BENCH_BODY ?? "[]"));
const parseBody = process.env.BENCH_PARSE_BODY === "1";
createServer((req, res) => {
  if (req.method === "POST") {
    if (!parseBody) {
      req.resume();
      req.on("end", () => res.writeHead(201, { "content-type": "application/json" }).end(accounts));
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
        res.writeHead(400).end();
        return;
      }
      res.writeHead(201, { "content-type": "application/json" }).end(accounts);
    });
    return;
  }
  res.writeHead(200, { "content-type": "application/json" }).end(accounts);
}).listen(Number(process.env.PORT), "127.0.0.1");

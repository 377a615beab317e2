// The baseline: the least a Node HTTP server can do to answer the same JSON.
import { createServer } from "node:http";

const accounts = JSON.stringify(JSON.parse(process.env.BENCH_BODY ?? "[]"));
createServer((req, res) => {
  if (req.method === "POST") {
    req.resume();
    req.on("end", () => res.writeHead(201, { "content-type": "application/json" }).end(accounts));
    return;
  }
  res.writeHead(200, { "content-type": "application/json" }).end(accounts);
}).listen(Number(process.env.PORT), "127.0.0.1");

// The framework's floor: the sandbox's own Fastify setup (server-kit's createApiServer: JSON body
// parser, request ids, error shapes) answering the same JSON with no sandbox behind it. What separates
// the sandbox from this is the sandbox's own work; what separates this from node:http is Fastify's.
//
// It sends the very text the trivial server sends, serialized once at start as that server does.
// Serializing an answer is the application's work, not the framework's (the sandbox compiles a
// serializer per hot route, and its rows carry that cost); a JSON.stringify per request here had
// cost this row about 0.15 of its ratio, and charged it to Fastify. The handlers return their answer,
// as the sandbox's do (see server-kit's README: returning the reply costs every answer a stream watch).
import { createApiServer } from "@payspec/server-kit";

const accounts = JSON.stringify(JSON.parse(process.env.BENCH_BODY ?? "[]"));
const app = createApiServer({ operations: ["GET /v1/accounts", "POST /v1/payments"] });
app.get("/", async () => ({ ok: true }));
app.get("/v1/accounts", async (_request, reply) => {
  reply.type("application/json");
  return accounts;
});
app.post("/v1/payments", async (_request, reply) => {
  reply.code(201).type("application/json");
  return accounts;
});
await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });

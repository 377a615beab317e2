// The framework's floor: the sandbox's own Fastify setup (server-kit's createApiServer: JSON body
// parser, request ids, error shapes) answering the same JSON with no sandbox behind it. What separates
// the sandbox from this is the sandbox's own work; what separates this from node:http is Fastify's.
import { createApiServer } from "@payspec/server-kit";

const accounts = JSON.parse(process.env.BENCH_BODY ?? "[]") as unknown;
const app = createApiServer({ operations: ["GET /v1/accounts", "POST /v1/payments"] });
app.get("/", async () => ({ ok: true }));
app.get("/v1/accounts", async () => accounts);
app.post("/v1/payments", async (_request, reply) => reply.code(201).send(accounts));
await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });

// Fastify as it comes (`Fastify()`, its own JSON body parser, no hooks) answering the same JSON: what
// separates it from node:http is Fastify's own cost, and what separates the framework's floor from
// it is server-kit's (request ids, the strict body parser, error shapes, 405s).
import Fastify from "fastify";

const accounts = JSON.parse(process.env.BENCH_BODY ?? "[]") as unknown;
const app = Fastify({ logger: false });
app.get("/", async () => ({ ok: true }));
app.get("/v1/accounts", async () => accounts);
app.post("/v1/payments", async (_request, reply) => reply.code(201).send(accounts));
await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });

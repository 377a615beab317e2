// Fastify as it comes (`Fastify()`, its own JSON body parser, no hooks) answering the same JSON: what
// separates it from node:http is Fastify's own cost, and what separates the framework's floor from
// it is server-kit's (request ids, the strict body parser, error shapes, 405s). Like the floor, it
// sends the text the trivial server sends, serialized once at start: on POST this row is the most
// any Fastify setup can reach on this machine.
import Fastify from "fastify";

const accounts = JSON.stringify(JSON.parse(process.env.BENCH_BODY ?? "[]"));
const app = Fastify({ logger: false });
app.get("/", async () => ({ ok: true }));
app.get("/v1/accounts", async (_request, reply) => reply.type("application/json").send(accounts));
app.post("/v1/payments", async (_request, reply) => reply.code(201).type("application/json").send(accounts));
await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });

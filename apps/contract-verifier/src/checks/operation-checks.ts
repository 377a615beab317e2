import { boundaryCases, pointerOf, resolveRef } from "@payspec/specs";
import { JSONSchemaFaker } from "json-schema-faker";
import type { Check } from "../check.js";
import type { SendOptions, VerifyContext } from "../context.js";
import {
  dereference,
  jsonMediaType,
  type OperationInfo,
  type OperationRequest,
  operationNode,
  operationParameters,
  operationsOf,
  toSend,
  validRequest,
  withAccounts,
} from "../operation-requests.js";
import type { ApiName } from "../options.js";
import { describeReply, expectClientError, expectConformance, expectSuccess } from "./expectations.js";

// biome-ignore lint/suspicious/noExplicitAny: walks an untyped OpenAPI document
type Node = Record<string, any>;

/** A query or path value as the server reads it back from its text, by the parameter's schema. */
function asReceived(schema: Node | undefined, value: unknown): unknown {
  const text = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));
  const read = (type: unknown, raw: string): unknown => {
    if ((type === "integer" || type === "number") && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(raw)) return Number(raw);
    if (type === "boolean" && (raw === "true" || raw === "false")) return raw === "true";
    return raw;
  };
  if (schema?.type === "array")
    return (Array.isArray(value) ? value : [value]).map((v) => read(schema.items?.type, text(v)));
  return read(schema?.type, text(value));
}

/** Every request part a negative case can break: the body, and each query and path parameter. */
function negativeVariants(ctx: VerifyContext, api: ApiName, op: OperationInfo, valid: OperationRequest) {
  const spec = ctx.api(api).spec as Node;
  const node = operationNode(spec, op);
  const variants: { label: string; send: ReturnType<typeof toSend> }[] = [];
  const media = jsonMediaType(node);
  if (media && valid.body !== undefined) {
    const pointer = pointerOf("paths", op.template, op.method.toLowerCase(), "requestBody", "content", media, "schema");
    for (const c of boundaryCases(spec, pointer, valid.body)) {
      if (!ctx.api(api).validator.validate(pointer, c.value).valid)
        variants.push({ label: `body ${c.label}`, send: toSend(valid, { body: c.value }) });
    }
  }
  for (const { param, at } of operationParameters(spec, op)) {
    const where = param.in === "path" ? "pathParams" : param.in === "query" ? "query" : undefined;
    if (!where) continue;
    const schemaPointer = pointerOf(...at, "schema");
    if (param.required && where === "query") {
      const { [param.name]: _dropped, ...rest } = valid.query;
      variants.push({ label: `query ${param.name} missing`, send: toSend(valid, { query: rest }) });
    }
    const current = (valid[where] as Record<string, unknown>)[param.name];
    const sample = current ?? (param.schema?.type === "integer" ? 1 : "x");
    const schema = dereference(spec, param.schema) as Node | undefined;
    for (const c of boundaryCases(spec, schemaPointer, sample)) {
      // What the server reads is text: `limit=5` is the number 5, `tags=1` a list of one tag. A case
      // whose text reads as valid breaks nothing.
      if (ctx.api(api).validator.validate(schemaPointer, asReceived(schema, c.value)).valid) continue;
      // A path segment cannot be empty or a non-string; those are other routes, not this operation.
      if (where === "pathParams" && (typeof c.value !== "string" || c.value.trim() === "")) continue;
      variants.push({
        label: `${param.in} ${param.name}: ${c.label.replace(/^\(root\): /, "")}`,
        send: toSend(valid, { [where]: { ...valid[where], [param.name]: c.value } }),
      });
    }
  }
  return variants;
}

/** Schema-generated data for the parts the spec describes, seeded; payments keep the workspace's accounts. */
async function generatedRequest(
  ctx: VerifyContext,
  api: ApiName,
  op: OperationInfo,
  valid: OperationRequest,
): Promise<OperationRequest> {
  const spec = ctx.api(api).spec as Node;
  const node = operationNode(spec, op);
  JSONSchemaFaker.option({
    random: ctx.random,
    alwaysFakeOptionals: true,
    useExamplesValue: false,
    fillProperties: false,
    failOnInvalidTypes: false,
  });
  let body = valid.body;
  const media = jsonMediaType(node);
  if (media) {
    body = JSONSchemaFaker.generate(dereference(spec, node.requestBody.content[media].schema) as never);
    const pair = api === "payments" ? await ctx.accountPair() : undefined;
    if (pair && op.operationId === "createPayment") body = withAccounts(body as Node, pair);
    if (pair && op.operationId === "createPaymentBatch") {
      body = {
        payments: ((body as Node).payments as Node[])
          .slice(0, 5)
          .map(() =>
            withAccounts(
              JSONSchemaFaker.generate(dereference(spec, spec.components.schemas.PaymentCreate) as never) as Node,
              pair,
            ),
          ),
      };
    }
  }
  const query: Record<string, unknown> = { ...valid.query };
  for (const raw of node.parameters ?? []) {
    const [param] = resolveRef(spec, raw, []);
    if (param.in === "query" && !(param.name in query) && !["cursor", "from", "to"].includes(param.name)) {
      query[param.name] = JSONSchemaFaker.generate(dereference(spec, param.schema) as never);
    }
  }
  return { ...valid, body, query };
}

/** The security requirements that apply to an operation; none when any of them is the empty (optional) one. */
function securityOf(spec: Node, node: Node): Node[] {
  const requirements: Node[] = node.security ?? spec.security ?? [];
  return requirements.some((r) => Object.keys(r).length === 0) ? [] : requirements;
}

/** Credentials of the right kind for the operation's first security requirement, but wrong. */
function wrongCredentials(spec: Node, requirement: Node): Pick<SendOptions, "headers"> & { query: Node } {
  const headers: Record<string, string> = {};
  const query: Node = {};
  for (const name of Object.keys(requirement)) {
    const scheme: Node = spec.components?.securitySchemes?.[name] ?? {};
    if (scheme.type === "apiKey" && scheme.in === "header") headers[String(scheme.name).toLowerCase()] = "invalid-key";
    else if (scheme.type === "apiKey" && scheme.in === "query") query[scheme.name] = "invalid-key";
    else if (scheme.type === "apiKey" && scheme.in === "cookie") headers.cookie = `${scheme.name}=invalid-key`;
    else if (scheme.type === "http" && String(scheme.scheme).toLowerCase() === "basic")
      headers.authorization = `Basic ${Buffer.from("invalid:invalid").toString("base64")}`;
    else headers.authorization = "Bearer invalid-token";
  }
  return { headers, query };
}

/** The per-operation checks: valid examples, generated data, every constraint broken, no credentials. */
export function operationChecks(api: ApiName, spec: object): Check[] {
  const anySpec = api === "openapi";
  return operationsOf(api, spec).flatMap((op): Check[] => {
    const name = `${op.method} ${op.template}`;
    const node = operationNode(spec, op);
    const isLogin = op.operationId === "login";
    // The payspec APIs declare their auth; any other spec says in its security requirements.
    const security = anySpec ? securityOf(spec as Node, node) : [{}];
    const unauthorised = anySpec ? "401 or 403" : "401";
    const checks: Check[] = [
      {
        id: `positive.${op.operationId}`,
        title: anySpec
          ? `${op.operationId}: a valid request from the spec's examples gets a declared, conforming answer, never a 5xx`
          : `${op.operationId}: a valid request from the spec's examples gets a conforming 2xx`,
        api,
        profile: "schema",
        operation: name,
        async run(run) {
          const request = await validRequest(run.ctx, op);
          if (node.requestBody?.required && request.body === undefined)
            run.skip(`its request body is not JSON (${Object.keys(node.requestBody.content ?? {}).join(", ")})`);
          const reply = await run.send(toSend(request));
          if (!anySpec) return void expectSuccess(run, api, reply);
          // Without knowing the API, a valid request may still meet a 404 (an id that does not exist):
          // what any provider owes it is a declared answer that conforms, and never a server error.
          run.expect(reply.status < 500, {
            expected: "no 5xx for a request the spec allows",
            actual: describeReply(reply),
            exchange: reply,
          });
          expectConformance(run, api, reply);
        },
      },
      {
        id: `negative.${op.operationId}`,
        title: `${op.operationId}: each constraint broken gets a declared 4xx in the error shape`,
        api,
        profile: "schema",
        operation: name,
        async run(run) {
          const valid = await validRequest(run.ctx, op);
          const variants = negativeVariants(run.ctx, api, op, valid);
          run.ctx.coverage.constraint(api, op.method, op.template, variants.length);
          if (variants.length === 0) run.skip("the operation takes no input to break");
          for (const variant of variants) {
            const reply = await run.send(variant.send);
            run.ctx.coverage.constraint(api, op.method, op.template, variants.length, variant.label);
            expectClientError(run, api, reply, undefined, variant.label);
          }
        },
      },
    ];
    const requirement = security[0];
    if (requirement) {
      checks.push(
        {
          id: `auth.missing.${op.operationId}`,
          title: `${op.operationId}: no credentials get ${unauthorised} in the error shape`,
          api,
          profile: "schema",
          operation: name,
          async run(run) {
            const request = await validRequest(run.ctx, op);
            const reply = await run.send({ ...toSend(request), auth: "none" });
            expectClientError(run, api, reply, anySpec ? [401, 403] : 401, "missing credentials");
          },
        },
        {
          id: `auth.invalid.${op.operationId}`,
          title: `${op.operationId}: wrong credentials get ${unauthorised} in the error shape`,
          api,
          profile: "behaviour",
          operation: name,
          async run(run) {
            const request = await validRequest(run.ctx, op);
            if (anySpec) {
              const wrong = wrongCredentials(spec as Node, requirement);
              const send = toSend({ ...request, query: { ...request.query, ...wrong.query } });
              const reply = await run.send({ ...send, auth: "none", headers: wrong.headers ?? {} });
              expectClientError(run, api, reply, [401, 403], "invalid credentials");
              return;
            }
            const authorization =
              api === "payments"
                ? `Bearer sk_invalid_${run.ctx.options.seed}`
                : isLogin
                  ? run.ctx.basicCredentials(run.ctx.options.gatewayKey, "not-the-secret")
                  : "Bearer not-a-token";
            expectClientError(
              run,
              api,
              await run.send({ ...toSend(request), auth: { authorization } }),
              401,
              "invalid credentials",
            );
          },
        },
      );
    }
    const pathParams = operationParameters(spec, op)
      .map(({ param }) => param)
      .filter((p) => p.in === "path");
    if (!anySpec && "404" in (node.responses ?? {}) && pathParams.length > 0) {
      checks.push({
        id: `notfound.${op.operationId}`,
        title: `${op.operationId}: a well-formed id that does not exist gets 404 in the error shape`,
        api,
        profile: "behaviour",
        operation: name,
        async run(run) {
          const request = await validRequest(run.ctx, op);
          JSONSchemaFaker.option({ random: run.ctx.random, useExamplesValue: false });
          const unknown = Object.fromEntries(
            pathParams.map((p: Node) => [
              p.name,
              String(JSONSchemaFaker.generate(dereference(spec as Node, p.schema) as never)),
            ]),
          );
          const reply = await run.send(toSend({ ...request, pathParams: unknown }));
          expectClientError(run, api, reply, 404, `an id that does not exist (${Object.values(unknown).join(", ")})`);
        },
      });
    }
    if (jsonMediaType(node) || (node.parameters ?? []).some((p: Node) => p.in === "query")) {
      checks.splice(1, 0, {
        id: `generated.${op.operationId}`,
        title: `${op.operationId}: schema-generated input gets a declared, conforming answer, never a 5xx`,
        api,
        profile: "schema",
        operation: name,
        async run(run) {
          const valid = await validRequest(run.ctx, op);
          for (let i = 0; i < 3; i++) {
            const reply = await run.send(toSend(await generatedRequest(run.ctx, api, op, valid)));
            run.expect(reply.status < 500, {
              expected: "no 5xx for a request the spec allows",
              actual: describeReply(reply),
              exchange: reply,
            });
            expectConformance(run, api, reply);
          }
        },
      });
    }
    return checks;
  });
}

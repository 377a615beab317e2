import { boundaryCases, pointerOf } from "@payspec/specs";
import type { Check, CheckRun } from "../check.js";
import type { SendOptions, VerifyContext } from "../context.js";
import type { RecordedExchange } from "../exchange.js";
import {
  anySpecRequest,
  bodyPointer,
  dereference,
  jsonMediaType,
  madeMediaType,
  type OperationRequest,
  operationNode,
  operationParameters,
  toSend,
  validRequest,
  withAccounts,
} from "../operation-requests.js";
import type { ApiName } from "../options.js";
import { generateData } from "../schema-data.js";
import { type OperationInfo, operationsOf } from "../spec-operations.js";
import { describeReply, expectClientError, expectConformance, expectSuccess } from "./expectations.js";

// biome-ignore lint/suspicious/noExplicitAny: walks an untyped OpenAPI document
type Node = Record<string, any>;

/**
 * A query or path value as the server reads it back from its text, by the parameter's schema (a
 * list sent `explode: false` is one comma-separated value).
 */
function asReceived(schema: Node | undefined, value: unknown, commaSeparated = false): unknown {
  const text = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));
  const read = (type: unknown, raw: string): unknown => {
    if ((type === "integer" || type === "number") && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(raw)) return Number(raw);
    if (type === "boolean" && (raw === "true" || raw === "false")) return raw === "true";
    return raw;
  };
  if (schema?.type === "array") {
    const items = Array.isArray(value)
      ? value
      : commaSeparated && typeof value === "string"
        ? value.split(",")
        : [value];
    return items.map((v) => read(schema.items?.type, text(v)));
  }
  return read(schema?.type, text(value));
}

/** Every request part a negative case can break: the body, and each query and path parameter. */
function negativeVariants(ctx: VerifyContext, api: ApiName, op: OperationInfo, valid: OperationRequest) {
  const spec = ctx.api(api).spec as Node;
  const node = operationNode(spec, op);
  const variants: { label: string; send: ReturnType<typeof toSend> }[] = [];
  // The same request reached twice (an allOf member repeating its parent's type) is one constraint.
  const seen = new Set<string>();
  const add = (label: string, send: ReturnType<typeof toSend>) => {
    const key = JSON.stringify([send.path, send.json]);
    if (seen.has(key)) return;
    seen.add(key);
    variants.push({ label, send });
  };
  const media = jsonMediaType(node);
  if (media && valid.body !== undefined) {
    const pointer = bodyPointer(op, media);
    for (const c of boundaryCases(spec, pointer, valid.body)) {
      if (!ctx.api(api).validator.validate(pointer, c.value).valid)
        add(`body ${c.label}`, toSend(valid, { body: c.value }));
    }
  }
  for (const { param, at } of operationParameters(spec, op)) {
    const where = param.in === "path" ? "pathParams" : param.in === "query" ? "query" : undefined;
    if (!where) continue;
    const schemaPointer = pointerOf(...at, "schema");
    if (param.required && where === "query") {
      const { [param.name]: _dropped, ...rest } = valid.query;
      add(`query ${param.name} missing`, toSend(valid, { query: rest }));
    }
    const current = (valid[where] as Record<string, unknown>)[param.name];
    const sample = current ?? (param.schema?.type === "integer" ? 1 : "x");
    const schema = dereference(spec, param.schema) as Node | undefined;
    for (const c of boundaryCases(spec, schemaPointer, sample)) {
      // What the server reads is text: `limit=5` is the number 5, `tags=1` a list of one tag. A case
      // whose text reads as valid breaks nothing.
      const received = asReceived(schema, c.value, param.explode === false);
      if (ctx.api(api).validator.validate(schemaPointer, received).valid) continue;
      // A path segment cannot be empty or a non-string; those are other routes, not this operation.
      if (where === "pathParams" && (typeof c.value !== "string" || c.value.trim() === "")) continue;
      add(
        `${param.in} ${param.name}: ${c.label.replace(/^\(root\): /, "")}`,
        toSend(valid, { [where]: { ...valid[where], [param.name]: c.value } }),
      );
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
  round: number,
): Promise<OperationRequest> {
  if (api === "openapi") return anySpecRequest(ctx, op, valid, round % 2 === 0 ? "every-property" : "required");
  const spec = ctx.api(api).spec as Node;
  const node = operationNode(spec, op);
  const generate = (schema: unknown) =>
    generateData(ctx.random, dereference(spec, schema), true, { openObjects: false });
  let body = valid.body;
  const media = jsonMediaType(node);
  if (media) {
    body = generate(node.requestBody.content[media].schema);
    const pair = api === "payments" ? await ctx.accountPair() : undefined;
    if (pair && op.operationId === "createPayment") body = withAccounts(body as Node, pair);
    if (pair && op.operationId === "createPaymentBatch") {
      body = {
        payments: ((body as Node).payments as Node[])
          .slice(0, 5)
          .map(() => withAccounts(generate(spec.components.schemas.PaymentCreate) as Node, pair)),
      };
    }
  }
  const query: Record<string, unknown> = { ...valid.query };
  for (const { param } of operationParameters(spec, op)) {
    if (param.in === "query" && !(param.name in query) && !["cursor", "from", "to"].includes(param.name)) {
      query[param.name] = generate(param.schema);
    }
  }
  return { ...valid, body, query };
}

/** The security requirements that apply to an operation; none when any of them is the empty (optional) one. */
function securityOf(spec: Node, node: Node): Node[] {
  const requirements: Node[] = node.security ?? spec.security ?? [];
  return requirements.some((r) => Object.keys(r).length === 0) ? [] : requirements;
}

/**
 * Why credentials of a security requirement cannot be left out or faked in a request, if they
 * cannot: a scheme the spec names but never declares (nothing says what it is), or mutualTLS (the
 * credential is the TLS client certificate, refused at the handshake, never an HTTP answer).
 */
function unusableRequirement(spec: Node, requirement: Node): string | undefined {
  for (const name of Object.keys(requirement)) {
    const scheme: Node | undefined = spec.components?.securitySchemes?.[name];
    if (!scheme)
      return `its security requirement names "${name}", which components.securitySchemes does not declare; declare it in the spec`;
    if (scheme.type === "mutualTLS")
      return `its credential is a TLS client certificate ("${name}", mutualTLS), which a server refuses at the handshake, not with an HTTP answer`;
  }
  return undefined;
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

/** Whether the operation declares a status, exactly, by its range (`4XX`) or (unless told not to) as `default`. */
function declares(node: Node, status: number, orByDefault = true): boolean {
  const code = String(status);
  return [code, `${code[0]}XX`, ...(orByDefault ? ["default"] : [])].some((key) => key in (node.responses ?? {}));
}

/** Whether the operation declares any success (2xx, 3xx, or a `default` that may be one). */
function declaresSuccess(node: Node): boolean {
  return Object.keys(node.responses ?? {}).some((key) => /^[23]/.test(key) || key === "default");
}

/**
 * A refusal of an --spec run: one of `allowed` (or any 4xx). When the spec declares no status it
 * could be, the provider is not at fault: the answer's shape is not judged and the spec gets a
 * warning that it should declare one.
 */
function expectAnySpecRefusal(
  run: CheckRun,
  op: OperationInfo,
  node: Node,
  reply: RecordedExchange,
  allowed: readonly number[] | undefined,
  why: string,
): void {
  const refused = allowed ? allowed.includes(reply.status) : reply.status >= 400 && reply.status < 500;
  if (refused && !declares(node, reply.status)) {
    const should = allowed ? allowed.join(" or ") : "400 or 422";
    const what = allowed ? why : "invalid input";
    run.warn(
      `${op.method} ${op.template}: ${reply.status} for ${what} is not declared; the spec should declare ${should}.`,
    );
    return;
  }
  expectClientError(run, "openapi", reply, allowed, why);
}

/** The refusal's own words, when it gives some (`message`, `error`, `detail`, `title`), clipped. */
function refusalReason(reply: RecordedExchange): string {
  const body = reply.body as Record<string, unknown> | undefined;
  const said = ["message", "error", "detail", "title"].map((k) => body?.[k]).find((v) => typeof v === "string");
  return typeof said === "string" ? `"${said.slice(0, 120)}"` : "no reason given";
}

/**
 * A 401 or 403 the operation does not declare is a finding about the spec (it should declare it),
 * in every check alike; any other answer is judged against the spec.
 */
function expectConformanceOrWarn(
  run: CheckRun,
  api: ApiName,
  op: OperationInfo,
  node: Node,
  reply: RecordedExchange,
): void {
  if ((reply.status === 401 || reply.status === 403) && !declares(node, reply.status)) {
    run.warn(`${op.method} ${op.template}: ${reply.status} is not declared; the spec should declare 401 or 403.`);
    return;
  }
  expectConformance(run, api, reply);
}

/**
 * Refusals that blame the request itself (malformed, unprocessable, too large, of the wrong type),
 * not the server's state (404, 409) or the credential (401, 403).
 */
const BLAMES_THE_REQUEST: readonly number[] = [400, 411, 413, 414, 415, 422, 431];

/** A valid request's answer was a refusal: a 4xx other than the 404 a made-up id may fairly get. */
function refused(reply: RecordedExchange, hasPathParams: boolean): boolean {
  if (reply.status === 404 && hasPathParams) return false;
  return reply.status >= 400 && reply.status < 500;
}

/** The per-operation checks: valid examples, generated data, every constraint broken, no credentials. */
export function operationChecks(api: ApiName, spec: object): Check[] {
  const anySpec = api === "openapi";
  return operationsOf(api, spec).flatMap((op): Check[] => {
    const name = `${op.method} ${op.template}`;
    const node = operationNode(spec, op);
    const isLogin = op.operationId === "login";
    const parameters = operationParameters(spec, op).map(({ param }) => param);
    const pathParams = parameters.filter((p) => p.in === "path");
    // The payspec APIs declare their auth; any other spec says in its security requirements.
    const security = anySpec ? securityOf(spec as Node, node) : [{}];
    const unauthorised = anySpec ? "401 or 403" : "401";
    const checks: Check[] = [
      {
        id: `positive.${op.operationId}`,
        operationId: op.operationId,
        title: anySpec
          ? `${op.operationId}: valid requests (the spec's examples, then generated data) are accepted with a declared, conforming answer, never a 5xx`
          : `${op.operationId}: a valid request from the spec's examples gets a conforming 2xx`,
        api,
        profile: "schema",
        operation: name,
        async run(run) {
          const request = await validRequest(run.ctx, op);
          if (node.requestBody?.required && request.body === undefined)
            run.skip(
              `its request body is none the run can make (${Object.keys(node.requestBody.content ?? {}).join(", ")}; it makes JSON, multipart/form-data and application/x-www-form-urlencoded)`,
            );
          const reply = await run.send(toSend(request));
          if (!anySpec) return void expectSuccess(run, api, reply);
          // Without knowing the API, a valid request may still meet a 404 (an id that does not exist):
          // what any provider owes it is a declared answer that conforms, and never a server error.
          // A refusal is tried again with generated data; refusing every valid request is a failure.
          const replies = [reply];
          for (const sampling of ["required", "every-property"] as const) {
            if (!replies.every((r) => refused(r, pathParams.length > 0))) break;
            replies.push(await run.send(toSend(anySpecRequest(run.ctx, op, request, sampling))));
          }
          for (const r of replies) {
            run.expect(r.status < 500, {
              expected: "no 5xx for a request the spec allows",
              actual: describeReply(r),
              exchange: r,
            });
            if (r.status >= 500 || refused(r, pathParams.length > 0)) continue;
            expectConformanceOrWarn(run, api, op, node, r);
          }
          const refusals = replies.filter((r) => refused(r, pathParams.length > 0));
          const allDeclared = refusals.every((r) => declares(node, r.status, false));
          const refusedAll = refusals.length === replies.length;
          run.ctx.acceptance.ran++;
          if (refusedAll && !refusals.every((r) => r.status === 401 || r.status === 403))
            run.ctx.acceptance.refusedAll.push(name);
          if (refusedAll && !declaresSuccess(node)) {
            run.warn(
              `${op.method} ${op.template}: no success status is declared (only ${Object.keys(node.responses ?? {}).join(", ")}); the spec should declare what a valid request gets.`,
            );
          } else if (
            refusedAll &&
            parameters.length === 0 &&
            !node.requestBody &&
            refusals.every((r) => BLAMES_THE_REQUEST.includes(r.status))
          ) {
            // Nothing in the request but credentials: no business rule can find fault with it.
            run.expect(false, {
              expected:
                "a request with no parameters and no body accepted (it holds nothing but credentials, so nothing in it can be invalid)",
              actual: `every valid request was refused: ${refusals.map((r) => describeReply(r)).join("; ")}`,
              exchange: refusals[0],
            });
          } else if (refusedAll && allDeclared && !run.ctx.options.strictAcceptance) {
            // A declared 4xx is the API keeping a rule the run cannot know (a wrong password, an
            // example that exists already, a token whose type cannot do this): counted, not failed.
            const statuses = [...new Set(refusals.map((r) => r.status))].join(", ");
            run.warn(
              `${op.method} ${op.template}: every valid request got a declared ${statuses} (${refusalReason(refusals[0] as RecordedExchange)}); a business rule or the credential's scope, not counted as a failure (--strict-acceptance fails it).`,
            );
          } else if (
            refusals.length === replies.length &&
            refusals.every((r) => r.status === 401 || r.status === 403)
          ) {
            // An undeclared 401/403 is a finding about the spec in every check alike, and here most
            // likely a credential of the wrong kind for this operation: a warning that says which.
            const statuses = [...new Set(refusals.map((r) => r.status))].join(", ");
            run.warn(
              `${op.method} ${op.template}: every valid request got an undeclared ${statuses} (${refusalReason(refusals[0] as RecordedExchange)}); the spec should declare it, and if this operation takes another credential, give it with --auth SCHEME@OPERATIONS=VALUE.`,
            );
          } else if (refusals.length === replies.length) {
            run.expect(false, {
              expected: "valid data accepted: a 2xx (or a 404 for an id that does not exist)",
              actual: `every valid request was refused: ${refusals.map((r) => describeReply(r)).join("; ")}`,
              exchange: refusals[0],
            });
          }
        },
      },
      {
        id: `negative.${op.operationId}`,
        operationId: op.operationId,
        title: `${op.operationId}: each constraint broken gets a declared 4xx in the error shape`,
        api,
        profile: "schema",
        operation: name,
        async run(run) {
          // Every property of the schema, not only those the example happens to have, has constraints to break.
          const valid = anySpec
            ? anySpecRequest(run.ctx, op, await validRequest(run.ctx, op), "every-property")
            : await validRequest(run.ctx, op);
          const variants = negativeVariants(run.ctx, api, op, valid);
          run.ctx.coverage.constraint(api, op.method, op.template, variants.length);
          if (variants.length === 0) run.skip("the operation takes no input to break");
          for (const variant of variants) {
            const reply = await run.send(variant.send);
            run.ctx.coverage.constraint(api, op.method, op.template, variants.length, variant.label);
            if (anySpec) expectAnySpecRefusal(run, op, node, reply, undefined, variant.label);
            else expectClientError(run, api, reply, undefined, variant.label);
          }
        },
      },
    ];
    const requirement = security[0];
    const unusable = requirement && anySpec ? unusableRequirement(spec as Node, requirement) : undefined;
    if (requirement) {
      checks.push(
        {
          id: `auth.missing.${op.operationId}`,
          operationId: op.operationId,
          title: `${op.operationId}: no credentials get ${unauthorised} in the error shape`,
          api,
          profile: "schema",
          operation: name,
          async run(run) {
            if (unusable) run.skip(unusable);
            const request = await validRequest(run.ctx, op);
            const reply = await run.send({ ...toSend(request), auth: "none" });
            if (anySpec) expectAnySpecRefusal(run, op, node, reply, [401, 403], "missing credentials");
            else expectClientError(run, api, reply, 401, "missing credentials");
          },
        },
        {
          id: `auth.invalid.${op.operationId}`,
          operationId: op.operationId,
          title: `${op.operationId}: wrong credentials get ${unauthorised} in the error shape`,
          api,
          // Any spec's run cannot know which states a call changes, but wrong credentials change none.
          profile: anySpec ? "schema" : "behaviour",
          operation: name,
          async run(run) {
            if (unusable) run.skip(unusable);
            const request = await validRequest(run.ctx, op);
            if (anySpec) {
              const wrong = wrongCredentials(spec as Node, requirement);
              const send = toSend({ ...request, query: { ...request.query, ...wrong.query } });
              const reply = await run.send({ ...send, auth: "none", headers: { ...send.headers, ...wrong.headers } });
              expectAnySpecRefusal(run, op, node, reply, [401, 403], "invalid credentials");
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
    if (!anySpec && "404" in (node.responses ?? {}) && pathParams.length > 0) {
      checks.push({
        id: `notfound.${op.operationId}`,
        operationId: op.operationId,
        title: `${op.operationId}: a well-formed id that does not exist gets 404 in the error shape`,
        api,
        profile: "behaviour",
        operation: name,
        async run(run) {
          const request = await validRequest(run.ctx, op);
          const unknown = Object.fromEntries(
            pathParams.map((p: Node) => [
              p.name,
              String(generateData(run.ctx.random, dereference(spec as Node, p.schema), false)),
            ]),
          );
          const reply = await run.send(toSend({ ...request, pathParams: unknown }));
          expectClientError(run, api, reply, 404, `an id that does not exist (${Object.values(unknown).join(", ")})`);
        },
      });
    }
    if (madeMediaType(node) || parameters.some((p) => p.in === "query" || (anySpec && p.in === "path"))) {
      checks.splice(1, 0, {
        id: `generated.${op.operationId}`,
        operationId: op.operationId,
        title: `${op.operationId}: schema-generated input gets a declared, conforming answer, never a 5xx`,
        api,
        profile: "schema",
        operation: name,
        async run(run) {
          const valid = await validRequest(run.ctx, op);
          for (let i = 0; i < 3; i++) {
            const reply = await run.send(toSend(await generatedRequest(run.ctx, api, op, valid, i)));
            run.expect(reply.status < 500, {
              expected: "no 5xx for a request the spec allows",
              actual: describeReply(reply),
              exchange: reply,
            });
            expectConformanceOrWarn(run, api, op, node, reply);
          }
        },
      });
    }
    return checks;
  });
}

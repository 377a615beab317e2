import type { FastifyInstance } from "fastify";
import { ApiFailure } from "./api-failure.js";
import { MAX_JSON_NESTING, tooDeepAt } from "./json-nesting.js";
import { jsonErrorPosition, positionOf } from "./json-syntax-error.js";

declare module "fastify" {
  interface FastifyRequest {
    /**
     * A JSON body's text as it came, once it has parsed: what a request log keeps, so it need not
     * serialize the parsed body again. Undefined for a request without one.
     */
    bodyText: string | undefined;
  }
}

/** The largest body either API accepts (a full 500-entry batch is about 150 KiB). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Says where the JSON broke, never what it held: the parser's own message quotes the text around the fault. */
function notJsonMessage(body: string): string {
  const at = jsonErrorPosition(body);
  const where = at ? ` at line ${at.line}, column ${at.column} (byte ${at.byteOffset})` : "";
  return `The body is not valid JSON${where}; check the quotes, commas and brackets there.`;
}

/** Refused before parsing, so no later step (validation, card-number search, request log) can recurse on it. */
function tooDeep(body: string, offset: number): ApiFailure {
  const at = positionOf(body, offset);
  return new ApiFailure(
    "invalid_request",
    `The body nests arrays and objects more than ${MAX_JSON_NESTING} levels deep (level ${MAX_JSON_NESTING + 1} ` +
      `opens at line ${at.line}, column ${at.column}); no request of this API needs more than a few levels.`,
    { param: "body" },
  );
}

/**
 * JSON bodies only. Arrays and objects nest at most MAX_JSON_NESTING levels. An empty body is allowed (the gateway's login sends none); malformed JSON is a
 * 400 that says where parsing stopped, never a hang and never a 500. Other content types are
 * refused with a 400 that names the expected one.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.decorateRequest("bodyText", undefined);
  app.addContentTypeParser(
    "application/json",
    { parseAs: "string", bodyLimit: BODY_LIMIT_BYTES },
    (request, body: string, done) => {
      if (body.trim() === "") return done(null, undefined);
      const deep = tooDeepAt(body);
      if (deep !== undefined) return done(tooDeep(body, deep), undefined);
      try {
        const parsed: unknown = JSON.parse(body);
        request.bodyText = body;
        done(null, parsed);
      } catch {
        done(new ApiFailure("invalid_request", notJsonMessage(body)), undefined);
      }
    },
  );
  // Anything else is refused, unless it turns out to carry no body at all (the gateway's login sends
  // none, and some clients still announce an empty chunked body). The body is read to find out.
  app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: BODY_LIMIT_BYTES }, (request, body: Buffer, done) => {
    if (body.length === 0) return done(null, undefined);
    done(
      new ApiFailure(
        "invalid_request",
        `Content-Type must be application/json, got "${request.headers["content-type"] ?? "none"}".`,
        { param: "Content-Type" },
      ),
      undefined,
    );
  });
}

import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiFailure, apiOf } from "./api-failure.js";
import { BODY_LIMIT_BYTES } from "./json-body-parser.js";

/** Fastify's own client errors, in words a caller can act on, never quoting what was sent. */
export function fromFastify(error: FastifyError): ApiFailure {
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new ApiFailure("invalid_request", `The body is larger than ${BODY_LIMIT_BYTES} bytes.`);
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new ApiFailure("invalid_request", "Content-Type must be application/json.", { param: "Content-Type" });
    case "FST_ERR_BAD_URL":
      return new ApiFailure("invalid_request", "The path has a malformed percent-encoding (%XX); encode it again.");
    case "FST_ERR_MAX_PARAM_LENGTH":
      return new ApiFailure("not_found", "No such resource: a path parameter is longer than any id this API issues.");
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return new ApiFailure("invalid_request", "The body is empty; send a JSON body.");
    default:
      if ((error.statusCode ?? 500) < 500)
        return new ApiFailure("invalid_request", "The request is malformed; check its headers and body.");
      return new ApiFailure("internal_error", "Something went wrong on our side. Retry later.");
  }
}

export function send(reply: FastifyReply, request: FastifyRequest, failure: ApiFailure): FastifyReply {
  if (failure.options.retryAfterSeconds !== undefined)
    reply.header("retry-after", String(failure.options.retryAfterSeconds));
  const body = apiOf(request.url) === "gateway" ? failure.gatewayBody() : failure.paymentsBody();
  return reply.code(failure.status).type("application/json").send(body);
}

/** The methods the APIs answer on a path, so a wrong method gets 405 with `Allow` rather than 404. */
export type AllowedMethods = (path: string) => readonly string[];

/** 405 with `Allow`: the path exists, the method does not. */
export function sendMethodNotAllowed(
  reply: FastifyReply,
  request: FastifyRequest,
  allowed: readonly string[],
): FastifyReply {
  reply.header("Allow", allowed.join(", "));
  const message = `${request.method} is not allowed on this path; use ${allowed.join(" or ")}.`;
  return send(reply, request, new ApiFailure("invalid_request", message, { status: 405 }));
}

/**
 * What a server knows of its own failures beyond Fastify's: an error that means a backing service
 * (its database) is out of reach for now, as the failure to answer with (a 503 with Retry-After), or
 * undefined for any other error.
 */
export type FailureOf = (error: unknown) => ApiFailure | undefined;

/** Every failure, expected or not, answers in the called API's error shape. */
export function registerErrorHandling(
  app: FastifyInstance,
  allowedMethods: AllowedMethods = () => [],
  failureOf: FailureOf = () => undefined,
): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const failure = error instanceof ApiFailure ? error : (failureOf(error) ?? fromFastify(error));
    if (failure.status >= 500) request.log.error({ err: error }, "unhandled server error");
    return send(reply, request, failure);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0] ?? "";
    const allowed = allowedMethods(path);
    if (allowed.length > 0) {
      reply.header("Allow", allowed.join(", "));
      return send(
        reply,
        request,
        new ApiFailure(
          "invalid_request",
          `${request.method} is not allowed on this path; use ${allowed.join(" or ")}.`,
          {
            status: 405,
          },
        ),
      );
    }
    return send(reply, request, new ApiFailure("not_found", `No route ${request.method} ${path}.`));
  });
}

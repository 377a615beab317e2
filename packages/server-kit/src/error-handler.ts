import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiFailure, apiOf } from "./api-failure.js";
import { BODY_LIMIT_BYTES } from "./json-body-parser.js";

/** Fastify's own client errors, in words a caller can act on. */
function fromFastify(error: FastifyError): ApiFailure {
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new ApiFailure("invalid_request", `The body is larger than ${BODY_LIMIT_BYTES} bytes.`);
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new ApiFailure("invalid_request", "Content-Type must be application/json.", { param: "Content-Type" });
    default:
      if ((error.statusCode ?? 500) < 500) return new ApiFailure("invalid_request", error.message);
      return new ApiFailure("internal_error", "Something went wrong on our side. Retry later.");
  }
}

export function send(reply: FastifyReply, request: FastifyRequest, failure: ApiFailure): FastifyReply {
  const body = apiOf(request.url) === "gateway" ? failure.gatewayBody() : failure.paymentsBody();
  return reply.code(failure.status).type("application/json").send(body);
}

/** Every failure, expected or not, answers in the called API's error shape. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const failure = error instanceof ApiFailure ? error : fromFastify(error);
    if (failure.status >= 500) request.log.error({ err: error }, "unhandled sandbox error");
    return send(reply, request, failure);
  });
  app.setNotFoundHandler((request, reply) =>
    send(reply, request, new ApiFailure("not_found", `No route ${request.method} ${request.url.split("?")[0]}.`)),
  );
}

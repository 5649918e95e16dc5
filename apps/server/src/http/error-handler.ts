import type { FastifyError, FastifyInstance } from "fastify";
import { ApiError } from "./api-error.ts";

/** Messages for the errors Fastify itself raises before a handler runs. */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: "Request body is too large.",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "Unsupported content type.",
  FST_ERR_CTP_EMPTY_JSON_BODY: "Request body is empty but the content type is JSON.",
  FST_ERR_CTP_INVALID_JSON_BODY: "Request body is not valid JSON.",
};

/** One error shape for the whole API: `{ success: false, message }` with a correct status. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError | Error, request, reply) => {
    if (error instanceof ApiError) {
      return reply.status(error.statusCode).send({ ...error.extra, success: false, message: error.message });
    }
    const fastifyError = error as FastifyError;
    const status = fastifyError.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, "request failed");
      return reply.status(status).send({ success: false, message: "Internal server error" });
    }
    const message = FRAMEWORK_MESSAGES[fastifyError.code] ?? error.message;
    return reply.status(status).send({ success: false, message });
  });
}

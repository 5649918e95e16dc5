import { textProblem } from "@switchboard/api";
import { cleanText, mapTextDeep } from "@switchboard/core";
import type { FastifyInstance, FastifyRequest } from "fastify";

/**
 * A request's text is cleaned before any route sees it: the query, the path parameters and a parsed body
 * lose C0 controls (tab, line feed and carriage return stay) and noncharacters, in values and keys, so they
 * never reach a page, a message, TwiML or a SIP header. A string holding NUL or a lone surrogate is left as
 * it is: the validation refuses the request with the field's name (`name: must not contain the NUL
 * character`), which tells the caller more than a silent change would.
 *
 * Form bodies are left alone: the only ones are the carriers' webhooks, whose signature covers the exact
 * parameters; their handlers clean what they keep.
 */
const cleanUnlessRefused = (text: string) => (textProblem(text) ? text : cleanText(text));

/** Deeper than the validation allows (it refuses the request), so not worth walking. */
const MAX_DEPTH = 80;

const clean = <T>(value: T): T => mapTextDeep(value, cleanUnlessRefused, MAX_DEPTH) as T;

const isFormBody = (request: FastifyRequest) =>
  (request.headers["content-type"] ?? "").toLowerCase().startsWith("application/x-www-form-urlencoded");

export function registerInputCleaning(app: FastifyInstance): void {
  app.addHook("preValidation", (request, _reply, done) => {
    request.query = clean(request.query);
    request.params = clean(request.params);
    if (request.body !== undefined && request.body !== null && !isFormBody(request))
      request.body = clean(request.body);
    done();
  });
}

import { type ApiClient, ApiRequestError, createApiClient } from "@switchboard/api";
import type { FastifyInstance, InjectOptions } from "fastify";
import { expect } from "vitest";

/** A `fetch` that answers through `app.inject`: no port, same request and answer as over the wire. */
export function injectFetch(app: FastifyInstance): typeof fetch {
  return async (input, init = {}) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const headers = new Headers(init.headers);
    let payload: InjectOptions["payload"];
    if (init.body instanceof FormData) {
      // Let Request encode the parts and choose the boundary, as fetch would.
      const encoded = new Request("http://inject.local", { method: "POST", body: init.body });
      headers.set("content-type", encoded.headers.get("content-type") ?? "");
      payload = Buffer.from(await encoded.arrayBuffer());
    } else if (typeof init.body === "string") {
      payload = init.body;
    } else if (init.body != null) {
      throw new Error("injectFetch: only JSON text and FormData bodies are supported");
    }
    const res = await app.inject({
      method: (init.method ?? "GET") as InjectOptions["method"],
      url,
      headers: Object.fromEntries(headers),
      ...(payload === undefined ? {} : { payload }),
    });
    const answerHeaders = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [String(value)]) answerHeaders.append(name, one);
    }
    const empty = res.statusCode === 204 || res.statusCode === 304 || init.method === "HEAD";
    return new Response(empty ? null : new Uint8Array(res.rawPayload), {
      status: res.statusCode,
      headers: answerHeaders,
    });
  };
}

/**
 * The typed client of packages/api over `app.inject`:
 * `await client(token).call(api.listContacts, { query })` answers the route's typed response and throws
 * `ApiRequestError` for a refusal (see `refusal` / `expectRefusal`). `client()` calls without a token.
 * `onResponse` sees each answer as fetch gives it, for a test that asserts on its headers.
 */
export function testClient(
  app: FastifyInstance,
  options: { onResponse?: (response: Response) => void } = {},
) {
  const inject = injectFetch(app);
  const { onResponse } = options;
  const fetch: typeof inject = onResponse
    ? async (input, init) => {
        const response = await inject(input, init);
        onResponse(response);
        return response;
      }
    : inject;
  return (token?: string | null, targetAccountId?: number | string | null): ApiClient =>
    createApiClient({ fetch, getToken: () => token, getTargetAccountId: () => targetAccountId });
}

export type TestClient = ReturnType<typeof testClient>;

/** A refused answer as the old `call()` gave it, for assertions on status and message. */
export type Refusal = {
  status: number;
  message: string;
  // biome-ignore lint/suspicious/noExplicitAny: a refusal's extra fields are asserted loosely.
  body: any;
};

/** The refusal of a call that must be refused; fails the test if the call succeeds. */
export async function refusal(promise: Promise<unknown>): Promise<Refusal> {
  try {
    const answer = await promise;
    throw new Error(`Expected a refusal, got a success: ${JSON.stringify(answer)?.slice(0, 500)}`);
  } catch (error) {
    if (!(error instanceof ApiRequestError)) throw error;
    return { status: error.status, message: error.message, body: error.body };
  }
}

/** Asserts that the call is refused with `status` (and `message`, when given); answers the refusal. */
export async function expectRefusal(
  promise: Promise<unknown>,
  status: number,
  message?: string | RegExp,
): Promise<Refusal> {
  const refused = await refusal(promise);
  expect(refused.status).toBe(status);
  if (typeof message === "string") expect(refused.message).toBe(message);
  else if (message) expect(refused.message).toMatch(message);
  return refused;
}

/**
 * The outcome of a call, success or refusal, as `{ status, body }`: for a test that polls until an answer
 * changes (success to refusal or back). Successes count as 200 (the API answers no other success status).
 */
export async function outcome<T>(
  promise: Promise<T>,
): Promise<{ status: number; body: T | Refusal["body"] }> {
  try {
    return { status: 200, body: await promise };
  } catch (error) {
    if (!(error instanceof ApiRequestError)) throw error;
    return { status: error.status, body: error.body };
  }
}

import type { FastifyInstance } from "fastify";

type CallOptions = {
  /** The session; undefined: the default person's; null or "": none. */
  token?: string | null;
  payload?: Record<string, unknown>;
  /** A form post (the sandbox's hosted pages). */
  form?: Record<string, string>;
};

/**
 * The money tests' request helper: an injected call with `token=` in the query (the default person's unless
 * given), a JSON or form body, and this server's Host (the sandbox pages build links from it; null for none).
 */
export function moneyCaller(
  app: () => FastifyInstance,
  defaultToken: () => string,
  host: string | null = "127.0.0.1:3000",
) {
  return (method: "GET" | "POST" | "PUT" | "DELETE", url: string, options: CallOptions = {}) => {
    const token = options.token === undefined ? defaultToken() : options.token;
    const sep = url.includes("?") ? "&" : "?";
    const hostHeader = host ? { host } : {};
    return app().inject({
      method,
      url: token ? `${url}${sep}token=${token}` : url,
      ...(options.form
        ? {
            payload: new URLSearchParams(options.form).toString(),
            headers: { "content-type": "application/x-www-form-urlencoded", ...hostHeader },
          }
        : options.payload
          ? { payload: options.payload, ...(host ? { headers: hostHeader } : {}) }
          : host
            ? { headers: hostHeader }
            : {}),
    });
  };
}

import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { FastifyInstance } from "fastify";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Smaller answers are not worth the work (and the header). */
const MIN_BYTES = 1024;
const COMPRESSIBLE = /^(application\/(json|problem\+json)|text\/(html|plain|csv|css))/;

/**
 * Compresses the server's own answers (JSON of the API, server-rendered pages) with brotli or gzip when the
 * client accepts it. Files of the web app's build are sent precompressed by @fastify/static (streams, left
 * as they are), so this sees only payloads the handlers built in memory. Issue #23: Lighthouse's "enable
 * text compression" named the dashboard's API answers.
 */
export function registerCompression(app: FastifyInstance): void {
  app.addHook("onSend", async (request, reply, payload) => {
    if (typeof payload !== "string" && !Buffer.isBuffer(payload)) return payload;
    if (reply.hasHeader("content-encoding") || request.method === "HEAD") return payload;
    if (!COMPRESSIBLE.test(String(reply.getHeader("content-type") ?? ""))) return payload;
    const size = Buffer.byteLength(payload);
    if (size < MIN_BYTES) return payload;
    const vary = String(reply.getHeader("vary") ?? "");
    if (!/accept-encoding/i.test(vary))
      reply.header("vary", vary ? `${vary}, accept-encoding` : "accept-encoding");
    const accepted = String(request.headers["accept-encoding"] ?? "");
    const encoding = /\bbr\b/.test(accepted) ? "br" : /\bgzip\b/.test(accepted) ? "gzip" : null;
    if (!encoding) return payload;
    const body =
      encoding === "br"
        ? await brotli(payload, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: 5,
              [constants.BROTLI_PARAM_SIZE_HINT]: size,
            },
          })
        : await gzipAsync(payload, { level: 6 });
    reply.header("content-encoding", encoding);
    reply.removeHeader("content-length");
    return body;
  });
}

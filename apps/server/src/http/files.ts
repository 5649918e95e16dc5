import type { FastifyInstance } from "fastify";
import type { StorageProvider } from "../providers/storage/storage-provider.ts";

/**
 * Uploaded files, read-only at /files/<key>. Names are random, so a file never changes: cached for a year.
 * Served as inert content: the type is fixed by the key, never sniffed, and nothing in a file can run.
 * A `Range: bytes=` request gets that part (206), so a browser can seek in a call's recording.
 */
export function registerFiles(app: FastifyInstance, storage: StorageProvider): void {
  app.get("/files/*", { schema: { hide: true } }, async (request, reply) => {
    const key = (request.params as { "*": string })["*"];
    const file = await storage.get(key);
    if (!file) {
      return reply.status(404).send({ success: false, message: `Not found: GET /files/${key}` });
    }
    reply
      .header("content-type", file.contentType)
      .header("cache-control", "public, max-age=31536000, immutable")
      .header("x-content-type-options", "nosniff")
      .header("content-security-policy", "default-src 'none'; sandbox")
      .header("accept-ranges", "bytes");
    const size = file.data.length;
    const range = byteRange(request.headers.range, size);
    if (range === "unsatisfiable") return reply.status(416).header("content-range", `bytes */${size}`).send();
    if (!range) return reply.send(file.data);
    return reply
      .status(206)
      .header("content-range", `bytes ${range.start}-${range.end}/${size}`)
      .send(file.data.subarray(range.start, range.end + 1));
  });
}

/** One `bytes=start-end` (or `start-`, or `-suffix`) range of a file of `size` bytes; null for none or others. */
export function byteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | "unsatisfiable" | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? "");
  if (!match || (match[1] === "" && match[2] === "")) return null;
  const [first, last] = [match[1] ?? "", match[2] ?? ""];
  const start = first === "" ? Math.max(0, size - Number(last)) : Number(first);
  const end = first === "" || last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || start > end) return "unsatisfiable";
  return { start, end };
}

import type { FastifyInstance } from "fastify";
import type { StorageProvider } from "../providers/storage/storage-provider.ts";

/**
 * Uploaded files, read-only at /files/<key>. Names are random, so a file never changes: cached for a year.
 * Served as inert content: the type is fixed by the key, never sniffed, and nothing in a file can run.
 */
export function registerFiles(app: FastifyInstance, storage: StorageProvider): void {
  app.get("/files/*", { schema: { hide: true } }, async (request, reply) => {
    const key = (request.params as { "*": string })["*"];
    const file = await storage.get(key);
    if (!file) {
      return reply.status(404).send({ success: false, message: `Not found: GET /files/${key}` });
    }
    return reply
      .header("content-type", file.contentType)
      .header("cache-control", "public, max-age=31536000, immutable")
      .header("x-content-type-options", "nosniff")
      .header("content-security-policy", "default-src 'none'; sandbox")
      .send(file.data);
  });
}

import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

const isApiPath = (url: string) => url === "/api" || url.startsWith("/api/") || url.startsWith("/internal/");

/**
 * Serves the built web app from the API's own port: hashed assets cached for a year, `index.html`
 * (never cached) for any other GET that is not an API path, a JSON 404 for unknown API paths.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<void> {
  const indexFile = path.join(distDir, "index.html");
  const built = existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: true,
      index: false,
      preCompressed: true,
      setHeaders(reply, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header("cache-control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
      },
    });
  } else {
    app.log.warn({ distDir }, "web app not built: run `npm run build` (npm start does it for you)");
  }

  app.get("/", { schema: { hide: true } }, (_request, reply) => reply.redirect("/app"));

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split("?")[0] ?? "/";
    if (isApiPath(pathname) || (request.method !== "GET" && request.method !== "HEAD")) {
      return reply.status(404).send({ success: false, message: `Not found: ${request.method} ${pathname}` });
    }
    if (!built) {
      return reply
        .status(503)
        .type("text/plain; charset=utf-8")
        .send(
          "The Switchboard web app is not built yet. Run `npm run build`, or `npm start` which builds it.",
        );
    }
    reply.header("cache-control", "no-cache");
    return reply.sendFile("index.html", distDir);
  });
}

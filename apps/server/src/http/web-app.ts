import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/** The last segment has a file extension (`.ico`, `.js`), as the app's own paths never do. */
const looksLikeFile = (pathname: string) => /\.[A-Za-z0-9]{1,8}$/.test(pathname.split("/").pop() ?? "");

const isApiPath = (url: string) => url === "/api" || url.startsWith("/api/") || url.startsWith("/internal/");

/**
 * Serves the built web app from the API's own port: hashed assets cached for a year, `index.html`
 * (never cached) for any other GET that is not an API path, a JSON 404 for unknown API paths.
 */
export async function registerWebApp(
  app: FastifyInstance,
  distDir: string,
  options: {
    /**
     * Public pages (`/{username}`): true when it answered, false to let the web app answer. A boolean, not
     * the reply: a reply is a thenable, and awaiting it yields undefined once it is sent.
     */
    servePage?: (request: FastifyRequest, reply: FastifyReply) => Promise<boolean>;
  } = {},
): Promise<void> {
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

  const notBuilt = (reply: FastifyReply) =>
    reply
      .status(503)
      .type("text/plain; charset=utf-8")
      .send("The Switchboard web app is not built yet. Run `npm run build`, or `npm start` which builds it.");

  // Public pages (`/{username}`, `/u/{username}`), rendered by the server: title, description and Open Graph
  // in the HTML. A one-segment path that names no page is a file of the build or the app's own page.
  const { servePage } = options;
  if (servePage) {
    const page = async (request: FastifyRequest, reply: FastifyReply) => {
      if (isApiPath(request.url.split("?")[0] ?? "/")) return reply.callNotFound();
      if (await servePage(request, reply)) return reply;
      if (!built) return notBuilt(reply);
      const name = (request.params as { name?: string }).name ?? "";
      if (name.includes(".") && !request.url.startsWith("/u/")) return reply.sendFile(name);
      reply.header("cache-control", "no-cache");
      return reply.sendFile("index.html", distDir);
    };
    app.get("/:name", { schema: { hide: true } }, page);
    app.get("/u/:name", { schema: { hide: true } }, page);
    app.get("/u/:name/card.svg", { schema: { hide: true } }, page);
    app.get("/u/:name/card.png", { schema: { hide: true } }, page);
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split("?")[0] ?? "/";
    if (isApiPath(pathname) || (request.method !== "GET" && request.method !== "HEAD")) {
      return reply.status(404).send({ success: false, message: `Not found: ${request.method} ${pathname}` });
    }
    if (!built) return notBuilt(reply);
    // A file the build does not have (an old asset, /favicon.ico) is a 404, not the app's page in its place.
    if (looksLikeFile(pathname))
      return reply.status(404).type("text/plain; charset=utf-8").send(`Not found: ${pathname}`);
    reply.header("cache-control", "no-cache");
    return reply.sendFile("index.html", distDir);
  });
}

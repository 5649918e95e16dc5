import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { buildOpenApiDocument, type RouteDefinition } from "@switchboard/api";
import type { FastifyInstance } from "fastify";

/** `/api/openapi.json`, generated from the route table, and a reference UI at `/api/docs`. */
export async function registerApiDocs(
  app: FastifyInstance,
  table: readonly RouteDefinition[],
  info: { version: string; publicUrl: string },
): Promise<void> {
  const document = buildOpenApiDocument(table, {
    title: "Switchboard API",
    version: info.version,
    serverUrl: info.publicUrl,
  });
  app.get("/api/openapi.json", { schema: { hide: true } }, () => document);
  await app.register(swagger, {
    mode: "static",
    // biome-ignore lint/suspicious/noExplicitAny: the plugin types want its own OpenAPI document type.
    specification: { document: document as any },
  });
  await app.register(swaggerUi, {
    routePrefix: "/api/docs",
    uiConfig: { docExpansion: "list", deepLinking: true },
  });
}

import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { buildOpenApiDocument, type RouteDefinition } from "@switchboard/api";
import type { FastifyInstance } from "fastify";

// The document of a route table and address, built once per process: building it turns every route's zod
// schemas into JSON Schema (a third of a second), and tests build an app per file or per test.
const documents = new WeakMap<
  readonly RouteDefinition[],
  Map<string, ReturnType<typeof buildOpenApiDocument>>
>();

function documentOf(table: readonly RouteDefinition[], info: { version: string; publicUrl: string }) {
  const byInfo = documents.get(table) ?? new Map<string, ReturnType<typeof buildOpenApiDocument>>();
  documents.set(table, byInfo);
  const key = `${info.version} ${info.publicUrl}`;
  let document = byInfo.get(key);
  if (!document) {
    document = buildOpenApiDocument(table, {
      title: "Switchboard API",
      version: info.version,
      serverUrl: info.publicUrl,
    });
    byInfo.set(key, document);
  }
  return document;
}

/** `/api/openapi.json`, generated from the route table, and a reference UI at `/api/docs`. */
export async function registerApiDocs(
  app: FastifyInstance,
  table: readonly RouteDefinition[],
  info: { version: string; publicUrl: string },
): Promise<void> {
  const document = documentOf(table, info);
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

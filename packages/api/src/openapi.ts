import { z } from "zod";
import { errorResponseSchema } from "./errors.ts";
import { pathParamNames, type RouteDefinition } from "./route.ts";
import {
  WEBHOOK_PAYLOAD_VERSION,
  webhookEnvelopeSchema,
  webhookEventDataSchemas,
} from "./routes/webhooks.ts";

type JsonSchema = Record<string, unknown>;

const toSchema = (schema: z.ZodType, io: "input" | "output"): JsonSchema => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return rest;
};

function parametersOf(route: RouteDefinition): JsonSchema[] {
  const parameters: JsonSchema[] = [];
  const pathSchema = route.params
    ? (toSchema(route.params, "input") as { properties?: Record<string, JsonSchema> })
    : {};
  for (const name of pathParamNames(route.path)) {
    parameters.push({
      name,
      in: "path",
      required: true,
      schema: pathSchema.properties?.[name] ?? { type: "string" },
    });
  }
  if (route.query) {
    const querySchema = toSchema(route.query, "input") as {
      properties?: Record<string, JsonSchema>;
      required?: string[];
    };
    for (const [name, schema] of Object.entries(querySchema.properties ?? {})) {
      parameters.push({ name, in: "query", required: querySchema.required?.includes(name) ?? false, schema });
    }
  }
  return parameters;
}

/** The OpenAPI 3.1 document of the whole route table. */
export function buildOpenApiDocument(
  table: readonly RouteDefinition[],
  info: { title: string; version: string; serverUrl?: string },
): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const errorSchema = toSchema(errorResponseSchema, "output");
  for (const route of table) {
    const responses: Record<string, JsonSchema> = {
      "200": route.response
        ? {
            description: "Success",
            content: { "application/json": { schema: toSchema(route.response, "output") } },
          }
        : { description: "Success", content: { [route.produces ?? "application/octet-stream"]: {} } },
      "4XX": {
        description: "Refused: `{ success: false, message }`",
        content: { "application/json": { schema: errorSchema } },
      },
    };
    const operation: JsonSchema = {
      operationId: route.id,
      summary: route.summary,
      tags: [route.tag],
      parameters: parametersOf(route),
      responses,
    };
    if (route.body) {
      operation.requestBody = {
        required: true,
        content: { "application/json": { schema: toSchema(route.body, "input") } },
      };
    } else if (route.consumes === "multipart/form-data") {
      operation.requestBody = {
        required: true,
        content: {
          "multipart/form-data": {
            schema: { type: "object", properties: { image: { type: "string", format: "binary" } } },
          },
        },
      };
    }
    if (route.auth !== "none") {
      operation.security =
        route.auth === "adminToken" ? [{ adminToken: [] }] : [{ token: [] }, { bearer: [] }];
      if (route.permission) operation["x-permission"] = route.permission;
      if (route.sessionOnly) operation["x-session-only"] = true;
    }
    paths[route.path] ??= {};
    (paths[route.path] as Record<string, JsonSchema>)[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: "3.1.0",
    info: { title: info.title, version: info.version },
    ...(info.serverUrl ? { servers: [{ url: info.serverUrl }] } : {}),
    components: {
      securitySchemes: {
        token: { type: "apiKey", in: "query", name: "token" },
        adminToken: { type: "apiKey", in: "query", name: "adminToken" },
        bearer: { type: "http", scheme: "bearer" },
      },
    },
    paths,
    webhooks: webhookEvents(),
  };
}

const SIGNATURE_HEADERS: JsonSchema[] = [
  { name: "webhook-id", in: "header", required: true, schema: { type: "string" } },
  { name: "webhook-timestamp", in: "header", required: true, schema: { type: "string" } },
  {
    name: "webhook-signature",
    in: "header",
    required: true,
    description:
      "`v1,<base64 HMAC-SHA256 of id.timestamp.body>` under the endpoint's secret (the base64 after `whsec_`); several, space-separated, while a rotated secret still signs.",
    schema: { type: "string" },
  },
];

/** The events an endpoint receives (OpenAPI 3.1 `webhooks`), one per type, with the envelope's version. */
function webhookEvents(): Record<string, JsonSchema> {
  const events: Record<string, JsonSchema> = {};
  for (const type of Object.keys(webhookEventDataSchemas) as (keyof typeof webhookEventDataSchemas)[]) {
    events[type] = {
      post: {
        operationId: `webhook:${type}`,
        summary: `${type} (payload version ${WEBHOOK_PAYLOAD_VERSION}), signed as Standard Webhooks says`,
        tags: ["Webhooks"],
        parameters: SIGNATURE_HEADERS,
        requestBody: {
          required: true,
          content: { "application/json": { schema: toSchema(webhookEnvelopeSchema(type), "output") } },
        },
        responses: {
          "2XX": { description: "Received. Any other answer, or none within 15 s, is retried." },
        },
      },
    };
  }
  return events;
}

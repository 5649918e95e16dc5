import { z } from "zod";
import { defineRoute } from "../route.ts";

export const healthz = defineRoute({
  id: "healthz",
  method: "GET",
  path: "/healthz",
  summary: "Liveness: the process is up.",
  tag: "System",
  auth: "none",
  response: z.object({ status: z.literal("ok"), uptimeSeconds: z.number() }),
});

export const readyz = defineRoute({
  id: "readyz",
  method: "GET",
  path: "/readyz",
  summary: "Readiness: the database answers.",
  tag: "System",
  auth: "none",
  response: z.object({ status: z.literal("ready"), database: z.enum(["pglite", "postgres"]) }),
});

export const systemInfoSchema = z.object({
  success: z.literal(true),
  name: z.string(),
  version: z.string(),
  environment: z.enum(["development", "test", "production"]),
  database: z.enum(["pglite", "postgres"]),
  publicUrl: z.string(),
  instanceId: z.string(),
  startedAt: z.string(),
  activeInstances: z.number().int(),
});
export type SystemInfo = z.infer<typeof systemInfoSchema>;

export const systemInfo = defineRoute({
  id: "systemInfo",
  method: "GET",
  path: "/api/v1/system/info",
  summary: "Build, version and the configuration a user may see (shown by the debug overlay).",
  tag: "System",
  auth: "none",
  response: systemInfoSchema,
});

export const systemRoutes = [healthz, readyz, systemInfo] as const;

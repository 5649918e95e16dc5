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
  summary:
    "Readiness: the database answers. `unexpectedErrors` counts the errors nobody handled since the process started (logged with their context; the process went on). `voiceWorkers` (when calls run in voice worker processes, VOICE_WORKERS) is each worker's state: `starting`, `up` or `restarting` (it stopped and starts again after a back-off), with its calls in progress (`calls`: those it answered or placed; `outboundCalls`: outbound calls it was asked to place that have not ended) and how often it was restarted; the API answers whatever they are.",
  tag: "System",
  auth: "none",
  response: z.object({
    status: z.literal("ready"),
    database: z.enum(["pglite", "postgres"]),
    unexpectedErrors: z.number().int().min(0),
    voiceWorkers: z
      .array(
        z.object({
          index: z.number().int().min(0),
          pid: z.number().int().nullable(),
          state: z.enum(["starting", "up", "restarting", "stopped"]),
          calls: z.number().int().min(0),
          outboundCalls: z.number().int().min(0),
          restarts: z.number().int().min(0),
          sipPort: z.number().int().nullable(),
        }),
      )
      .optional(),
  }),
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

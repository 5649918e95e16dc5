import { healthz, readyz, systemInfo } from "@switchboard/api";
import { ApiError } from "../../api-error.ts";
import { handle } from "../../http/routes.ts";
import { unexpectedErrorCount } from "../../process-guard.ts";
import type { InstanceRegistration } from "./system.service.ts";

export function systemRoutes(registration: InstanceRegistration) {
  return [
    handle(healthz, () => ({ status: "ok" as const, uptimeSeconds: Math.round(process.uptime()) })),
    handle(readyz, async (_input, { app }) => {
      try {
        await app.database.ping();
      } catch (error) {
        app.log.warn({ err: error }, "database did not answer");
        throw new ApiError(503, "Database is not answering.");
      }
      return {
        status: "ready" as const,
        database: app.database.kind,
        unexpectedErrors: unexpectedErrorCount(),
        ...(app.voiceWorkers ? { voiceWorkers: app.voiceWorkers.state() } : {}),
      };
    }),
    handle(systemInfo, async (_input, { app }) => ({
      success: true as const,
      name: "Switchboard",
      version: app.instance.version,
      environment: app.config.env,
      database: app.database.kind,
      publicUrl: app.config.publicUrl,
      instanceId: app.instance.id,
      startedAt: app.instance.startedAt.toISOString(),
      activeInstances: await registration.activeInstances(),
    })),
  ];
}

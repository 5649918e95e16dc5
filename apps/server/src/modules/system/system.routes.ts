import { healthz, readyz, systemInfo } from "@switchboard/api";
import { ApiError } from "../../api-error.ts";
import type { AppContext } from "../../app-context.ts";
import { handle } from "../../http/routes.ts";
import { unexpectedErrorCount } from "../../process-guard.ts";
import type { InstanceRegistration } from "./system.service.ts";

export function systemRoutes(context: AppContext, registration: InstanceRegistration) {
  return [
    handle(healthz, () => ({ status: "ok" as const, uptimeSeconds: Math.round(process.uptime()) })),
    handle(readyz, async (_input) => {
      try {
        await context.database.ping();
      } catch (error) {
        context.log.warn({ err: error }, "database did not answer");
        throw new ApiError(503, "Database is not answering.");
      }
      return {
        status: "ready" as const,
        database: context.database.kind,
        unexpectedErrors: unexpectedErrorCount(),
        ...(context.voiceWorkers ? { voiceWorkers: context.voiceWorkers.state() } : {}),
      };
    }),
    handle(systemInfo, async (_input) => ({
      success: true as const,
      name: "Switchboard",
      version: context.instance.version,
      environment: context.config.env,
      database: context.database.kind,
      publicUrl: context.config.publicUrl,
      instanceId: context.instance.id,
      startedAt: context.instance.startedAt.toISOString(),
      activeInstances: await registration.activeInstances(),
    })),
  ];
}

import type { AppContext } from "../../app-context.ts";
import { systemRoutes } from "./system.routes.ts";
import type { InstanceRegistration } from "./system.service.ts";

/** Health, readiness and this instance's registration (started before the context: it names the instance). */
export function createSystemModule(context: AppContext, deps: { registration: InstanceRegistration }) {
  const { registration } = deps;
  return {
    routes: systemRoutes(context, registration),
    async stop() {
      await registration
        .stop()
        .catch((error: unknown) => context.log.warn({ err: error }, "could not mark instance stopped"));
    },
  };
}

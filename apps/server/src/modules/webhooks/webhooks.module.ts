import type { AppContext } from "../../app-context.ts";
import { deliverWebhookJob } from "./jobs.ts";
import { webhooksRoutes } from "./webhooks.routes.ts";
import { createWebhooksService } from "./webhooks.service.ts";

/**
 * Webhooks: an organisation's endpoints, the event emitter other modules call (`events.emit`), and the
 * durable delivery job (signed as Standard Webhooks says, through the guarded outbound module).
 */
export function createWebhooksModule(context: AppContext) {
  const webhooks = createWebhooksService({
    db: context.database.db,
    jobs: context.jobs,
    outbound: context.outbound,
    secretKey: context.secretKey,
    email: context.email,
    log: context.log,
    config: context.config.webhooks,
  });
  context.jobs.register(deliverWebhookJob, (payload, attempt) => webhooks.deliver(payload, attempt));
  return { webhooks, events: webhooks.events, routes: webhooksRoutes(webhooks) };
}

export type WebhooksModule = ReturnType<typeof createWebhooksModule>;

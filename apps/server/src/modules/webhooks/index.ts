/** The webhooks module's public entry point: other modules use it only through what this file exports. */
export type { WebhookEvents, WebhooksService } from "./webhooks.service.ts";

import * as api from "@switchboard/api";
import { handle } from "../../http/routes.ts";
import type { WebhooksService } from "./webhooks.service.ts";

export function webhooksRoutes(webhooks: WebhooksService) {
  return [
    handle(api.listWebhooks, (_input, { access }) => webhooks.list(access)),
    handle(api.createWebhook, ({ body }, { access }) => webhooks.create(access, body)),
    handle(api.deleteWebhook, ({ body }, { access }) => webhooks.remove(access, body)),
    handle(api.testWebhook, ({ body }, { access }) => webhooks.test(access, body.url)),
    handle(api.rotateWebhookSecret, ({ params }, { access }) => webhooks.rotate(access, params.webhookId)),
    handle(api.setWebhookEnabled, ({ params, body }, { access }) =>
      webhooks.setEnabled(access, params.webhookId, body.enabled),
    ),
    handle(api.listWebhookDeliveries, ({ query }, { access }) => webhooks.deliveries(access, query)),
    handle(api.resendWebhookDelivery, ({ params }, { access }) => webhooks.resend(access, params.deliveryId)),
  ];
}

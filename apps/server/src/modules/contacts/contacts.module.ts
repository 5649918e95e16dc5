import type { AppContext } from "../../app-context.ts";
import type { RealtimeHub } from "../../realtime/realtime-hub.ts";
import type { WebhookEvents } from "../webhooks/index.ts";
import { createContactsRepository } from "./contacts.repository.ts";
import { contactsRoutes } from "./contacts.routes.ts";
import { createContactsService } from "./contacts.service.ts";

/** An organisation's contacts, matched to conversations by their addresses; changes go out in realtime. */
export function createContactsModule(
  context: AppContext,
  deps: { realtime: RealtimeHub; webhooks?: WebhookEvents },
) {
  const contacts = createContactsService({
    repo: createContactsRepository(context.database.db),
    access: context.access,
    realtime: deps.realtime,
    ...(deps.webhooks ? { webhooks: deps.webhooks } : {}),
  });
  return { contacts, routes: contactsRoutes(contacts) };
}

import * as api from "@switchboard/api";
import { formatPhoneNumber } from "@switchboard/core";
import type { AppContext } from "../../app-context.ts";
import { handle } from "../../http/routes.ts";
import type { RealtimeHub } from "../../realtime/realtime-hub.ts";
import type { InboxService } from "../inbox/index.ts";
import type { WebhookEvents, WebhooksService } from "../webhooks/index.ts";
import { createAccessRequests } from "./access-requests.ts";
import { missedCallNotice, taskListFinishedNotice } from "./event-notices.ts";
import { createNotificationsService } from "./notifications.service.ts";
import { createSupportRequests } from "./support-requests.ts";

/**
 * Notifications (issue 22): a new message from outside (folded per conversation), a missed call, a task
 * list finished, a webhook turned off for failing, support requests (the get-support form) for the super
 * admins; the header's bell reads them and hears changes live.
 */
export function createNotificationsModule(
  context: AppContext,
  deps: { realtime: RealtimeHub; inbox: InboxService; webhooks: WebhooksService },
) {
  const notifications = createNotificationsService({ db: context.database.db, realtime: deps.realtime });
  // Texts and web chats alike (the tasks' onInbound hears texts only).
  const stopInbound = deps.inbox.onMessageFromOutside(async (room, message) => {
    const from =
      room.channel === "web"
        ? "a website visitor"
        : room.externalAddress
          ? formatPhoneNumber(room.externalAddress)
          : "someone";
    await notifications.notify(room.orgId, {
      kind: "message",
      title: `New message from ${from}`,
      body: message.text.slice(0, 200),
      link: `/app/inbox?active=${encodeURIComponent(room.id)}`,
      agentId: room.agentAccountId,
      groupKey: `room:${room.id}`,
    });
  });
  const stopWebhooks = deps.webhooks.onTurnedOff(async (endpoint, reason) => {
    await notifications.notify(endpoint.orgId, {
      kind: "webhookFailing",
      title: "A webhook was turned off",
      body: `${endpoint.label ? `${endpoint.label}: ` : ""}${endpoint.url} — ${reason}`,
      link: "/app/developers",
    });
  });
  const sendSupportRequest = createSupportRequests({
    db: context.database.db,
    email: context.email,
    notify: (orgId, input) => notifications.notify(orgId, input),
    log: context.log,
  });
  const accessRequests = createAccessRequests({
    db: context.database.db,
    email: context.email,
    notify: (orgId, input) => notifications.notify(orgId, input),
    log: context.log,
  });
  const warn = (error: unknown) => context.log.warn({ err: error }, "could not make a notification");
  return {
    notifications,
    /**
     * The webhook events of a module, heard on their way out: an inbound call that ends missed becomes a
     * missed-call notification (give the voice module `hearCalls(webhooks.events)`).
     */
    hearCalls(events: WebhookEvents): WebhookEvents {
      return {
        wake: () => events.wake(),
        async emit(orgId, type, data, options) {
          await events.emit(orgId, type, data, options);
          if (type !== "call.ended") return;
          const notice = missedCallNotice(data as api.WebhookEventData<"call.ended">);
          if (notice) await notifications.notify(orgId, notice).catch(warn);
        },
      };
    },
    /** A task list with nothing left to run (the tasks module's `listFinished`). */
    async taskListFinished(orgId: number, list: Parameters<typeof taskListFinishedNotice>[0]): Promise<void> {
      const notice = taskListFinishedNotice(list);
      await notifications.notifyOnce(orgId, { ...notice, groupKey: `taskList:${list.listId}` }).catch(warn);
    },
    routes: [
      handle(api.sendSupportRequest, ({ body }, { access }) => sendSupportRequest(access, body)),
      handle(api.getAccessRequest, ({ query }, { access }) => accessRequests.state(access, query.feature)),
      handle(api.requestAccess, ({ body }, { access }) => accessRequests.request(access, body)),
      handle(api.listNotifications, ({ query }, { access }) => notifications.list(access, query.limit)),
      handle(api.clearNotifications, ({ body }, { access }) => notifications.clear(access, body)),
    ],
    async stop() {
      stopInbound();
      stopWebhooks();
    },
  };
}

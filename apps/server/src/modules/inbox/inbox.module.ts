import type { AppContext } from "../../app-context.ts";
import { createNoticeCache, followNotices } from "../../db/notice-cache.ts";
import type { SandboxCarrier } from "../../providers/sms/sandbox-carrier.ts";
import { createRealtimeHub } from "../../realtime/realtime-hub.ts";
import type { AgentsService } from "../agents/index.ts";
import { createConversationsRepository } from "../conversations/index.ts";
import { organizationOf, type RuntimeModule } from "../runtime/index.ts";
import type { WebhookEvents } from "../webhooks/index.ts";
import { createCarrierService } from "./carrier.service.ts";
import { createInboxRepository } from "./inbox.repository.ts";
import { inboxRoutes } from "./inbox.routes.ts";
import { createInboxService, type InboxService } from "./inbox.service.ts";
import { aiReplyJob } from "./jobs.ts";

/** The channel migration 0009's triggers notify with the id of an organisation whose inbox changed. */
export const INBOX_CHANGED_CHANNEL = "switchboard_inbox_changed";

/**
 * Wires the inbox: the realtime hub (its events and the list cache they clear), the inbox service over the
 * runtime's storage and turns, the AI-reply job, the carriers' webhooks and the sandbox handsets.
 */
export async function createInboxModule(
  context: AppContext,
  deps: {
    agents: AgentsService;
    runtime: RuntimeModule;
    sandbox: SandboxCarrier | null;
    webhooks?: WebhookEvents;
    now?: () => number;
  },
) {
  const db = context.database.db;
  const repo = createInboxRepository(db);
  let inbox: InboxService | null = null;
  // Answered list pages (JSON text), one group per organisation, until the organisation's inbox changes.
  const listCache = createNoticeCache<string>({ maxEntries: 20_000 });
  const { notifications } = context;
  const unfollowChanges = await followNotices(listCache, notifications, INBOX_CHANGED_CHANNEL, (payload) => {
    const orgId = Number(payload);
    return Number.isSafeInteger(orgId) ? orgId : null;
  });
  // A call that may have written forgets its organisation's pages here at once (others learn by notice).
  const stopWrites = context.writes.onWrite((access) => {
    if (!access) return;
    const orgId = organizationOf(access.target);
    if (orgId === null) listCache.changedAll();
    else listCache.changed(orgId);
  });
  const realtime = createRealtimeHub({
    notifications,
    onPublish: (orgId) => listCache.changed(orgId),
    log: context.log,
    loadMessageEvent: async (id) => (inbox ? inbox.loadMessageEvent(id) : null),
  });
  await realtime.start();
  inbox = createInboxService({
    repo,
    conversations: createConversationsRepository(db),
    transaction: (work) =>
      db.transaction((tx) =>
        work({ repo: createInboxRepository(tx), conversations: createConversationsRepository(tx), tx }),
      ),
    jobs: context.jobs,
    access: context.access,
    agents: deps.agents,
    models: deps.runtime.models,
    turns: deps.runtime.turns,
    sms: context.sms,
    realtime,
    listCache,
    log: context.log,
    ...(deps.webhooks ? { webhooks: deps.webhooks } : {}),
    ...(deps.now ? { now: deps.now } : {}),
  });
  const replies = inbox;
  context.jobs.register(aiReplyJob, (payload, attempt) => replies.replyJob(payload.roomId, attempt));
  const carrier = createCarrierService({
    inbox,
    repo,
    twilioAuthToken: context.config.sms.provider === "twilio" ? context.config.sms.authToken : undefined,
    publicUrl: context.config.publicUrl,
  });
  deps.sandbox?.onDelivered((delivery) => {
    void repo
      .agentByNumber(delivery.from)
      .then((agent) => {
        if (agent?.organizationId)
          return realtime.publish({
            orgId: agent.organizationId,
            agentId: agent.id,
            event: { type: "handset", number: delivery.to },
          });
      })
      .catch((error: unknown) => context.log.warn({ err: error }, "handset event failed"));
  });
  const service = inbox;
  return {
    inbox: service,
    carrier,
    realtime,
    routes: inboxRoutes({ inbox: service, carrier, storage: context.storage, db, access: context.access }),
    /** Called after the job runner stopped: no AI reply runs any more. */
    async stop() {
      realtime.stop();
      unfollowChanges();
      stopWrites();
    },
  };
}

export type InboxModule = Awaited<ReturnType<typeof createInboxModule>>;

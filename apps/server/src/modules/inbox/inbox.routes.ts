import * as api from "@switchboard/api";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { type AccessResolver, tokenOf } from "../../access/access.ts";
import { ApiError, badRequest, forbidden, notFound } from "../../api-error.ts";
import type { Database } from "../../db/client.ts";
import {
  accounts,
  agentConfigs,
  conversationMessages,
  roomParticipants,
  rooms,
} from "../../db/schema/index.ts";
import { readUploadedFile } from "../../http/multipart.ts";
import { handle } from "../../http/routes.ts";
import type { FormParams } from "../../providers/sms/twilio.ts";
import type { StorageProvider } from "../../providers/storage/storage-provider.ts";
import { detectImageType } from "../accounts/index.ts";
import { displayName, storedGreeting } from "../runtime/index.ts";
import { type CarrierService, EMPTY_TWIML, UNSAFE_MEDIA_MESSAGE } from "./carrier.service.ts";
import type { InboxService } from "./inbox.service.ts";

const readMedia = (request: FastifyRequest) =>
  readUploadedFile(request, api.CHAT_MEDIA_MAX_BYTES, {
    notMultipart: api.INBOX_MESSAGES.mediaType,
    noFile: api.INBOX_MESSAGES.mediaType,
    tooLarge: api.INBOX_MESSAGES.mediaSize,
  });

/**
 * Public messaging profile of an agent (GET /api/v1/messages/{username}): anyone sees name, image and
 * greeting; a caller with a token also gets their own messages with it.
 */
function publicMessages(db: Database, access: AccessResolver) {
  return async (username: string, query: { preview: boolean; limit: number }, token: string | undefined) => {
    const [agent] = await db
      .select()
      .from(accounts)
      .where(
        and(sql`lower(${accounts.username}) = ${username.toLowerCase()}`, sql`${accounts.deletedAt} is null`),
      )
      .limit(1);
    if (agent?.accountType !== "agent" || agent.disabledAt) throw notFound("Account not found");
    const [production] = await db
      .select({ config: agentConfigs.config })
      .from(agentConfigs)
      .where(and(eq(agentConfigs.agentAccountId, agent.id), eq(agentConfigs.stage, "production")))
      .limit(1);
    const config = (production?.config ?? null) as Record<string, unknown> | null;
    const details = agent.details as Record<string, unknown>;
    const profile = {
      username: agent.username,
      displayName: displayName(agent, "agentName"),
      image: typeof details.image === "string" ? details.image : null,
      greeting: storedGreeting(config),
      acceptsMessages: production !== undefined,
    };
    let messages: {
      id: number;
      role: "user" | "assistant" | "operator" | "system";
      text: string;
      media: string[];
      createdAt: number;
    }[] = [];
    const caller = !query.preview && token ? await access.resolveCaller(token) : null;
    if (caller) {
      const mine = await db
        .select({ id: rooms.id })
        .from(rooms)
        .innerJoin(roomParticipants, eq(roomParticipants.roomId, rooms.id))
        .where(
          and(
            eq(rooms.agentAccountId, agent.id),
            eq(rooms.kind, "live"),
            eq(roomParticipants.kind, "external"),
            eq(roomParticipants.userId, caller.user.id),
          ),
        );
      if (mine.length > 0) {
        const rows = await db
          .select()
          .from(conversationMessages)
          .where(
            and(
              inArray(
                conversationMessages.roomId,
                mine.map((r) => r.id),
              ),
              eq(conversationMessages.status, "complete"),
            ),
          )
          .orderBy(desc(conversationMessages.id))
          .limit(query.limit);
        messages = rows
          .reverse()
          .filter((r) => r.role !== "system")
          .map((r) => ({
            id: r.id,
            role: r.role,
            text: r.text,
            media: Array.isArray(r.media) ? (r.media as string[]) : [],
            createdAt: r.createdAt.getTime(),
          }));
      }
    }
    return { success: true as const, profile, messages };
  };
}

export function inboxRoutes(deps: {
  inbox: InboxService;
  carrier: CarrierService;
  storage: StorageProvider;
  db: Database;
  access: AccessResolver;
}) {
  const { inbox, carrier } = deps;
  const readPublic = publicMessages(deps.db, deps.access);
  // Digits that make an account id (api.isId: 1 to 2^31 - 1) name an account; anything else is a room id.
  const numeric = (id: string) => /^\d+$/.test(id) && api.isId(id);
  return [
    handle(api.listConversations, ({ query }, { access }) => inbox.list(access, query)),
    handle(api.getConversation, ({ params, query }, { access }) =>
      numeric(params.roomId)
        ? inbox.listOfAccount(access, Number(params.roomId), query)
        : inbox.detail(access, params.roomId),
    ),
    handle(api.listAgentConversations, ({ params, query }, { access }) =>
      inbox.listOfAccount(access, params.id, query, true),
    ),
    handle(api.sendConversationMessage, ({ params, body }, { access }) => {
      // Media are shown as links to everyone in the conversation: https or the server's own files only.
      if (!body.media.every(carrier.safeMedia)) throw badRequest(UNSAFE_MEDIA_MESSAGE);
      return inbox.send(access, params.roomId, body);
    }),
    handle(api.getAiAgentEnabled, ({ params }, { access }) => inbox.getAiAgent(access, params.roomId)),
    handle(api.setAiAgentEnabled, ({ params, body }, { access }) =>
      inbox.setAiAgent(access, params.roomId, body.aiAgentEnabled),
    ),
    handle(api.setConversationFolder, ({ params, body }, { access }) =>
      inbox.setFolder(access, params.roomId, body.folder),
    ),
    handle(api.closeConversation, ({ body }, { access }) => inbox.close(access, body.roomId, body.archive)),
    handle(api.unarchiveConversation, ({ body }, { access }) => inbox.unarchive(access, body.roomId)),
    handle(api.createExternalDestinationProfile, ({ body }, { access }) =>
      inbox.createProfile(access, body.address),
    ),
    handle(api.getGroupConversationRoomId, ({ body }, { access }) => inbox.groupRoom(access, body)),
    handle(api.getBlock, ({ params, query }, { access }) => inbox.getBlock(access, params.id, query.both)),
    handle(api.setBlock, ({ body }, { access }) => inbox.setBlock(access, body.targetUsername, body.blocked)),
    handle(api.getPublicMessages, ({ params, query }, { request }) =>
      readPublic(params.username, query, tokenOf(request)),
    ),
    handle(api.markUnread, ({ body }, { access }) => inbox.markUnread(access, body.roomId, "priority")),
    handle(api.markAgentUnread, ({ body }, { access }) => inbox.markUnread(access, body.roomId, "agent")),
    handle(api.rateConversation, ({ body }, { access }) => inbox.rate(access, body.roomId, body.rating)),
    handle(api.addReaction, ({ body }, { access }) => inbox.react(access, body, true)),
    handle(api.removeReaction, ({ body }, { access }) => inbox.react(access, body, false)),
    handle(api.uploadChatMedia, async (_input, { access, request }) => {
      inbox.scopeOf(access);
      const data = await readMedia(request);
      const type = detectImageType(data);
      if (!type) throw new ApiError(415, api.INBOX_MESSAGES.mediaType);
      const stored = await deps.storage.put("media", type.extension, data, type.contentType);
      return { success: true as const, url: stored.url, contentType: type.contentType, size: data.length };
    }),
    handle(api.getActivity, ({ query }, { access }) => inbox.activity(access, "priority", query.simple)),
    handle(api.clearActivity, ({ body }, { access }) => inbox.clearActivity(access, "priority", body)),
    handle(api.getAgentActivity, ({ query }, { access }) => inbox.activity(access, "agent", query.simple)),
    handle(api.clearAgentActivity, ({ body }, { access }) => inbox.clearActivity(access, "agent", body)),
    handle(api.realtime, async ({ query }, { access, socket, request }) => {
      if (!socket) throw new ApiError(426, api.INBOX_MESSAGES.webSocketOnly);
      const ping = setInterval(() => socket.ping(), 25_000);
      socket.on("message", () => {});
      await inbox.connect(
        access,
        query.since,
        (event) => {
          if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(event));
        },
        (cleanup) =>
          socket.once("close", () => {
            clearInterval(ping);
            cleanup();
          }),
      );
      request.log.debug({ orgId: inbox.scopeOf(access).orgId }, "realtime connection ready");
    }),

    // Carriers.
    handle(api.sandboxInboundSms, ({ body }, { access }) => carrier.simulateInbound(access, body)),
    handle(api.sandboxHandset, ({ query }, { access }) => carrier.handset(access, query.number)),
    handle(api.twilioInboundSms, async (_input, { request, reply }) => {
      const params = (request.body ?? {}) as FormParams;
      const check = carrier.verifyTwilio(
        request.url,
        params,
        request.headers["x-twilio-signature"] as string | undefined,
      );
      if (check === "not-configured") throw notFound(api.CARRIER_MESSAGES.notTwilio);
      if (check === "invalid") throw forbidden(api.CARRIER_MESSAGES.badSignature);
      try {
        await carrier.twilioInbound(params);
      } catch (error) {
        // An unknown number is Twilio's configuration, not a reason for it to retry: acknowledged, logged.
        if (!(error instanceof ApiError && error.statusCode === 404)) throw error;
        request.log.warn({ to: params.To }, "Twilio message for a number no agent has");
      }
      return reply.type("text/xml").send(EMPTY_TWIML);
    }),
    handle(api.twilioMessageStatus, async (_input, { request, reply }) => {
      const params = (request.body ?? {}) as FormParams;
      const check = carrier.verifyTwilio(
        request.url,
        params,
        request.headers["x-twilio-signature"] as string | undefined,
      );
      if (check === "not-configured") throw notFound(api.CARRIER_MESSAGES.notTwilio);
      if (check === "invalid") throw forbidden(api.CARRIER_MESSAGES.badSignature);
      await carrier.twilioStatus(params);
      return reply.type("text/xml").send(EMPTY_TWIML);
    }),
  ];
}

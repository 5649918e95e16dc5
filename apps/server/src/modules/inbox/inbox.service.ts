import { randomUUID } from "node:crypto";
import {
  type ActivityItem,
  type ConversationDetail,
  type ConversationListItem,
  INBOX_MESSAGES,
  type InboxFolder,
  type InboxMessage,
  type RealtimeEvent,
} from "@switchboard/api";
import { formatPhoneNumber, isPersonName, normalizeAddress } from "@switchboard/core";
import type { FastifyBaseLogger } from "fastify";
import { type Access, type AccessResolver, type AccountRow, isWithin } from "../../access/access.ts";
import type { Database } from "../../db/client.ts";
import type { NoticeCache } from "../../db/notice-cache.ts";
import { ApiError, badRequest, forbidden, notFound } from "../../http/api-error.ts";
import { JsonTextAnswer } from "../../http/routes.ts";
import type { JobAttempt } from "../../jobs/job.ts";
import type { JobRunner } from "../../jobs/runner.ts";
import type { SmsProvider } from "../../providers/sms/sms-provider.ts";
import type { RealtimeHub } from "../../realtime/realtime-hub.ts";
import type { AgentsService } from "../agents/agents.service.ts";
import { type AgentTurns, displayName } from "../runtime/agent-turn.ts";
import type { ConversationRow, ConversationsRepository } from "../runtime/conversations.repository.ts";
import type { ModelSettingsService } from "../runtime/model-settings.service.ts";
import type {
  InboxRepository,
  ListedRoom,
  MessageRow,
  ReactionRow,
  RoomRow,
  RoomScope,
} from "./inbox.repository.ts";
import { aiReplyJob } from "./jobs.ts";

/** Most turns one AI reply job takes (a message that arrived during a turn is answered by the next). */
const TURNS_PER_REPLY_JOB = 3;

/** An SMS exchange is one conversation (session) until it has been quiet this long. */
const SESSION_IDLE_MS = 24 * 60 * 60 * 1000;
const DETAIL_MESSAGES = 200;
const CATCH_UP_LIMIT = 1000;

/** The repositories over one transaction, and the transaction (to send jobs in it). */
export type InboxTransaction = {
  repo: InboxRepository;
  conversations: ConversationsRepository;
  tx: Database;
};

type Deps = {
  repo: InboxRepository;
  conversations: ConversationsRepository;
  /**
   * Runs `work` in one database transaction. Inside it, only the given repositories may be used: PGlite
   * has one connection, and a statement sent outside the transaction would wait for it to end.
   */
  transaction: <T>(work: (t: InboxTransaction) => Promise<T>) => Promise<T>;
  /** The job runner: AI replies are jobs (./jobs.ts). */
  jobs: JobRunner;
  access: AccessResolver;
  agents: AgentsService;
  models: ModelSettingsService;
  turns: AgentTurns;
  sms: SmsProvider;
  realtime: RealtimeHub;
  /** Answered list pages until their organisation's inbox changes. */
  listCache: NoticeCache<string>;
  log: FastifyBaseLogger;
  now?: () => number;
};

export type ListQuery = {
  isAgent: boolean;
  page: number;
  pageSize: number;
  unread: boolean;
  archived: boolean;
};

export type InboundSms = {
  provider: "sandbox" | "twilio";
  externalId: string;
  from: string;
  to: string;
  text: string;
  media: string[];
  /** The carrier's caller name (CNAM), when it sends one. */
  carrierName?: string | null;
};

export function createInboxService(deps: Deps) {
  const { repo, realtime } = deps;
  const now = deps.now ?? Date.now;

  // Scope and rooms -----------------------------------------------------------------------------------

  /** The organisation (and agent) whose inbox an account shows; partners and resellers have none. */
  function scopeOfAccount(account: AccountRow): RoomScope {
    if (account.accountType === "organization") return { orgId: account.id, agentId: null };
    if (account.accountType === "agent" && account.organizationId)
      return { orgId: account.organizationId, agentId: account.id };
    throw badRequest(INBOX_MESSAGES.noAccountId);
  }

  const scopeOf = (access: Access) => scopeOfAccount(access.target);

  /** A room the caller may see: live, in the target's organisation (and agent), or 404. */
  async function roomOf(access: Access, roomId: string): Promise<RoomRow> {
    const scope = scopeOf(access);
    const room = await repo.findRoom(roomId);
    if (
      !room ||
      room.kind !== "live" ||
      room.orgId !== scope.orgId ||
      (scope.agentId !== null && room.agentAccountId !== scope.agentId)
    )
      throw notFound(INBOX_MESSAGES.roomNotFound);
    return room;
  }

  function partyName(listed: Pick<ListedRoom, "contactName" | "carrierName" | "room">): string {
    if (listed.contactName) return listed.contactName;
    if (isPersonName(listed.carrierName)) return listed.carrierName as string;
    const address = listed.room.externalAddress ?? listed.room.title ?? "Unknown";
    return formatPhoneNumber(address);
  }

  function roomSummary(listed: ListedRoom) {
    const { room } = listed;
    const details = listed.agentDetails as Record<string, unknown>;
    const agentName =
      typeof details.agentName === "string" && details.agentName ? details.agentName : listed.agentUsername;
    return {
      id: room.id,
      agentId: room.agentAccountId,
      agentName,
      agentNumber: listed.agentNumber,
      channel: room.channel,
      status: room.status,
      folder: room.folder,
      aiAgentEnabled: room.aiAgentEnabled,
      rating: room.rating,
      externalAddress: room.externalAddress,
      createdAt: room.createdAt.getTime(),
      lastMessageAt: room.lastMessageAt ? room.lastMessageAt.getTime() : null,
    };
  }

  function toListItem(listed: ListedRoom): ConversationListItem {
    const { room } = listed;
    return {
      id: room.id,
      roomId: room.id,
      room: roomSummary(listed),
      lastMessage:
        room.lastMessageText !== null
          ? {
              text: room.lastMessageText,
              createdAt: room.lastMessageAt ? room.lastMessageAt.getTime() : null,
            }
          : null,
      username: room.externalAddress ?? room.title ?? "",
      displayName: partyName(listed),
      contactId: listed.contactId,
      unread: listed.unread,
      unreadCount: listed.unreadCount,
    };
  }

  function toMessage(
    row: MessageRow,
    reactions: ReactionRow[],
    names: Map<number, string>,
    viewerId: number | null,
  ): InboxMessage {
    return {
      id: row.id,
      roomId: row.roomId,
      role: row.role,
      text: row.text,
      media: Array.isArray(row.media) ? row.media.filter((m): m is string => typeof m === "string") : [],
      senderUserId: row.senderUserId,
      senderName: row.senderUserId !== null ? (names.get(row.senderUserId) ?? null) : null,
      senderAddress: row.senderAddress,
      status: row.status,
      error: row.error,
      deliveryStatus: row.deliveryStatus,
      reactions: reactions
        .filter((r) => r.messageId === row.id)
        .map((r) => ({ reaction: r.reaction, userId: r.userId, mine: r.userId === viewerId })),
      createdAt: row.createdAt.getTime(),
    };
  }

  async function messageEvent(row: MessageRow, room: Pick<RoomRow, "folder">): Promise<RealtimeEvent> {
    const names = await repo.userNames(row.senderUserId !== null ? [row.senderUserId] : []);
    const listed = await repo.listedRoom(row.roomId, 0);
    const inbound = row.role === "user";
    return {
      type: "message",
      roomId: row.roomId,
      folder: room.folder,
      message: toMessage(row, [], names, null),
      ...(listed
        ? { conversation: { ...toListItem(listed), unread: inbound, unreadCount: inbound ? 1 : 0 } }
        : {}),
    };
  }

  async function publishMessage(room: RoomRow, row: MessageRow) {
    await realtime.publish({
      orgId: room.orgId,
      agentId: room.agentAccountId,
      event: await messageEvent(row, room),
    });
  }

  const publishRoom = (room: RoomRow) =>
    realtime.publish({
      orgId: room.orgId,
      agentId: room.agentAccountId,
      event: { type: "room", roomId: room.id },
    });

  // Lists and detail ----------------------------------------------------------------------------------

  /** The page as JSON text: the caller's own (unread state is per user), from the cache when unchanged. */
  async function listFor(access: Access, scope: RoomScope, query: ListQuery): Promise<JsonTextAnswer> {
    const userId = access.caller.user.id;
    const folder = query.isAgent ? "agent" : "priority";
    const key = `${scope.orgId}:${scope.agentId ?? "*"}:${userId}:${folder}:${query.unread}:${query.archived}:${query.page}:${query.pageSize}`;
    const text = await deps.listCache.get(scope.orgId, key, async () => {
      const { rows, total } = await repo.listRooms({
        ...scope,
        userId,
        folder,
        unread: query.unread,
        archived: query.archived,
        page: query.page,
        pageSize: query.pageSize,
      });
      return JSON.stringify({ success: true, rooms: rows.map(toListItem), totalRooms: total });
    });
    return new JsonTextAnswer(text);
  }

  const list = (access: Access, query: ListQuery) => listFor(access, scopeOf(access), query);

  /** The list of another account below the target (an organisation or one of its agents). */
  async function listOfAccount(access: Access, accountId: number, query: ListQuery, agentOnly = false) {
    const account = accountId === access.target.id ? access.target : await deps.access.loadAccount(accountId);
    if (!account || !isWithin(access.target, account) || (agentOnly && account.accountType !== "agent"))
      throw notFound(INBOX_MESSAGES.roomNotFound);
    await deps.access.requirePermission(access, account, "canViewOrg");
    return listFor(access, scopeOfAccount(account), query);
  }

  async function detail(access: Access, roomId: string): Promise<ConversationDetail> {
    const room = await roomOf(access, roomId);
    const listed = await repo.listedRoom(room.id, access.caller.user.id);
    if (!listed) throw notFound(INBOX_MESSAGES.roomNotFound);
    const rows = await repo.roomMessages(room.id, DETAIL_MESSAGES);
    const reactions = await repo.reactionsOf(rows.map((r) => r.id));
    const names = await repo.userNames([
      ...new Set([
        ...rows.map((r) => r.senderUserId).filter((id): id is number => id !== null),
        ...reactions.map((r) => r.userId),
      ]),
    ]);
    const participants = await repo.participants(room.id);
    const conversation = await repo.activeConversation(room.id);
    const viewer = access.caller.user.id;
    return {
      success: true,
      roomId: room.id,
      uuid: conversation?.uuid ?? null,
      users: participants.map((p) => ({
        kind: p.kind,
        username:
          p.kind === "agent"
            ? listed.agentUsername
            : p.kind === "external"
              ? (p.address ?? "")
              : (p.address ?? `user-${p.userId}`),
        displayName: p.kind === "external" ? partyName(listed) : (p.displayName ?? p.address ?? ""),
      })),
      rating: room.rating,
      aiAgentEnabled: room.aiAgentEnabled,
      reactions: reactions.map((r) => ({
        messageId: r.messageId,
        reaction: r.reaction,
        userId: r.userId,
        mine: r.userId === viewer,
      })),
      room: roomSummary(listed),
      conversation: toListItem(listed),
      blocked: room.externalAddress ? await repo.isBlocked(room.orgId, room.externalAddress) : false,
      messages: rows.filter((r) => r.role !== "system").map((r) => toMessage(r, reactions, names, viewer)),
    };
  }

  // Sending ---------------------------------------------------------------------------------------

  async function organizationOf(orgId: number): Promise<AccountRow> {
    const org = await deps.access.loadAccount(orgId);
    if (!org) throw notFound(INBOX_MESSAGES.roomNotFound);
    return org;
  }

  /** The stage a new conversation of the agent runs: read before a transaction (see `Deps.transaction`). */
  async function stageOf(agent: AccountRow, orgId: number): Promise<"production" | "staging"> {
    const { production } = await deps.agents.campaignsOf({ id: agent.id, orgId });
    return production ? "production" : "staging";
  }

  /** The conversation (session) a new message of the room belongs to: the active one, or a new one. */
  async function sessionFor(
    t: InboxTransaction,
    room: RoomRow,
    agent: AccountRow,
    direction: "inbound" | "outbound",
    stage: "production" | "staging",
  ) {
    const current = await t.repo.activeConversation(room.id);
    if (current && current.status === "active" && now() - current.lastActivityAt.getTime() < SESSION_IDLE_MS)
      return current;
    if (current && current.status === "active")
      await t.conversations.updateConversation(current.uuid, {
        status: "ended",
        endedAt: current.lastActivityAt,
      });
    const agentNumber = agent.switchboardPhoneNumber ?? agent.username;
    return t.conversations.createConversation({
      uuid: randomUUID(),
      orgId: room.orgId,
      roomId: room.id,
      agentAccountId: agent.id,
      channel: room.channel,
      stage,
      direction,
      fromAddress: direction === "inbound" ? room.externalAddress : agentNumber,
      toAddress: direction === "inbound" ? agentNumber : room.externalAddress,
    });
  }

  /** Sends a stored outbound message through the SMS provider and keeps its delivery state. */
  async function deliver(room: RoomRow, agent: AccountRow, message: MessageRow): Promise<MessageRow> {
    if (!room.externalAddress || !agent.switchboardPhoneNumber) return message;
    try {
      const sent = await deps.sms.send({
        to: room.externalAddress,
        from: agent.switchboardPhoneNumber,
        body: message.text,
        ...(Array.isArray(message.media) && message.media.length > 0
          ? { media: message.media as string[] }
          : {}),
      });
      return (
        (await repo.setDelivery(message.id, {
          deliveryStatus: sent?.status ?? "sent",
          carrierMessageId: sent?.id ?? null,
        })) ?? message
      );
    } catch (error) {
      deps.log.warn({ err: error, roomId: room.id }, "text message could not be sent");
      return (
        (await repo.setDelivery(message.id, {
          deliveryStatus: "failed",
          error: error instanceof Error ? error.message : "The message could not be sent.",
        })) ?? message
      );
    }
  }

  async function send(access: Access, roomId: string, body: { text: string; media: string[] }) {
    const room = await roomOf(access, roomId);
    if (!body.text && body.media.length === 0) throw badRequest(INBOX_MESSAGES.emptyMessage);
    const org = await organizationOf(room.orgId);
    if (room.channel === "sms" && !org.smsEnabled) throw forbidden(INBOX_MESSAGES.smsDisabled);
    if (room.externalAddress && (await repo.isBlocked(room.orgId, room.externalAddress)))
      throw badRequest(INBOX_MESSAGES.blocked);
    const agent = await deps.access.loadAccount(room.agentAccountId);
    if (!agent) throw notFound(INBOX_MESSAGES.roomNotFound);
    if (room.channel === "sms" && !agent.switchboardPhoneNumber)
      throw badRequest(INBOX_MESSAGES.noAgentNumber);
    const stage = await stageOf(agent, room.orgId);
    // The message, its session, the room's state and the sender's read mark: all or nothing.
    let message = await deps.transaction(async (t) => {
      const conversation = await sessionFor(t, room, agent, "outbound", stage);
      const stored = await t.conversations.insertMessage({
        orgId: room.orgId,
        roomId: room.id,
        conversationUuid: conversation.uuid,
        role: "operator",
        senderUserId: access.caller.user.id,
        senderAddress: agent.switchboardPhoneNumber,
        text: body.text,
        media: body.media,
        deliveryStatus: "queued",
      });
      await t.conversations.updateConversation(conversation.uuid, { lastActivityAt: stored.createdAt });
      if (room.status !== "open") await t.repo.updateRoom(room.id, { status: "open" });
      // The sender has read everything up to their own message.
      await t.repo.markRead(room.orgId, access.caller.user.id, [room.id]);
      return stored;
    });
    message = await deliver(room, agent, message);
    await publishMessage(room, message);
    if (room.status !== "open") await publishRoom(room);
    const names = await repo.userNames([access.caller.user.id]);
    return { success: true as const, message: toMessage(message, [], names, access.caller.user.id) };
  }

  // Inbound and the AI agent ------------------------------------------------------------------------

  /**
   * A text message from outside reached an agent's number (phone simulator or carrier webhook, after its
   * checks): kept once per carrier id, stored in the room of that number and address, shown in every open
   * inbox, and answered by the AI agent when the room's switch is on and the sender is not blocked.
   */
  async function receiveInbound(sms: InboundSms): Promise<{ duplicate: boolean; roomId: string | null }> {
    const from = normalizeAddress(sms.from)?.address ?? sms.from.trim();
    const to = normalizeAddress(sms.to)?.address ?? sms.to.trim();
    // Read first: nothing outside the transaction may use the database inside it.
    const agent = await repo.agentByNumber(to);
    const orgId = agent?.organizationId ?? null;
    const blocked = orgId !== null && (await repo.isBlocked(orgId, from));
    const stage = agent && orgId !== null ? await stageOf(agent, orgId) : "staging";
    // The carrier's record, the room, the session, the message and the AI reply's job: all or nothing, so
    // a message that is stored is answered, and a replayed webhook finds it recorded.
    const received = await deps.transaction(async (t) => {
      const carrier = await t.repo.recordCarrierMessage({
        provider: sms.provider,
        direction: "inbound",
        fromAddress: from,
        toAddress: to,
        body: sms.text,
        media: sms.media,
        status: "received",
        externalId: sms.externalId,
        ...(orgId !== null ? { orgId } : {}),
      });
      if (!carrier) return "duplicate" as const;
      if (!agent || orgId === null) return "no agent" as const;
      let room = await t.repo.findSmsRoom(agent.id, from);
      if (!room) {
        room = await t.conversations.createRoom(
          {
            id: randomUUID(),
            orgId,
            agentAccountId: agent.id,
            channel: "sms",
            kind: "live",
            externalAddress: from,
            title: formatPhoneNumber(from),
            folder: blocked ? "agent" : "priority",
          },
          [
            { kind: "agent", accountId: agent.id, displayName: displayName(agent, "agentName") },
            { kind: "external", address: from, displayName: sms.carrierName ?? null },
          ],
        );
      }
      const conversation = await sessionFor(t, room, agent, "inbound", stage);
      const message = await t.conversations.insertMessage({
        orgId,
        roomId: room.id,
        conversationUuid: conversation.uuid,
        role: "user",
        senderAddress: from,
        text: sms.text,
        media: sms.media,
        deliveryStatus: "received",
        carrierMessageId: sms.externalId,
      });
      await t.conversations.updateConversation(conversation.uuid, { lastActivityAt: message.createdAt });
      room =
        (await t.repo.updateRoom(room.id, {
          lastInboundMessageId: message.id,
          ...(room.status !== "open" ? { status: "open" as const } : {}),
          ...(blocked ? { folder: "agent" as const } : {}),
        })) ?? room;
      const answer = room.aiAgentEnabled && !blocked;
      if (answer) await deps.jobs.send(aiReplyJob, { roomId: room.id }, { transaction: t.tx });
      return { room, message, answer };
    });
    if (received === "duplicate") return { duplicate: true, roomId: null };
    if (received === "no agent") throw notFound("No agent has this number.");
    if (received.answer) deps.jobs.wake(aiReplyJob);
    await publishMessage(received.room, received.message);
    return { duplicate: false, roomId: received.room.id };
  }

  /**
   * The AI reply job of a room: the agent's answer to the conversation so far (runtime turn, channel sms),
   * sent and shown, and again while a message arrived during the turn (up to TURNS_PER_REPLY_JOB).
   */
  async function replyJob(roomId: string, attempt: JobAttempt): Promise<void> {
    for (let turn = 0; turn < TURNS_PER_REPLY_JOB; turn++) {
      if (!(await reply(roomId, attempt))) return;
    }
  }

  /**
   * One turn: false when there is nothing to answer (AI agent off, sender blocked, answered already, or a
   * person wrote last). A turn the model could not complete throws, so the job is retried, and leaves nothing in the
   * room, except on the job's last attempt: then the room shows the failed turn (and the job as failed).
   */
  async function reply(roomId: string, attempt: JobAttempt): Promise<boolean> {
    const room = await repo.findRoom(roomId);
    if (!room?.aiAgentEnabled) return false;
    if (room.externalAddress && (await repo.isBlocked(room.orgId, room.externalAddress))) return false;
    const agent = await deps.access.loadAccount(room.agentAccountId);
    if (!agent) return false;
    const conversation: ConversationRow | null = await repo.activeConversation(room.id);
    if (!conversation || conversation.status !== "active") return false;
    const last = (await deps.conversations.conversationMessages(conversation.uuid, 1))[0];
    // Answered already, or a person wrote last.
    if (last?.role !== "user") return false;
    const { staging, production } = await deps.agents.campaignsOf({ id: agent.id, orgId: room.orgId });
    const model = await deps.models.modelFor(room.orgId);
    const run = deps.turns.respond(
      {
        agent,
        organization: await deps.access.loadAccount(room.orgId),
        campaign: production ?? staging,
        stage: production ? "production" : "staging",
        room,
        conversation,
      },
      model,
      { abortSignal: attempt.signal },
    );
    let step = await run.next();
    while (!step.done) step = await run.next();
    let message = step.value.message;
    if (message.status !== "complete") {
      const failure = new Error(step.value.failure?.message ?? "The AI agent could not answer.");
      if (!attempt.finalAttempt || attempt.signal.aborted) {
        await repo.deleteMessage(message.id);
        throw failure;
      }
      await publishMessage((await repo.findRoom(room.id)) ?? room, message);
      throw failure;
    }
    const current = await repo.findRoom(room.id);
    if (message.text.trim()) {
      await repo.setDelivery(message.id, { deliveryStatus: "queued" });
      message = await deliver(current ?? room, agent, message);
    }
    await publishMessage(current ?? room, message);
    return true;
  }

  /** Resolves when every AI reply queued so far has been answered or has failed for good (tests). */
  const idle = () => deps.jobs.idle([aiReplyJob]);

  // Room changes ----------------------------------------------------------------------------------

  async function changeRoom(
    room: RoomRow,
    patch: Parameters<InboxRepository["updateRoom"]>[1],
    userId: number,
  ) {
    const updated = (await repo.updateRoom(room.id, patch)) ?? room;
    await publishRoom(updated);
    const listed = await repo.listedRoom(updated.id, userId);
    if (!listed) throw notFound(INBOX_MESSAGES.roomNotFound);
    return { room: roomSummary(listed), updated };
  }

  async function setAiAgent(access: Access, roomId: string, enabled: boolean) {
    const room = await roomOf(access, roomId);
    const { updated } = await changeRoom(room, { aiAgentEnabled: enabled }, access.caller.user.id);
    return { success: true as const, roomId: room.id, aiAgentEnabled: updated.aiAgentEnabled };
  }

  async function getAiAgent(access: Access, roomId: string) {
    const room = await roomOf(access, roomId);
    return { success: true as const, roomId: room.id, aiAgentEnabled: room.aiAgentEnabled };
  }

  async function setFolder(access: Access, roomId: string, folder: InboxFolder) {
    const room = await roomOf(access, roomId);
    return { success: true as const, room: (await changeRoom(room, { folder }, access.caller.user.id)).room };
  }

  async function close(access: Access, roomId: string, archive: boolean) {
    const room = await roomOf(access, roomId);
    const status = archive || room.status === "closed" ? "archived" : "closed";
    return { success: true as const, room: (await changeRoom(room, { status }, access.caller.user.id)).room };
  }

  async function unarchive(access: Access, roomId: string) {
    const room = await roomOf(access, roomId);
    return {
      success: true as const,
      room: (await changeRoom(room, { status: "open" }, access.caller.user.id)).room,
    };
  }

  async function rate(access: Access, roomId: string, rating: number | null) {
    const room = await roomOf(access, roomId);
    return { success: true as const, room: (await changeRoom(room, { rating }, access.caller.user.id)).room };
  }

  // Starting conversations --------------------------------------------------------------------------

  async function createProfile(access: Access, address: string) {
    const scope = scopeOf(access);
    const normalized = normalizeAddress(address);
    if (!normalized) throw badRequest(INBOX_MESSAGES.badAddress);
    const profile = await repo.externalProfile(scope.orgId, normalized.address, normalized.kind);
    return {
      success: true as const,
      profile: { username: profile.username, address: profile.address, kind: profile.kind },
    };
  }

  async function defaultAgent(access: Access, scope: RoomScope, agentId: number | undefined) {
    if (agentId !== undefined || scope.agentId !== null) {
      const { account } = await deps.agents.resolveAgent(
        access,
        agentId ?? scope.agentId ?? undefined,
        "canEditOrg",
      );
      return account;
    }
    const [first] = await repo.agentsWithNumbers(scope.orgId);
    return first ?? null;
  }

  async function groupRoom(access: Access, body: { users: string[]; agentId?: number | undefined }) {
    const scope = scopeOf(access);
    const cannot = () => new ApiError(400, INBOX_MESSAGES.cannotStart);
    const user = body.users[0] ?? "";
    const profile = user.startsWith("ext-") ? await repo.externalProfileByUsername(scope.orgId, user) : null;
    const address = profile?.address ?? normalizeAddress(user)?.address ?? null;
    if (!address || address.includes("@")) throw cannot();
    const agent = await defaultAgent(access, scope, body.agentId).catch(() => null);
    if (!agent?.switchboardPhoneNumber || agent.organizationId !== scope.orgId) throw cannot();
    if (await repo.isBlocked(scope.orgId, address)) throw cannot();
    const existing = await repo.findSmsRoom(agent.id, address);
    if (existing) return { success: true as const, roomId: existing.id, created: false };
    const room = await deps.conversations.createRoom(
      {
        id: randomUUID(),
        orgId: scope.orgId,
        agentAccountId: agent.id,
        channel: "sms",
        kind: "live",
        externalAddress: address,
        title: formatPhoneNumber(address),
        // A conversation a person starts is theirs: the AI agent stays off until they switch it on.
        aiAgentEnabled: false,
      },
      [
        { kind: "agent", accountId: agent.id, displayName: displayName(agent, "agentName") },
        { kind: "external", address },
        {
          kind: "user",
          userId: access.caller.user.id,
          address: access.caller.user.email,
          displayName: access.caller.user.fullName,
        },
      ],
    );
    await publishRoom(room);
    return { success: true as const, roomId: room.id, created: true };
  }

  // Blocking --------------------------------------------------------------------------------------

  /** The outside address an id names: a room id, an external profile username or an address. */
  async function addressOf(access: Access, id: string): Promise<string> {
    const scope = scopeOf(access);
    if (/^[0-9a-f-]{36}$/i.test(id)) {
      const room = await roomOf(access, id);
      if (room.externalAddress) return room.externalAddress;
    }
    if (id.startsWith("ext-")) {
      const profile = await repo.externalProfileByUsername(scope.orgId, id);
      if (profile) return profile.address;
    }
    const normalized = normalizeAddress(id);
    if (!normalized) throw badRequest(INBOX_MESSAGES.badAddress);
    return normalized.address;
  }

  async function getBlock(access: Access, id: string, both: boolean) {
    const scope = scopeOf(access);
    const address = await addressOf(access, id);
    const blocked = await repo.isBlocked(scope.orgId, address);
    return { success: true as const, blocked, ...(both ? { blockedBy: false } : {}) };
  }

  async function setBlock(access: Access, target: string, blocked: boolean) {
    const scope = scopeOf(access);
    const address = await addressOf(access, target);
    await repo.setBlocked(scope.orgId, address, blocked, access.caller.user.id);
    const moved = await repo.moveRoomsOf(scope.orgId, address, blocked ? "agent" : "priority");
    for (const roomId of moved)
      await realtime.publish({ orgId: scope.orgId, agentId: null, event: { type: "room", roomId } });
    return { success: true as const, address, blocked };
  }

  // Read state and activity -----------------------------------------------------------------------

  async function markUnread(access: Access, roomId: string, folder: InboxFolder) {
    const room = await roomOf(access, roomId);
    if (room.folder !== folder) throw notFound(INBOX_MESSAGES.roomNotFound);
    await repo.markUnread(room.orgId, access.caller.user.id, room.id);
    await realtime.publish({
      orgId: room.orgId,
      agentId: room.agentAccountId,
      event: { type: "read", roomId: room.id, userId: access.caller.user.id },
    });
    return { success: true as const, roomId: room.id, unread: true as const };
  }

  async function activity(access: Access, folder: InboxFolder, simple: boolean) {
    const scope = scopeOf(access);
    const { rows, total } = await repo.unreadRooms(scope, access.caller.user.id, folder, simple ? 1 : 100);
    const items: ActivityItem[] = simple
      ? []
      : rows.map((listed) => ({
          roomId: listed.room.id,
          username: listed.room.externalAddress ?? "",
          displayName: partyName(listed),
          unreadCount: listed.unreadCount,
          lastMessage: listed.room.lastMessageText,
          lastMessageAt: listed.room.lastMessageAt ? listed.room.lastMessageAt.getTime() : null,
        }));
    return { success: true as const, activity: items, total };
  }

  async function clearActivity(
    access: Access,
    folder: InboxFolder,
    body: { username?: string | undefined; roomId?: string | undefined; clearAll: boolean },
  ) {
    const scope = scopeOf(access);
    let roomIds: string[];
    if (body.roomId) roomIds = [(await roomOf(access, body.roomId)).id];
    else if (body.username)
      roomIds = await repo.roomIdsOf(scope, folder, await addressOf(access, body.username));
    else if (body.clearAll) roomIds = await repo.roomIdsOf(scope, folder, null);
    else throw badRequest("Give roomId, username or clearAll.");
    const cleared = await repo.markRead(scope.orgId, access.caller.user.id, roomIds);
    await realtime.publish({
      orgId: scope.orgId,
      agentId: scope.agentId,
      event: {
        type: "read",
        roomId: roomIds.length === 1 ? (roomIds[0] ?? null) : null,
        userId: access.caller.user.id,
      },
    });
    return { success: true as const, cleared };
  }

  // Reactions -------------------------------------------------------------------------------------

  async function react(
    access: Access,
    body: { roomId: string; messageId: number; reaction: string },
    add: boolean,
  ) {
    const room = await roomOf(access, body.roomId);
    const message = await repo.findMessage(body.messageId);
    if (!message || message.roomId !== room.id) throw notFound(INBOX_MESSAGES.messageNotFound);
    if (add)
      await repo.addReaction({
        orgId: room.orgId,
        roomId: room.id,
        messageId: message.id,
        userId: access.caller.user.id,
        reaction: body.reaction,
      });
    else await repo.removeReaction(message.id, access.caller.user.id, body.reaction);
    await realtime.publish({
      orgId: room.orgId,
      agentId: room.agentAccountId,
      event: { type: "reaction", roomId: room.id, messageId: message.id },
    });
    const reactions = await repo.reactionsOf([message.id]);
    return {
      success: true as const,
      messageId: message.id,
      reactions: reactions.map((r) => ({
        reaction: r.reaction,
        userId: r.userId,
        mine: r.userId === access.caller.user.id,
      })),
    };
  }

  // Realtime connections --------------------------------------------------------------------------

  /**
   * One browser's WebSocket: subscribed first, then `hello`, the messages after `since` it missed, and
   * `ready`; live events that arrive meanwhile wait and are sent after, without repeating a message.
   */
  async function connect(
    access: Access,
    since: number | undefined,
    send: (event: RealtimeEvent) => void,
    onClose: (cleanup: () => void) => void,
  ): Promise<void> {
    const scope = scopeOf(access);
    const sent = new Set<number>();
    const waiting: RealtimeEvent[] = [];
    let live = false;
    const forward = (event: RealtimeEvent) => {
      if (event.type === "message") {
        if (sent.has(event.message.id)) return;
        sent.add(event.message.id);
      }
      send(event);
    };
    const unsubscribe = realtime.subscribe(scope.orgId, (envelope) => {
      if (scope.agentId !== null && envelope.agentId !== null && envelope.agentId !== scope.agentId) return;
      if (live) forward(envelope.event);
      else waiting.push(envelope.event);
    });
    onClose(unsubscribe);
    const lastMessageId = await repo.lastMessageId(scope.orgId);
    send({ type: "hello", orgId: scope.orgId, lastMessageId });
    if (since !== undefined) {
      const missed = await repo.messagesSince(scope, since, CATCH_UP_LIMIT);
      const folders = new Map<string, InboxFolder>();
      for (const row of missed) {
        let folder = folders.get(row.roomId);
        if (!folder) {
          folder = (await repo.findRoom(row.roomId))?.folder ?? "priority";
          folders.set(row.roomId, folder);
        }
        forward(await messageEvent(row, { folder }));
      }
    }
    live = true;
    for (const event of waiting.splice(0)) forward(event);
    send({ type: "ready", lastMessageId: Math.max(lastMessageId, ...sent) });
  }

  async function loadMessageEvent(messageId: number): Promise<RealtimeEvent | null> {
    const row = await repo.findMessage(messageId);
    if (!row) return null;
    const room = await repo.findRoom(row.roomId);
    return room ? messageEvent(row, room) : null;
  }

  return {
    scopeOf,
    scopeOfAccount,
    list,
    listOfAccount,
    detail,
    send,
    receiveInbound,
    replyJob,
    idle,
    setAiAgent,
    getAiAgent,
    setFolder,
    close,
    unarchive,
    rate,
    createProfile,
    groupRoom,
    getBlock,
    setBlock,
    markUnread,
    activity,
    clearActivity,
    react,
    connect,
    loadMessageEvent,
  };
}

export type InboxService = ReturnType<typeof createInboxService>;

import { randomUUID } from "node:crypto";
import { PUBLIC_CHAT_PER_HOUR, PUBLIC_CHAT_PER_MINUTE, PUBLIC_MESSAGES } from "@switchboard/api";
import { normalizeAddress } from "@switchboard/core";
import { and, eq, gt, sql } from "drizzle-orm";
import type { AccountRow } from "../../access/access.ts";
import { ApiError, notFound } from "../../api-error.ts";
import { conversationMessages } from "../../db/schema/index.ts";
import type { JobAttempt } from "../../jobs/job.ts";
import type { ConversationRow } from "../conversations/index.ts";
import { displayName } from "../runtime/index.ts";
import type { MessageRow, RoomRow } from "./inbox.repository.ts";
import type { InboxAgentText } from "./inbox-agent-text.ts";
import type { InboundSms, InboxDeps } from "./inbox-deps.ts";
import type { InboxSending } from "./inbox-send.ts";
import type { InboxViews } from "./inbox-views.ts";
import { messageEventData } from "./inbox-webhooks.ts";
import { aiReplyJob } from "./jobs.ts";

/** Most turns one AI reply job takes (a message that arrived during a turn is answered by the next). */
const TURNS_PER_REPLY_JOB = 3;

/** Text messages from outside and the AI agent's replies to them (the AI reply job). */
export function createInboxInbound(
  deps: InboxDeps,
  views: InboxViews,
  sending: InboxSending,
  listeners?: Pick<InboxAgentText, "notifyInbound" | "notifyReply">,
) {
  const { repo } = deps;
  const { publishMessage } = views;
  const { stageOf, sessionFor, deliver } = sending;
  /** Told of every message from outside once it is stored (notifications). */
  const inboundListeners = new Set<(room: RoomRow, message: MessageRow) => void | Promise<void>>();
  function onInbound(listener: (room: RoomRow, message: MessageRow) => void | Promise<void>) {
    inboundListeners.add(listener);
    return () => inboundListeners.delete(listener);
  }
  async function tellInbound(room: RoomRow, message: MessageRow) {
    for (const listener of inboundListeners) {
      try {
        await listener(room, message);
      } catch (error) {
        deps.log.warn({ err: error, roomId: room.id }, "inbound message listener failed");
      }
    }
  }

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
      let { room } = await t.conversations.personRoom({
        orgId,
        agentAccountId: agent.id,
        address: from,
        channel: "sms",
        folder: blocked ? "agent" : "priority",
        personName: sms.carrierName ?? null,
        agentName: displayName(agent, "agentName"),
      });
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
      await deps.webhooks?.emit(orgId, "message.received", messageEventData(room, message, to), {
        transaction: t.tx,
      });
      return { room, message, answer, conversationUuid: conversation.uuid };
    });
    if (received === "duplicate") return { duplicate: true, roomId: null };
    if (received === "no agent") throw notFound("No agent has this number.");
    deps.webhooks?.wake();
    await publishMessage(received.room, received.message);
    // Before the reply is woken: a listener may turn the AI agent off (an opt-out word).
    await listeners?.notifyInbound({
      room: received.room,
      message: received.message,
      conversationUuid: received.conversationUuid,
    });
    if (received.answer) deps.jobs.wake(aiReplyJob);
    await tellInbound(received.room, received.message);
    return { duplicate: false, roomId: received.room.id };
  }

  /**
   * A visitor of a public page (an anonymous session's user) writes to the page's agent: the web-chat room
   * of that visitor and agent in the organisation's inbox, the message, and the AI reply's job, all or
   * nothing. At most PUBLIC_CHAT_PER_MINUTE and PUBLIC_CHAT_PER_HOUR messages per visitor and agent.
   */
  async function receiveWebChat(input: { agent: AccountRow; visitorUserId: number; text: string }) {
    const { agent, visitorUserId, text } = input;
    const orgId = agent.organizationId;
    if (orgId === null) throw notFound(PUBLIC_MESSAGES.chatNotFound);
    const address = `visitor-${visitorUserId}`;
    const blocked = await repo.isBlocked(orgId, address);
    const stage = await stageOf(agent, orgId);
    const received = await deps.transaction(async (t) => {
      await t.tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`web-chat:${agent.id}:${address}`}))`);
      let room = await t.repo.findWebRoom(agent.id, address);
      if (room) {
        const sent = async (ms: number) => {
          const [row] = await t.tx
            .select({ n: sql<number>`count(*)::int` })
            .from(conversationMessages)
            .where(
              and(
                eq(conversationMessages.roomId, (room as RoomRow).id),
                eq(conversationMessages.role, "user"),
                gt(conversationMessages.createdAt, new Date(Date.now() - ms)),
              ),
            );
          return row?.n ?? 0;
        };
        if ((await sent(60_000)) >= PUBLIC_CHAT_PER_MINUTE || (await sent(3_600_000)) >= PUBLIC_CHAT_PER_HOUR)
          throw new ApiError(429, PUBLIC_MESSAGES.chatLimited);
      } else {
        room = await t.conversations.createRoom(
          {
            id: randomUUID(),
            orgId,
            agentAccountId: agent.id,
            channel: "web",
            kind: "live",
            externalAddress: address,
            title: `Web visitor ${visitorUserId}`,
            folder: blocked ? "agent" : "priority",
          },
          [
            { kind: "agent", accountId: agent.id, displayName: displayName(agent, "agentName") },
            { kind: "external", userId: visitorUserId, address, displayName: "Web visitor" },
          ],
        );
      }
      const conversation = await sessionFor(t, room, agent, "inbound", stage);
      const message = await t.conversations.insertMessage({
        orgId,
        roomId: room.id,
        conversationUuid: conversation.uuid,
        role: "user",
        senderAddress: address,
        text,
        media: [],
        deliveryStatus: "received",
      });
      await t.conversations.updateConversation(conversation.uuid, { lastActivityAt: message.createdAt });
      room =
        (await t.repo.updateRoom(room.id, {
          lastInboundMessageId: message.id,
          ...(room.status !== "open" ? { status: "open" as const } : {}),
        })) ?? room;
      const answer = room.aiAgentEnabled && !blocked;
      if (answer) await deps.jobs.send(aiReplyJob, { roomId: room.id }, { transaction: t.tx });
      await deps.webhooks?.emit(orgId, "message.received", messageEventData(room, message, agent.username), {
        transaction: t.tx,
      });
      return { room, message, answer };
    });
    if (received.answer) deps.jobs.wake(aiReplyJob);
    deps.webhooks?.wake();
    await publishMessage(received.room, received.message);
    await tellInbound(received.room, received.message);
    return received;
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
    const conversation: ConversationRow | null = await repo.textConversation(room.id);
    if (conversation?.status !== "active") return false;
    const last = (await deps.conversations.conversationMessages(conversation.uuid, 1))[0];
    // Answered already, or a person wrote last.
    if (last?.role !== "user") return false;
    const { stage, campaign } = await deps.agents.answeringCampaignOf({ id: agent.id, orgId: room.orgId });
    const model = await deps.models.modelFor(room.orgId);
    // A conversation an outbound task started carries the task's variables ({column} in the instructions).
    const taskVariables = conversation.outcome.taskVariables as Record<string, string> | undefined;
    const run = deps.turns.respond(
      {
        agent,
        organization: await deps.access.loadAccount(room.orgId),
        campaign: taskVariables
          ? { ...campaign, variables: { ...campaign.variables, ...taskVariables } }
          : campaign,
        stage,
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
      message = await deliver(current ?? room, agent, message, step.value.text);
      if (message.deliveryStatus !== "failed")
        await deps.webhooks?.emit(
          room.orgId,
          "message.sent",
          messageEventData(current ?? room, message, agent.switchboardPhoneNumber),
        );
    }
    await publishMessage(current ?? room, message);
    await listeners?.notifyReply({ room: current ?? room, message });
    return true;
  }

  /** Resolves when every AI reply queued so far has been answered or has failed for good (tests). */
  const idle = () => deps.jobs.idle([aiReplyJob]);

  return { receiveInbound, receiveWebChat, onMessageFromOutside: onInbound, replyJob, idle };
}

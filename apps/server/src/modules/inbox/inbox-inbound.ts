import { randomUUID } from "node:crypto";
import { formatPhoneNumber, normalizeAddress } from "@switchboard/core";
import { notFound } from "../../http/api-error.ts";
import type { JobAttempt } from "../../jobs/job.ts";
import { displayName } from "../runtime/agent-turn.ts";
import type { ConversationRow } from "../runtime/conversations.repository.ts";
import type { InboundSms, InboxDeps } from "./inbox-deps.ts";
import type { InboxSending } from "./inbox-send.ts";
import type { InboxViews } from "./inbox-views.ts";
import { messageEventData } from "./inbox-webhooks.ts";
import { aiReplyJob } from "./jobs.ts";

/** Most turns one AI reply job takes (a message that arrived during a turn is answered by the next). */
const TURNS_PER_REPLY_JOB = 3;

/** Text messages from outside and the AI agent's replies to them (the AI reply job). */
export function createInboxInbound(deps: InboxDeps, views: InboxViews, sending: InboxSending) {
  const { repo } = deps;
  const { publishMessage } = views;
  const { stageOf, sessionFor, deliver } = sending;

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
      await deps.webhooks?.emit(orgId, "message.received", messageEventData(room, message, to), {
        transaction: t.tx,
      });
      return { room, message, answer };
    });
    if (received === "duplicate") return { duplicate: true, roomId: null };
    if (received === "no agent") throw notFound("No agent has this number.");
    if (received.answer) deps.jobs.wake(aiReplyJob);
    deps.webhooks?.wake();
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
      if (message.deliveryStatus !== "failed")
        await deps.webhooks?.emit(
          room.orgId,
          "message.sent",
          messageEventData(current ?? room, message, agent.switchboardPhoneNumber),
        );
    }
    await publishMessage(current ?? room, message);
    return true;
  }

  /** Resolves when every AI reply queued so far has been answered or has failed for good (tests). */
  const idle = () => deps.jobs.idle([aiReplyJob]);

  return { receiveInbound, replyJob, idle };
}

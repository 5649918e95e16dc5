import type { ConversationRow, ConversationsRepository } from "../conversations/index.ts";
import type { WebhookEvents } from "../webhooks/index.ts";
import type { CallSession } from "./call-session.ts";

/**
 * Tells the organisation's webhooks about a call: `call.started` once the call is set up and `call.ended`
 * with its transcript, duration and outcome once either side hung up. Failures to emit are logged, never
 * thrown into the call.
 */
export function emitCallEvents(
  session: CallSession,
  deps: {
    conversations: Pick<ConversationsRepository, "findConversation" | "firstMessages">;
    events: Pick<WebhookEvents, "emit">;
    log: { warn(details: object, message: string): void };
  },
): void {
  const callData = (row: ConversationRow) => ({
    callId: row.callId ?? row.uuid,
    agentId: row.agentAccountId,
    direction: row.channel === "web" ? ("web" as const) : row.direction,
    from: row.fromAddress,
    to: row.toAddress,
    startedAt: row.startedAt.getTime(),
  });
  const warn = (error: unknown) => deps.log.warn({ err: error }, "could not emit a call event");
  void (async () => {
    const uuid = await session.ready;
    if (!uuid) return;
    const started = await deps.conversations.findConversation(uuid);
    if (started) await deps.events.emit(started.orgId, "call.started", callData(started));
    const summary = await session.ended;
    const ended = await deps.conversations.findConversation(uuid);
    if (!ended) return;
    const endedAt = (ended.endedAt ?? new Date()).getTime();
    const messages = await deps.conversations.firstMessages(uuid, 2000);
    await deps.events.emit(ended.orgId, "call.ended", {
      ...callData(ended),
      endedAt,
      durationSeconds: Math.max(0, Math.round((endedAt - ended.startedAt.getTime()) / 1000)),
      outcome: summary.outcome ?? null,
      transcript: messages
        .filter((message) => message.text)
        .map((message) => ({ role: message.role, text: message.text, at: message.createdAt.getTime() })),
      recordingUrl: summary.recordingUrl ?? null,
    });
  })().catch(warn);
}

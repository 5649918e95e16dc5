/**
 * Setting a call up: the speech tools are there, the agent exists, its settings, campaign (voice) and model;
 * the VAD; the voice room and conversation; then the greeting is queued and frames that came early are
 * heard. Anything missing ends the call as failed with a clear reason.
 */
import { randomUUID } from "node:crypto";
import { displayName } from "../runtime/agent-turn.ts";
import { fail } from "./call-end.ts";
import type { CallContext } from "./call-session-types.ts";
import { callSettingsOf } from "./call-settings.ts";
import { greet, queueTurn } from "./call-turns.ts";
import { onFrame } from "./caller-input.ts";
import { createEndpointer } from "./endpointer.ts";

export function setUpCall(ctx: CallContext) {
  const { deps, options, leg, log } = ctx;
  const { conversations } = deps;
  void (async () => {
    const missing = deps.stt.unavailable() ?? deps.tts.unavailable();
    if (missing) return fail(ctx, missing);
    const agent = await deps.loadAccount(options.agentAccountId);
    if (agent?.accountType !== "agent" || !agent.organizationId)
      return fail(ctx, `no agent with id ${options.agentAccountId}`);
    ctx.settings = callSettingsOf(agent.details, options.settings);
    ctx.endpointer = createEndpointer(ctx.settings);
    const stage = options.stage ?? "production";
    const campaign = await deps.lookups.campaignOf({ id: agent.id, orgId: agent.organizationId }, stage);
    const resolved = await deps.lookups.modelOrNull(agent.organizationId);
    if (!resolved.model) return fail(ctx, resolved.error ?? "the language model is unavailable");
    ctx.model = resolved.model;
    ctx.voice = campaign.voice;
    ctx.vad = await deps.vad.createStream();
    if (ctx.finished) return;
    const { info } = leg;
    const room = await conversations.createRoom(
      {
        id: randomUUID(),
        orgId: agent.organizationId,
        agentAccountId: agent.id,
        channel: "voice",
        kind: options.roomKind ?? "live",
        externalAddress: info.from,
        title: `Call from ${info.from}`,
      },
      [
        { kind: "agent", accountId: agent.id, displayName: displayName(agent, "agentName") },
        { kind: "external", address: info.from },
      ],
    );
    const conversation = await conversations.createConversation({
      uuid: randomUUID(),
      orgId: agent.organizationId,
      roomId: room.id,
      agentAccountId: agent.id,
      channel: "voice",
      stage,
      direction: "inbound",
      fromAddress: info.from,
      toAddress: info.to,
      callId: info.callId,
    });
    ctx.subject = {
      agent,
      organization: await deps.lookups.organizationOf(agent),
      campaign,
      stage,
      room,
      conversation,
    };
    ctx.resolveReady(conversation.uuid);
    log.info({ uuid: conversation.uuid, callId: info.callId, agentId: agent.id }, "call started");
    // The agent speaks first.
    queueTurn(ctx, () => greet(ctx));
    for (const frame of ctx.early.splice(0)) onFrame(ctx, frame);
  })().catch((error: unknown) => {
    fail(ctx, error instanceof Error ? error.message : String(error));
  });
}

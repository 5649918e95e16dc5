/**
 * Setting a call up: the speech tools are there, the agent exists, its settings, campaign (voice) and model;
 * the VAD; the voice room and conversation; then the greeting is queued and frames that came early are
 * heard. Anything missing ends the call as failed with a clear reason.
 */
import { randomUUID } from "node:crypto";
import { findVoice } from "@switchboard/core";
import { SANDBOX_CONFIGURATION_NOTE } from "../../providers/llm/sandbox-responder.ts";
import { displayName } from "../runtime/index.ts";
import { fail, finish } from "./call-end.ts";
import { callSettingsOf } from "./call-settings.ts";
import type { Call } from "./call-stages.ts";

export function setUpCall(ctx: Call) {
  const { deps, options, leg, log } = ctx;
  const { conversations } = deps;
  const setUp = (async () => {
    const missing = deps.stt.unavailable() ?? deps.tts.unavailable();
    if (missing) return fail(ctx, missing);
    const agent = await deps.loadAccount(options.agentAccountId);
    if (agent?.accountType !== "agent" || !agent.organizationId)
      return fail(ctx, `no agent with id ${options.agentAccountId}`);
    ctx.settings = callSettingsOf(agent.details, options.settings);
    if (!ctx.settings.recordCalls || !deps.storage) ctx.recorder = null;
    const stage = options.stage ?? "production";
    const agentCampaign = await deps.lookups.campaignOf({ id: agent.id, orgId: agent.organizationId }, stage);
    const campaign =
      options.variables && Object.keys(options.variables).length > 0
        ? { ...agentCampaign, variables: { ...agentCampaign.variables, ...options.variables } }
        : agentCampaign;
    const resolved = await deps.lookups.modelOrNull(agent.organizationId);
    if (!resolved.model) return fail(ctx, resolved.error ?? "the language model is unavailable");
    ctx.model = resolved.model;
    // Said to the agent's owner (the log), never to the caller.
    if (resolved.model.provider === "sandbox") log.info(SANDBOX_CONFIGURATION_NOTE);
    // The agent's voice is a picker id ("ava"): the provider's voice for it, else its engine voice ("en-us+f3").
    const voice = findVoice(campaign.voice);
    ctx.voice = voice ? (ctx.deps.tts.voiceFor?.(voice) ?? voice.engineVoice) : campaign.voice;
    ctx.hearing.listen(await deps.vad.createStream());
    const { info } = leg;
    const outbound = options.direction === "outbound";
    const external = outbound ? info.to : info.from;
    const title = outbound ? `Call to ${external}` : `Call from ${external}`;
    const agentName = displayName(agent, "agentName");
    // A live call joins the person's thread (their texts, their other calls); a test call has a room of its own.
    const room =
      (options.roomKind ?? "live") === "live"
        ? (
            await conversations.personRoom({
              orgId: agent.organizationId,
              agentAccountId: agent.id,
              address: external,
              channel: "voice",
              title,
              agentName,
            })
          ).room
        : await conversations.createRoom(
            {
              id: randomUUID(),
              orgId: agent.organizationId,
              agentAccountId: agent.id,
              channel: "voice",
              kind: "test",
              externalAddress: external,
              title,
            },
            [
              { kind: "agent", accountId: agent.id, displayName: agentName },
              { kind: "external", address: external },
            ],
          );
    const conversation = await conversations.createConversation({
      uuid: randomUUID(),
      orgId: agent.organizationId,
      roomId: room.id,
      agentAccountId: agent.id,
      channel: "voice",
      stage,
      direction: outbound ? "outbound" : "inbound",
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
    // Hung up while it was set up: the call is logged (the end waits for this), nothing is said.
    if (ctx.finished) return;
    const message = options.message?.trim();
    if (message) {
      // A message to leave (voicemail): said word for word, then the call ends; nobody is answered.
      ctx.closing = true;
      ctx.earlyFrames.close?.();
      ctx.turns.queue(async () => {
        await ctx.turns.sayLine(message);
        await ctx.speech.drained();
        finish(ctx, "agent-ended");
      });
      return;
    }
    // The agent speaks first.
    ctx.turns.greet();
    // The caller's frames that came while the call was set up are heard now, in order.
    ctx.earlyFrames.release();
  })().catch((error: unknown) => {
    fail(ctx, error instanceof Error ? error.message : String(error));
  });
  // The call's turns and its end wait for the set-up: a caller who hangs up while it runs (a busy server takes
  // a second or more) still has the call they were answered on logged, and no turn runs without its
  // conversation.
  ctx.turns.after(setUp);
}

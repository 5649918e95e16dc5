import { randomUUID } from "node:crypto";
import * as api from "@switchboard/api";
import { ApiError } from "../../http/api-error.ts";
import { handle } from "../../http/routes.ts";
import type { AgentsService } from "../agents/agents.service.ts";
import type { ConversationsRepository } from "../runtime/conversations.repository.ts";
import { createBrowserCallLeg } from "./browser-leg.ts";
import type { CallLeg } from "./call-leg.ts";
import type { CallOutcome, CallSession, StartCallOptions } from "./call-session.ts";

/** Why a call ended, in words for the caller's screen. */
const ENDED: Record<CallOutcome, string> = {
  "caller-hangup": api.VOICE_MESSAGES.hungUp,
  "agent-ended": "The agent ended the call.",
  idle: "The call ended after a long silence.",
  "max-length": "The call reached its maximum length.",
  failed: api.VOICE_MESSAGES.callFailed,
};

/**
 * The browser test call (`voiceCall`): the socket becomes a call leg, the agent (below the caller's target,
 * canEditOrg) answers it through the same pipeline as SIP calls, and the browser gets `ready`, live
 * captions, `clear` on barge-in and `ended`. A refusal after the upgrade (an agent that is not the
 * caller's, missing speech tools, no model) is an `ended` message with the reason, then a normal close.
 */
export function voiceRoutes(deps: {
  agents: AgentsService;
  conversations: ConversationsRepository;
  startCallSession: (leg: CallLeg, options: StartCallOptions) => CallSession;
}) {
  return [
    handle(api.voiceCall, async ({ query }, { access, socket, request }) => {
      if (!socket) throw new ApiError(426, api.VOICE_MESSAGES.webSocketOnly);
      const { user } = access.caller;
      // Listening from the start: the browser's first audio may arrive before the agent is resolved.
      const browser = createBrowserCallLeg(socket, {
        transport: "browser",
        callId: randomUUID(),
        from: user.email ?? `user ${user.id}`,
        to: `agent ${query.agentId ?? access.target.id}`,
        narrowband: false,
      });
      let agentAccountId: number;
      try {
        agentAccountId = (await deps.agents.resolveAgent(access, query.agentId, "canEditOrg")).account.id;
      } catch (error) {
        const reason = error instanceof ApiError ? error.message : api.VOICE_MESSAGES.callFailed;
        browser.send({ type: "ended", reason, outcome: "failed" });
        browser.close();
        return;
      }
      if (browser.closed) return;
      // Captions wait for `ready`, so the browser learns the conversation first.
      let held: api.VoiceCallServerMessage[] | null = [];
      const session = deps.startCallSession(browser.leg, {
        agentAccountId,
        stage: query.stage,
        roomKind: "test",
        onTranscript(role, text, final) {
          const message: api.VoiceCallServerMessage = { type: "caption", role, text, final };
          if (held) held.push(message);
          else browser.send(message);
        },
      });
      const uuid = await session.ready;
      if (uuid) {
        const conversation = await deps.conversations.findConversation(uuid);
        browser.send({ type: "ready", uuid, roomId: conversation?.roomId ?? "" });
        request.log.info({ uuid, agentAccountId }, "browser call connected");
      }
      for (const message of held) browser.send(message);
      held = null;
      const summary = await session.ended;
      browser.send({
        type: "ended",
        reason: summary.error ?? ENDED[summary.outcome],
        outcome: summary.outcome,
      });
      browser.close();
    }),
  ];
}

import { randomUUID } from "node:crypto";
import type { WebSocket } from "@fastify/websocket";
import * as api from "@switchboard/api";
import type { FastifyBaseLogger } from "fastify";
import { ApiError } from "../../api-error.ts";
import type { ConversationsRepository } from "../conversations/index.ts";
import { createBrowserCallLeg } from "./browser-leg.ts";
import type { CallLeg, CallLegInfo } from "./call-leg.ts";
import type { CallOutcome, CallSession, StartCallOptions } from "./call-session.ts";

/** Why a call ended, in words for the caller's screen. */
const ENDED: Record<CallOutcome, string> = {
  "caller-hangup": api.VOICE_MESSAGES.hungUp,
  "agent-ended": "The agent ended the call.",
  idle: "The call ended after a long silence.",
  "max-length": "The call reached its maximum length.",
  failed: api.VOICE_MESSAGES.callFailed,
  transferred: api.VOICE_MESSAGES.transferred,
};

export type StartCall = (leg: CallLeg, options: StartCallOptions) => CallSession;

/** Who answers a browser call, and the caller's address once it is known (the leg's until then). */
export type CallAnswer = Pick<StartCallOptions, "agentAccountId" | "stage" | "roomKind"> & { from?: string };

/**
 * One browser call on an upgraded socket: the socket becomes a call leg at once (the browser's first audio
 * may arrive before the agent is known), `answer` decides who answers (a refusal is an `ended` message with
 * its reason, then a normal close), then `ready`, live captions, `clear` on barge-in and `ended`.
 */
export async function runBrowserCall(
  socket: WebSocket,
  log: FastifyBaseLogger,
  call: { from: string; to: string; answer: () => Promise<CallAnswer> },
  deps: { startCallSession: StartCall; conversations: ConversationsRepository },
): Promise<void> {
  const info: CallLegInfo = {
    transport: "browser",
    callId: randomUUID(),
    from: call.from,
    to: call.to,
    narrowband: false,
  };
  const browser = createBrowserCallLeg(socket, info);
  let answer: CallAnswer;
  try {
    const { from, ...answered } = await call.answer();
    if (from) info.from = from;
    answer = answered;
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
    ...answer,
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
    log.info({ uuid, agentAccountId: answer.agentAccountId }, "browser call connected");
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
}

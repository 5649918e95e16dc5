import { z } from "zod";
import { idSchema } from "../fields.ts";
import { defineRoute } from "../route.ts";
import { stageSchema } from "./agents.ts";

/**
 * Voice calls from the browser: the agent editor's (and onboarding's) test call. One WebSocket carries the
 * call: binary messages are audio (PCM16 little-endian, 16 kHz, mono, both ways; the browser may send any
 * whole number of samples, the server sends 20 ms frames paced in real time), text messages are JSON
 * control messages (`VoiceCallClientMessage` up, `VoiceCallServerMessage` down).
 */

export const VOICE_MESSAGES = {
  webSocketOnly: "Connect to this address with a WebSocket.",
  callFailed: "The call could not be started.",
  callEnded: "The call has ended.",
  hungUp: "You hung up.",
  noMicrophone: "No microphone was found. Connect one and try again.",
  microphoneDenied: "Microphone access was denied. Allow it in the browser's site settings and try again.",
  connectionLost: "The connection to the call was lost.",
  insecurePage: "The browser allows the microphone only on HTTPS pages or on localhost.",
} as const;

/** Sample rate of the call's audio, both ways. */
export const VOICE_SAMPLE_RATE = 16_000;
/** The server's audio frames: 20 ms (320 samples, 640 bytes). */
export const VOICE_FRAME_MS = 20;

export const voiceCallQuerySchema = z.object({
  agentId: idSchema.optional(),
  /** Which copy of the agent answers: the editor tests `staging` (default), like the test chat. */
  stage: stageSchema.default("staging"),
});

/** Control messages from the browser. */
export type VoiceCallClientMessage = { type: "dtmf"; digit: string } | { type: "hangup" };

/** Control messages to the browser. */
export type VoiceCallServerMessage =
  /** The call is set up: the conversation's uuid and room (its transcript in Calls). */
  | { type: "ready"; uuid: string; roomId: string }
  /** What was said: the caller's recognised turn, or the agent's text as it is spoken (final at its end). */
  | { type: "caption"; role: "caller" | "agent"; text: string; final: boolean }
  /** The caller barged in: drop every agent frame queued for playback. */
  | { type: "clear" }
  /** The call is over; `reason` says why (a refusal's message when it never started). */
  | { type: "ended"; reason: string; outcome: string };

export const voiceCall = defineRoute({
  id: "voiceCall",
  method: "GET",
  path: "/api/v1/voice/call",
  summary:
    "WebSocket: a test call with an agent (agentId, stage staging by default). Binary messages are PCM16 LE 16 kHz mono audio both ways (the server sends 20 ms frames in real time); text messages are JSON: up dtmf {digit} and hangup; down ready {uuid, roomId}, caption {role, text, final}, clear (barge-in: drop queued playback) and ended {reason}. A plain GET answers 426.",
  tag: "Voice",
  auth: "token",
  permission: "canEditOrg",
  query: voiceCallQuerySchema,
  produces: "websocket",
});

export const voiceRoutes = [voiceCall] as const;

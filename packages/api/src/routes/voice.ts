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
  unknownVoice: "Unknown voice.",
  publicCallsLimited: "Too many calls from this browser. Try again later.",
  transferred: "The call was transferred.",
} as const;

/** Calls a public page's visitor may start in an hour (one session, one browser). */
export const PUBLIC_CALLS_PER_HOUR = 5;

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
  /**
   * What was said: the caller's recognised turn, the agent's text as it is spoken (final at its end), or,
   * once the call is transferred, the words of the person it was put through to (where the line knows
   * them: the sandbox carrier's simulated person).
   */
  | { type: "caption"; role: "caller" | "agent" | "destination"; text: string; final: boolean }
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
  writes: true,
  query: voiceCallQuerySchema,
  produces: "websocket",
});

/**
 * How an agent takes turns on calls, and whether its calls are recorded (kept in the agent account's
 * `details.callSettings`). Ranges are the server's; a value outside them is refused.
 */
export const CALL_SETTINGS_DEFAULTS = {
  endpointSilenceMs: 500,
  bargeInMinSpeechMs: 400,
  recordCalls: true,
  recordingNotice: "This call may be recorded.",
  transferDestinations: [],
} as const;

/** Longest recording notice: a sentence or two, said before the greeting of every recorded call. */
export const RECORDING_NOTICE_MAX = 300;
export const RECORDING_NOTICE_MESSAGE = `Enter a recording notice of 1 to ${RECORDING_NOTICE_MAX} characters; callers hear it before the greeting.`;

export const TRANSFER_DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;

const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Use a 24-hour time such as 09:00.");

/**
 * A person or team the agent may hand a call to, by name ("sales", "the on-call vet"): a phone number
 * (E.164) or a SIP URI, the hours it takes calls (the agent's time zone; none: always), and how long a warm
 * transfer lets it ring before the agent takes a message instead.
 */
export const transferDestinationSchema = z.object({
  name: z.string().trim().min(1).max(60),
  to: z
    .string()
    .trim()
    .regex(
      /^(\+[1-9]\d{7,14}|sips?:[^\s@<>"]+@[A-Za-z0-9.\-[\]:]+)$/,
      "Enter a phone number in international format (+15035550100) or a SIP address (sip:user@host).",
    ),
  hours: z
    .object({ days: z.array(z.enum(TRANSFER_DAYS)).min(1).max(7), start: clockTime, end: clockTime })
    .nullable()
    .default(null),
  ringSeconds: z.number().int().min(1).max(120).default(20),
});
export type TransferDestination = z.infer<typeof transferDestinationSchema>;

export const callSettingsFieldsSchema = z.object({
  /** Silence after the caller's last word before the agent answers. */
  endpointSilenceMs: z.number().int().min(200).max(3000),
  /** Interruption sensitivity: how long the caller must talk over the agent to stop it (shorter: a backchannel). */
  bargeInMinSpeechMs: z.number().int().min(60).max(2000),
  /**
   * Record calls (on by default): a stereo WAV (caller left, agent right) played in the call's details in
   * Calls. A recorded call opens with `recordingNotice`.
   */
  recordCalls: z.boolean(),
  /**
   * Said before the greeting of every recorded call (the caller's notice that it is recorded), and stored
   * as the agent's first words; its `{variables}` are filled like the greeting's, and one without a value
   * is left out with its clause. Not said when calls are not recorded.
   */
  recordingNotice: z
    .string()
    .trim()
    .min(1, RECORDING_NOTICE_MESSAGE)
    .max(RECORDING_NOTICE_MAX, RECORDING_NOTICE_MESSAGE),
  /** Where the agent may transfer calls (the transferCall tool names one of these). */
  transferDestinations: z.array(transferDestinationSchema).max(20),
});
export type CallSettingsFields = z.infer<typeof callSettingsFieldsSchema>;

const callSettingsAnswer = z.object({
  success: z.literal(true),
  agentId: z.number().int(),
  settings: callSettingsFieldsSchema,
});

/** What the server's speech recognition can hear: a phone line's 8 kHz audio, or only wideband audio. */
export const getSpeechStatus = defineRoute({
  id: "getSpeechStatus",
  method: "GET",
  path: "/api/v1/voice/speech",
  summary:
    "The server's speech recognition: its provider, whether it hears phone calls' 8 kHz audio (G.711), and when it does not, the warning and its fix (the call log flags each such call too).",
  tag: "Voice",
  auth: "token",
  permission: "canViewOrg",
  response: z.object({
    success: z.literal(true),
    recognition: z.object({ provider: z.string(), hearsPhoneAudio: z.boolean() }),
    warning: z.string().nullable(),
  }),
});

export const getCallSettings = defineRoute({
  id: "getCallSettings",
  method: "GET",
  path: "/api/v1/voice/settings",
  summary:
    "The agent's call settings (agentId below the target, or the target agent): end-of-turn silence, interruption sensitivity, recording (on by default) and the recording notice said before the greeting of recorded calls.",
  tag: "Voice",
  auth: "token",
  permission: "canViewOrg",
  query: z.object({ agentId: idSchema.optional() }),
  response: callSettingsAnswer,
});

export const saveCallSettings = defineRoute({
  id: "saveCallSettings",
  method: "POST",
  path: "/api/v1/voice/settings",
  summary: "Change the agent's call settings; fields left out keep their value.",
  tag: "Voice",
  auth: "token",
  permission: "canEditOrg",
  body: callSettingsFieldsSchema.partial().extend({ agentId: idSchema.optional() }),
  response: callSettingsAnswer,
});

export const TWILIO_VOICE_MESSAGES = {
  badSignature: "The X-Twilio-Signature header does not match this request.",
  notLoopback:
    "Set TWILIO_AUTH_TOKEN to take calls from Twilio; without it only callers on this machine are answered.",
  noAgent: "No agent answers this number.",
} as const;

/** The agent a Twilio voice webhook reaches: `agentId`, else the agent whose phone number was called. */
export const twilioVoiceQuerySchema = z.object({ agentId: idSchema.optional() });

export const twilioVoiceAnswer = defineRoute({
  id: "twilioVoiceAnswer",
  method: "POST",
  path: "/api/v1/voice/twilio/answer",
  summary:
    "Twilio's voice webhook (form-encoded: CallSid, From, To, ...). Checks X-Twilio-Signature against TWILIO_AUTH_TOKEN and PUBLIC_URL (without a token, only requests from this machine are answered). Answers TwiML <Connect><Stream> to the media stream WebSocket for the agent (agentId, else the agent whose phone number is To); an unknown agent hears a short message and the call ends.",
  tag: "Voice",
  auth: "none",
  query: twilioVoiceQuerySchema,
  produces: "text/xml",
});

export const twilioMediaStream = defineRoute({
  id: "twilioMediaStream",
  method: "GET",
  path: "/api/v1/voice/twilio/stream",
  summary:
    "WebSocket: Twilio Media Streams for a call answered by twilioVoiceAnswer (its start message carries the signed parameters the answer gave). In: connected, start, media (base64 μ-law 8 kHz), dtmf, mark, stop. Out: media (the agent's speech, paced in real time), mark, and clear on barge-in. A plain GET answers 426.",
  tag: "Voice",
  auth: "none",
  produces: "websocket",
});

/** Which of Twilio's callbacks on a cold transfer's `<Dial>`: the dialled call's progress, or the dial's end. */
export const twilioDialQuerySchema = z.object({
  call: z.string().min(1).max(64),
  step: z.enum(["status", "action"]),
});

export const twilioDialStatus = defineRoute({
  id: "twilioDialStatus",
  method: "POST",
  path: "/api/v1/voice/twilio/dial",
  summary:
    "Twilio's callbacks on a cold transfer of a media-stream call (the call updated with <Dial>; form-encoded). `step=status`: the destination's CallStatus (ringing, in-progress once it answered); `step=action`: the dial's end (DialCallStatus). Checked like twilioVoiceAnswer. A dial nobody answered is answered with TwiML that connects the caller's stream again, and the agent goes on; otherwise <Hangup/>.",
  tag: "Voice",
  auth: "none",
  query: twilioDialQuerySchema,
  produces: "text/xml",
});

export const previewVoice = defineRoute({
  id: "previewVoice",
  method: "GET",
  path: "/api/v1/voice/preview",
  summary:
    "A short sample of one of the agent voices (AGENT_VOICES' id) saying `text`, or a greeting in the voice's language: a mono 16 kHz WAV, made by the speech engine calls use. 503 with the missing tool when speech is unavailable here.",
  tag: "Voice",
  auth: "token",
  query: z.object({
    voice: z.string().trim().min(1).max(40),
    text: z.string().trim().min(1).max(200).optional(),
  }),
  produces: "audio/wav",
});

export const publicVoiceCall = defineRoute({
  id: "publicVoiceCall",
  method: "GET",
  path: "/api/v1/voice/public/{username}",
  summary: `WebSocket: a visitor of a public page (or the website widget) talks to the page's agent (an agent's or an organisation's username; the published agent answers). The visitor's anonymous session (allocateTempUserSession) as token=, or offered as the WebSocket subprotocols "switchboard.bearer, <token>". The same messages as voiceCall; the call is a conversation of the organisation (Calls, webhooks, usage). At most ${PUBLIC_CALLS_PER_HOUR} calls an hour per visitor. A plain GET answers 426.`,
  tag: "Voice",
  auth: "none",
  params: z.object({ username: z.string().trim().min(1).max(100) }),
  query: z.object({ token: z.string().max(200).optional() }),
  produces: "websocket",
});

/** A voice call in progress in the organisation (SIP, phone number, Twilio or a browser test call). */
export const liveCallSchema = z.object({
  uuid: z.string(),
  roomId: z.string(),
  agentId: z.number().int(),
  agentName: z.string(),
  direction: z.enum(["inbound", "outbound"]),
  from: z.string().nullable(),
  to: z.string().nullable(),
  /** `staging` for the editor's test calls. */
  stage: stageSchema,
  startedAt: z.number().int(),
});
export type LiveCall = z.infer<typeof liveCallSchema>;

export const LIVE_CALL_MESSAGES = {
  notLive: "This call is not in progress.",
  hungUp: "The call was ended.",
} as const;

export const listLiveCalls = defineRoute({
  id: "listLiveCalls",
  method: "GET",
  path: "/api/v1/voice/live",
  summary:
    "The voice calls in progress in the target's organisation (or agent), newest first. The realtime WebSocket's `call` events say when the list changes.",
  tag: "Voice",
  auth: "token",
  permission: "canViewOrg",
  response: z.object({ success: z.literal(true), calls: z.array(liveCallSchema) }),
});

export const hangUpLiveCall = defineRoute({
  id: "hangUpLiveCall",
  method: "POST",
  path: "/api/v1/voice/live/{uuid}/hangup",
  summary:
    "Ends a call in progress (on whichever server instance carries it): the agent hangs up and the call is stored as ended by the agent.",
  tag: "Voice",
  auth: "token",
  permission: "canEditOrg",
  params: z.object({ uuid: z.string().min(1).max(64) }),
  response: z.object({ success: z.literal(true), message: z.string() }),
});

export const voiceRoutes = [
  publicVoiceCall,
  listLiveCalls,
  hangUpLiveCall,
  voiceCall,
  getSpeechStatus,
  getCallSettings,
  saveCallSettings,
  previewVoice,
  twilioVoiceAnswer,
  twilioMediaStream,
  twilioDialStatus,
] as const;

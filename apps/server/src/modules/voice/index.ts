/** The voice module's public entry point: other modules use it only through what this file exports. */
export { runBrowserCall, type StartCall } from "./browser-call.ts";
export type { CallLeg, CallLegInfo } from "./call-leg.ts";
export type { CallSession, StartCallOptions } from "./call-session.ts";
export type { ScenarioCallInput, ScenarioCallResult } from "./scenario-calls.ts";
export { simulatedLine } from "./simulated-line.ts";
export { authorize, pickChallenge } from "./sip/digest-auth.ts";
export { createPacer, type Pacer } from "./sip/pacer.ts";
export { writePcap } from "./sip/pcap.ts";
export {
  type Registration,
  type RegistrationSender,
  type RegistrationStatus,
  startRegistration,
} from "./sip/registration-client.ts";
export { createRtpSession, type RtpSession } from "./sip/rtp-session.ts";
export { buildOffer, readAnswer } from "./sip/sdp.ts";
export { type CapturedMessage, type CaptureRecorder, createCaptureRecorder } from "./sip/sip-capture.ts";
export type { SipEdge, SipRemote } from "./sip/sip-edge-types.ts";
export { randomToken } from "./sip/sip-ids.ts";
export {
  addressUri,
  getHeader,
  getHeaders,
  parseCSeq,
  parseSipMessage,
  parseSipUri,
  REASONS,
  type SipHeader,
  type SipRequest,
  type SipResponse,
  serializeSipMessage,
} from "./sip/sip-message.ts";
export type { SipServer } from "./sip/sip-server.ts";
export {
  type AllowIndex,
  createAllowIndex,
  createFloodLimiter,
  isLoopbackAddress,
  normaliseAllowEntry,
  plainAddress,
} from "./sip/source-guard.ts";
export type { VoiceModule } from "./voice.module.ts";

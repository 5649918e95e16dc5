/**
 * The one shape every voice transport (browser WebSocket, SIP/RTP, Twilio Media Streams) gives the call
 * pipeline. Inside the server audio is mono PCM16 at 16 kHz in 20 ms frames; a transport converts at its
 * edge (G.711 μ-law/A-law at 8 kHz is decoded and resampled there, and encoded again on the way out).
 */

export const SAMPLE_RATE = 16_000;
export const FRAME_MS = 20;
/** Samples in one 20 ms frame at 16 kHz. */
export const FRAME_SAMPLES = (SAMPLE_RATE * FRAME_MS) / 1000;

export type CallTransportKind = "browser" | "sip" | "twilio";

export type CallLegInfo = {
  transport: CallTransportKind;
  /** The transport's own id of the call (SIP Call-ID, Twilio CallSid, the browser session's id). */
  callId: string;
  /** The caller's address as the channel gives it (a phone number, a SIP URI, a user's e-mail). */
  from: string;
  /** The address called (the agent's number or SIP URI). */
  to: string;
  /** True when the transport's audio was narrowband (8 kHz) before it reached the pipeline. */
  narrowband: boolean;
};

/** One side of a call as the pipeline sees it. */
export type CallLeg = {
  readonly info: CallLegInfo;
  /** Frames from the caller (PCM16, 16 kHz, 20 ms), in order, as they arrive. */
  onAudio(listener: (frame: Int16Array) => void): void;
  /** Digits the caller pressed (RFC 4733 telephone-events, SIP INFO, Twilio dtmf): "0"-"9", "*", "#", "A"-"D". */
  onDtmf(listener: (digit: string) => void): void;
  /** The far end hung up (BYE, socket closed, Twilio stop); called once. */
  onHangup(listener: () => void): void;
  /** Queues a frame to the caller; the transport paces what it sends in real time (one frame per 20 ms). */
  sendAudio(frame: Int16Array): void;
  /** Drops every queued frame not yet sent (barge-in), including audio buffered at the far end if it can. */
  clearAudio(): void;
  /** Frames queued and not yet sent. */
  queuedFrames(): number;
  /** Ends the call from our side (BYE, socket close, Twilio hangup). */
  hangup(reason?: string): void;
};

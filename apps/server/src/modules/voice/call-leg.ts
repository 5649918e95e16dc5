/**
 * The one shape every voice transport (browser WebSocket, SIP/RTP, Twilio Media Streams) gives the call
 * pipeline, in the server's audio format (audio/audio-format.ts).
 */

export type CallTransportKind = "browser" | "sip" | "twilio";

/** How a hand-over of the call ended: the destination answered, did not, was busy, or it failed. */
export type TransferResult = "answered" | "no_answer" | "busy" | "failed";

/**
 * What a transport's own transfer (SIP REFER, Twilio `<Dial>`) gave: a result, or `refused` when the far end
 * or carrier would not do it (the pipeline then bridges a new leg itself).
 */
export type HandOver =
  | { kind: "done"; result: TransferResult; status: number | null; detail: string }
  /** `asked`: the request went out (and was refused); false when the far end never allowed it. */
  | { kind: "refused"; asked: boolean; status: number | null; detail: string };

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
  /**
   * Each agent frame as the transport sends it to the caller (paced), with when it was due on the leg's
   * clock: what the caller heard, for the recording. Optional: without it the recording models the pacing.
   */
  onPlayed?(listener: (frame: Int16Array, at: number) => void): void;
  /**
   * The transport answers the call now (a leg handed to the pipeline while it rings, as SIP's is): the
   * call, and its recording, start here. Legs that are answered when handed over have none.
   */
  onAnswered?(listener: () => void): void;
  /**
   * Presses keys on the far end (RFC 4733 telephone-events on SIP, `<Play digits>` on Twilio, the simulated
   * line's far end): resolves true once they went out, false when this leg cannot send keys.
   */
  sendDtmf?(digits: string): Promise<boolean>;
  /**
   * A cold transfer done by the far end or the carrier (SIP REFER when the caller's side allows it, Twilio
   * updating the call with `<Dial>`); absent when the transport has none.
   */
  handOver?(target: string, options: { ringSeconds: number }): Promise<HandOver>;
  /** Whether `handOver` would be tried at all (SIP: the far end allows REFER); absent: whenever it exists. */
  canHandOver?(): boolean;
  /** The leg's media clock in ms (simulated legs keep their own); performance.now() when absent. */
  clock?(): number;
  /**
   * What the far end says, as text, when it knows it (the sandbox carrier's simulated callee, which speaks
   * written lines): each line as it starts to play. Shown as a transfer destination's captions and kept in
   * the transcript, where the recogniser would have to guess at synthesised phone audio. Absent on real lines.
   */
  onSaid?(listener: (text: string) => void): void;
};

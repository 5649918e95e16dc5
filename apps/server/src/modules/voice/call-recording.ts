/**
 * A call's recording: a stereo PCM16 WAV at 16 kHz, the caller on the left channel and the agent on the
 * right, on the leg's clock (wall time for real transports) from the answer to the hang-up, so it is as
 * long as the call. Agent audio is written as the transport paces it out to the caller (frames
 * queued and then dropped by a barge-in or the hang-up were never heard, and are not there); caller audio as
 * it arrives, one frame after another, with silence where the caller's stream fell behind the clock (lost
 * packets, a stream that stopped). A leg that cannot say what it played is modelled: a frame handed to it
 * plays now, or after the frames queued before it, and a clear drops what had not played.
 */

import { FRAME_MS, FRAME_SAMPLES, SAMPLE_RATE } from "../../audio/audio-format.ts";
import type { CallLeg } from "./call-leg.ts";

export type CallRecorder = {
  /** A caller frame, as it arrived. */
  caller(frame: Int16Array): void;
  /** An agent frame the transport sent to the caller at `at` (its clock, ms; now by default). */
  played(frame: Int16Array, at?: number): void;
  /** An agent frame handed to a leg that cannot report what it played (it plays after those queued). */
  queued(frame: Int16Array): void;
  /** Such a leg dropped its queued frames. */
  cleared(): void;
  /** The transport answered the call now (a leg handed over while ringing): the recording starts here. */
  begin(): void;
  /** The call ended: nothing after now is recorded. */
  end(): void;
  /**
   * Silences what one side said between two wall-clock times (epoch ms, `from` excluded, `to` included),
   * by when each frame reached the recorder (redaction: a turn that said personal data). Answers the
   * frames silenced.
   */
  silence(side: "caller" | "agent", from: number, to: number): number;
  /** Seconds recorded so far. */
  seconds(): number;
  /** The stereo WAV (left caller, right agent). */
  wav(): Uint8Array;
};

/**
 * How far the caller's frames may fall behind the clock before the gap is filled with silence (the next
 * frame goes where it arrived): within it, frames stay one after another (a late timer, a jitter buffer
 * releasing held packets, a burst after the event loop was busy).
 */
const CALLER_SLACK_FRAMES = 10;

export function createCallRecorder(
  clock: () => number = () => performance.now(),
  wallClock: () => number = Date.now,
): CallRecorder {
  let start = clock();
  const caller = new Map<number, Int16Array>();
  const agent = new Map<number, Int16Array>();
  /** When each slot's frame reached the recorder (wall clock), to silence a turn by its stored times. */
  const callerArrived = new Map<number, number>();
  const agentArrived = new Map<number, number>();
  let callerNext = 0;
  let agentNext = 0;
  let endFrame: number | null = null;
  /** The frame slot that time `at` falls in. */
  const slot = (at: number) => Math.max(0, Math.floor((at - start) / FRAME_MS));
  const copy = (frame: Int16Array) => frame.slice(0, FRAME_SAMPLES);
  const length = () => endFrame ?? Math.max(slot(clock()), callerNext, agentNext);

  return {
    caller(frame) {
      if (endFrame !== null) return;
      // A frame that arrives now was spoken over the slot that just ended; one far behind that follows a gap.
      const due = slot(clock()) - 1;
      const at = callerNext < due - CALLER_SLACK_FRAMES ? due : callerNext;
      caller.set(at, copy(frame));
      callerArrived.set(at, wallClock());
      callerNext = at + 1;
    },
    played(frame, at = clock()) {
      if (endFrame !== null) return;
      const position = Math.max(agentNext, slot(at));
      agent.set(position, copy(frame));
      agentArrived.set(position, wallClock());
      agentNext = position + 1;
    },
    queued(frame) {
      if (endFrame !== null) return;
      const position = Math.max(agentNext, slot(clock()));
      agent.set(position, copy(frame));
      agentArrived.set(position, wallClock());
      agentNext = position + 1;
    },
    cleared() {
      if (endFrame !== null) return;
      const now = slot(clock());
      for (let at = now + 1; at < agentNext; at++) agent.delete(at);
      agentNext = Math.min(agentNext, now + 1);
    },
    begin() {
      if (endFrame !== null) return;
      start = clock();
      caller.clear();
      agent.clear();
      callerArrived.clear();
      agentArrived.clear();
      callerNext = 0;
      agentNext = 0;
    },
    end() {
      if (endFrame !== null) return;
      endFrame = Math.ceil(Math.max(0, clock() - start) / FRAME_MS);
    },
    silence(side, from, to) {
      const frames = side === "caller" ? caller : agent;
      const arrived = side === "caller" ? callerArrived : agentArrived;
      let silenced = 0;
      for (const [at, when] of arrived) if (when > from && when <= to && frames.delete(at)) silenced++;
      return silenced;
    },
    seconds() {
      return (length() * FRAME_SAMPLES) / SAMPLE_RATE;
    },
    wav() {
      const frames = length();
      const left = new Int16Array(frames * FRAME_SAMPLES);
      const right = new Int16Array(frames * FRAME_SAMPLES);
      for (const [at, frame] of caller) if (at < frames) left.set(frame, at * FRAME_SAMPLES);
      for (const [at, frame] of agent) if (at < frames) right.set(frame, at * FRAME_SAMPLES);
      return encodeStereoWav(left, right);
    },
  };
}

/**
 * A leg whose audio both ways also goes to the recorder (while `recorder()` answers one): the agent's as the
 * transport plays it when it reports that (`onPlayed`), else as it is queued.
 */
export function recordingLeg(leg: CallLeg, recorder: () => CallRecorder | null): CallLeg {
  const reportsPlayed = typeof leg.onPlayed === "function";
  leg.onPlayed?.((frame, at) => recorder()?.played(frame, at));
  leg.onAnswered?.(() => recorder()?.begin());
  return {
    info: leg.info,
    ...(leg.clock ? { clock: leg.clock } : {}),
    onAudio(listener) {
      leg.onAudio((frame) => {
        recorder()?.caller(frame);
        listener(frame);
      });
    },
    onDtmf: (listener) => leg.onDtmf(listener),
    onHangup: (listener) => leg.onHangup(listener),
    sendAudio(frame) {
      if (!reportsPlayed) recorder()?.queued(frame);
      leg.sendAudio(frame);
    },
    clearAudio() {
      if (!reportsPlayed) recorder()?.cleared();
      leg.clearAudio();
    },
    queuedFrames: () => leg.queuedFrames(),
    hangup: (reason) => leg.hangup(reason),
  };
}

/** A two-channel PCM16 WAV of equally long channels, interleaved left then right. */
export function encodeStereoWav(left: Int16Array, right: Int16Array, sampleRate = SAMPLE_RATE): Uint8Array {
  const samples = Math.min(left.length, right.length);
  const bytes = samples * 4;
  const out = new Uint8Array(44 + bytes);
  const view = new DataView(out.buffer);
  const put = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) out[at + i] = text.charCodeAt(i);
  };
  put(0, "RIFF");
  view.setUint32(4, 36 + bytes, true);
  put(8, "WAVE");
  put(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 2, true); // channels
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 4, true);
  view.setUint16(32, 4, true); // block align
  view.setUint16(34, 16, true);
  put(36, "data");
  view.setUint32(40, bytes, true);
  for (let i = 0; i < samples; i++) {
    view.setInt16(44 + i * 4, left[i] as number, true);
    view.setInt16(46 + i * 4, right[i] as number, true);
  }
  return out;
}

/**
 * A call's recording: a stereo PCM16 WAV at 16 kHz, the caller on the left channel and the agent on the
 * right, time-aligned. The caller's frames are the clock (every transport delivers them continuously, one
 * per 20 ms, silence included): an agent frame handed to the leg when n caller frames have arrived plays at
 * frame n, or right after the agent frames queued before it. Frames the leg drops on a barge-in (queued,
 * not yet played) are taken out again, so the recording holds what the caller actually heard.
 */

import type { CallLeg } from "./call-leg.ts";
import { FRAME_SAMPLES, SAMPLE_RATE } from "./call-leg.ts";

export type CallRecorder = {
  caller(frame: Int16Array): void;
  agent(frame: Int16Array): void;
  /** The leg dropped its queued frames. */
  cleared(): void;
  /** Seconds recorded so far. */
  seconds(): number;
  /** The stereo WAV (left caller, right agent). */
  wav(): Uint8Array;
};

export function createCallRecorder(): CallRecorder {
  const caller: Int16Array[] = [];
  const agent = new Map<number, Int16Array>();
  let agentNext = 0;
  return {
    caller(frame) {
      caller.push(frame);
    },
    agent(frame) {
      const at = Math.max(agentNext, caller.length);
      agent.set(at, frame);
      agentNext = at + 1;
    },
    cleared() {
      const now = caller.length;
      for (let at = now; at < agentNext; at++) agent.delete(at);
      agentNext = Math.min(agentNext, now);
    },
    seconds() {
      return (Math.max(caller.length, agentNext) * FRAME_SAMPLES) / SAMPLE_RATE;
    },
    wav() {
      const frames = Math.max(caller.length, agentNext);
      const left = new Int16Array(frames * FRAME_SAMPLES);
      const right = new Int16Array(frames * FRAME_SAMPLES);
      for (const [at, frame] of caller.entries())
        left.set(frame.subarray(0, FRAME_SAMPLES), at * FRAME_SAMPLES);
      for (const [at, frame] of agent) right.set(frame.subarray(0, FRAME_SAMPLES), at * FRAME_SAMPLES);
      return encodeStereoWav(left, right);
    },
  };
}

/** A leg whose audio both ways also goes to the recorder (while `recorder()` answers one). */
export function recordingLeg(leg: CallLeg, recorder: () => CallRecorder | null): CallLeg {
  return {
    info: leg.info,
    onAudio(listener) {
      leg.onAudio((frame) => {
        recorder()?.caller(frame);
        listener(frame);
      });
    },
    onDtmf: (listener) => leg.onDtmf(listener),
    onHangup: (listener) => leg.onHangup(listener),
    sendAudio(frame) {
      recorder()?.agent(frame);
      leg.sendAudio(frame);
    },
    clearAudio() {
      recorder()?.cleared();
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

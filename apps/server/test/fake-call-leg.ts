import { FRAME_MS, FRAME_SAMPLES } from "../src/audio/audio-format.ts";
import { rms, toFrames } from "../src/audio/pcm.ts";
import type { CallLeg, CallLegInfo } from "../src/modules/voice/call-leg.ts";

/**
 * An in-memory call leg that behaves like a paced transport: every tick (20 ms, or faster with `speed`) it
 * delivers one caller frame (the script's audio, else silence) and plays one queued agent frame. It records
 * what the agent said with the tick it played at, and when `clearAudio` was called. `instantPlayback`
 * plays agent frames as they arrive (benchmarks that do not wait for answers to be heard). Its clock is its
 * ticks (tick t ends at t × 20 ms), whatever the speed: the frames of tick t fill the slot before it.
 */
export function createFakeCallLeg(
  options: { speed?: number; info?: Partial<CallLegInfo>; instantPlayback?: boolean } = {},
) {
  const tickMs = FRAME_MS / (options.speed ?? 1);
  const info: CallLegInfo = {
    transport: "browser",
    callId: `fake-${Math.random().toString(36).slice(2)}`,
    from: "+15035550199",
    to: "+15035550100",
    narrowband: false,
    ...options.info,
  };
  const audioListeners: ((frame: Int16Array) => void)[] = [];
  const dtmfListeners: ((digit: string) => void)[] = [];
  const hangupListeners: (() => void)[] = [];
  const playedListeners: ((frame: Int16Array, at: number) => void)[] = [];
  const outgoing: Int16Array[] = [];
  const script: Int16Array[] = [];
  const silent = new Int16Array(FRAME_SAMPLES);
  let tick = 0;
  let hungUp: string | null = null;
  /** Agent frames played: the tick, the level and the samples. */
  const played: { tick: number; level: number; samples: Int16Array }[] = [];
  /** Ticks at which the pipeline cleared the queue, and how many frames it dropped. */
  const clears: { tick: number; dropped: number; at: number }[] = [];
  /** Wall time of each caller frame sent, by tick. */
  const sentAt = new Map<number, number>();
  const firstFrameAt: number[] = [];
  const waiters: { check: () => boolean; resolve: () => void }[] = [];

  const timer = setInterval(() => {
    if (hungUp !== null) return;
    tick++;
    const frame = script.shift() ?? silent;
    sentAt.set(tick, performance.now());
    for (const listener of audioListeners) listener(frame);
    const out = outgoing.shift();
    if (out) {
      played.push({ tick, level: rms(out), samples: out });
      for (const listener of playedListeners) listener(out, (tick - 1) * FRAME_MS);
    }
    for (const waiter of [...waiters])
      if (waiter.check()) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
  }, tickMs);

  const leg: CallLeg = {
    info,
    onAudio: (listener) => audioListeners.push(listener),
    onDtmf: (listener) => dtmfListeners.push(listener),
    onHangup: (listener) => hangupListeners.push(listener),
    onPlayed: (listener) => playedListeners.push(listener),
    clock: () => tick * FRAME_MS,
    sendAudio(frame) {
      if (hungUp !== null) return;
      if (frame.length !== FRAME_SAMPLES) throw new Error(`frames are ${FRAME_SAMPLES} samples`);
      if (outgoing.length === 0) firstFrameAt.push(performance.now());
      if (options.instantPlayback) {
        played.push({ tick, level: rms(frame), samples: frame });
        for (const listener of playedListeners) listener(frame, tick * FRAME_MS);
      } else outgoing.push(frame);
    },
    clearAudio() {
      clears.push({ tick, dropped: outgoing.length, at: performance.now() });
      outgoing.length = 0;
    },
    queuedFrames: () => outgoing.length,
    hangup(reason) {
      if (hungUp !== null) return;
      hungUp = reason ?? "hangup";
      clearInterval(timer);
    },
  };

  function until(check: () => boolean, timeoutMs = 20_000): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timeout = setTimeout(() => reject(new Error("fake call leg: timed out waiting")), timeoutMs);
      waiters.push({
        check,
        resolve: () => {
          clearTimeout(timeout);
          resolve();
        },
      });
    });
  }

  return {
    leg,
    played,
    clears,
    sentAt,
    firstFrameAt,
    get tick() {
      return tick;
    },
    get hungUp() {
      return hungUp;
    },
    /** Queues the caller's audio after what is queued; answers the tick its first frame will be sent at. */
    say(samples: Int16Array): { startTick: number; frames: number } {
      const frames = toFrames(samples);
      const startTick = tick + script.length + 1;
      script.push(...frames);
      return { startTick, frames: frames.length };
    },
    press(digit: string) {
      for (const listener of dtmfListeners) listener(digit);
    },
    /** The caller hangs up. */
    callerHangsUp() {
      if (hungUp !== null) return;
      hungUp = "caller";
      clearInterval(timer);
      for (const listener of hangupListeners) listener();
    },
    /** Resolves when the agent has played something and then been quiet (queue empty) for `quietMs`. */
    untilAgentDone(quietMs = 400, timeoutMs?: number) {
      const from = played.length;
      const quietTicks = Math.ceil(quietMs / FRAME_MS);
      return until(() => {
        const last = played.at(-1);
        return (
          played.length > from &&
          outgoing.length === 0 &&
          last !== undefined &&
          tick - last.tick >= quietTicks
        );
      }, timeoutMs);
    },
    /** Resolves when `count` more agent frames have played. */
    untilAgentPlayed(count: number, timeoutMs?: number) {
      const target = played.length + count;
      return until(() => played.length >= target, timeoutMs);
    },
    untilTick(target: number, timeoutMs?: number) {
      return until(() => tick >= target, timeoutMs);
    },
    /** Resolves once `check` holds (checked every tick). */
    until,
    stop() {
      clearInterval(timer);
    },
  };
}

/** The tick of the first voiced frame of a recording queued at `startTick` (by level). */
export function voicedOnsetTick(samples: Int16Array, startTick: number, level = 300): number {
  return startTick + toFrames(samples).findIndex((frame) => rms(frame) > level);
}

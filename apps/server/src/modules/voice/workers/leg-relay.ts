/**
 * Calls whose transport stays in the API process and whose pipeline runs in a voice worker: a browser's or
 * Twilio's WebSocket ends in the API process (its HTTP server), so the leg is relayed over the IPC channel.
 * The caller's frames, keys and hang-up go to the worker; the agent's frames, barge-in clears, captions and
 * the call's end come back, and a cold transfer by the transport itself (Twilio's `<Dial>`) is asked for
 * here and answered with how it went. The transport paces what it sends, here; each frame it plays is reported back,
 * so the pipeline's queue and recording follow what the caller heard.
 *
 * - `relayToWorker` (API process): the leg's side; its session proxy ends as failed if the worker dies.
 * - `createRelayedCalls` (worker): a CallLeg over the channel for each relayed call, handed to the pipeline.
 */
import type { CallLeg, HandOver } from "../call-leg.ts";
import type { CallSession, CallSummary, StartCallOptions } from "../call-session-types.ts";
import type { LegEvent, SessionEvent } from "./worker-messages.ts";

/** The API process's side of one relayed call: feed it the worker's events; `lost` when the worker died. */
export type RelayedCall = { session: CallSession; onEvent(e: SessionEvent): void; lost(error: string): void };

export function relayToWorker(
  leg: CallLeg,
  options: StartCallOptions,
  send: (e: LegEvent) => boolean,
  onDone: () => void,
): RelayedCall | null {
  const { onTranscript, logData: _logData, ...data } = options;
  const start = {
    k: "start" as const,
    info: leg.info,
    options: { ...data, captions: Boolean(onTranscript) },
    ...(leg.handOver ? { handOver: true } : {}),
  };
  if (!send(start)) return null;
  let gen = 0;
  let done = false;
  let resolveReady!: (uuid: string | null) => void;
  let resolveEnded!: (summary: CallSummary) => void;
  const ready = new Promise<string | null>((resolve) => {
    resolveReady = resolve;
  });
  const ended = new Promise<CallSummary>((resolve) => {
    resolveEnded = resolve;
  });
  leg.onAudio((frame) => void (!done && send({ k: "audio", frame })));
  leg.onDtmf((digit) => void (!done && send({ k: "dtmf", digit })));
  leg.onHangup(() => void (!done && send({ k: "hangup" })));
  leg.onPlayed?.((_frame, at) => void (!done && send({ k: "played", gen, ago: performance.now() - at })));
  const finish = (summary: CallSummary) => {
    if (done) return;
    done = true;
    resolveReady(summary.conversationUuid);
    resolveEnded(summary);
    onDone();
  };
  return {
    session: {
      ready,
      ended,
      hangup: (reason) => void (!done && send({ k: "end", ...(reason ? { reason } : {}) })),
    },
    onEvent(e) {
      if (done) return;
      switch (e.k) {
        case "send":
          return leg.sendAudio(e.frame);
        case "clear":
          gen = e.gen;
          return leg.clearAudio();
        case "hangup":
          return leg.hangup(e.reason);
        case "ready":
          return resolveReady(e.uuid);
        case "transcript":
          return onTranscript?.(e.role, e.text, e.final);
        case "ended":
          return finish(e.summary);
        case "handOver": {
          const refused = (detail: string): HandOver => ({
            kind: "refused",
            asked: false,
            status: null,
            detail,
          });
          const asked = leg.handOver
            ? leg.handOver(e.target, { ringSeconds: e.ringSeconds })
            : Promise.resolve(refused("this call has no hand-over of its own"));
          void asked
            .catch((error: unknown) => refused(error instanceof Error ? error.message : String(error)))
            .then((answer) => send({ k: "handedOver", n: e.n, answer }));
          return;
        }
      }
    },
    lost(error) {
      if (done) return;
      finish({
        outcome: "failed",
        conversationUuid: null,
        error,
        turns: [],
        bargeIns: 0,
        recordingUrl: null,
      });
      // After the transport's own end of call (a browser is told why first), which waits on `ended`.
      setImmediate(() => leg.hangup(error));
    },
  };
}

/** A worker's relayed calls: each `start` becomes a leg handed to `startCall`; its events go back by `send`. */
export function createRelayedCalls(deps: {
  startCall: (leg: CallLeg, options: StartCallOptions) => CallSession;
  send: (id: string, e: SessionEvent) => void;
}) {
  const calls = new Map<string, { feed(e: LegEvent): void }>();

  function start(id: string, e: Extract<LegEvent, { k: "start" }>) {
    const send = (event: SessionEvent) => deps.send(id, event);
    const listeners = {
      audio: [] as ((frame: Int16Array) => void)[],
      dtmf: [] as ((digit: string) => void)[],
      hangup: [] as (() => void)[],
      played: [] as ((frame: Int16Array, at: number) => void)[],
    };
    // The agent's frames sent and not yet reported played: the queue the pipeline reads.
    const unplayed: Int16Array[] = [];
    let gen = 0;
    let hungUp = false;
    // Hand-overs asked of the API process's leg, by number, until it says how each went.
    const handOvers = new Map<number, (answer: HandOver) => void>();
    let handOverCount = 0;
    const leg: CallLeg = {
      info: e.info,
      onAudio: (listener) => void listeners.audio.push(listener),
      onDtmf: (listener) => void listeners.dtmf.push(listener),
      onHangup: (listener) => void listeners.hangup.push(listener),
      onPlayed: (listener) => void listeners.played.push(listener),
      sendAudio(frame) {
        unplayed.push(frame);
        send({ k: "send", frame });
      },
      clearAudio() {
        gen++;
        unplayed.length = 0;
        send({ k: "clear", gen });
      },
      queuedFrames: () => unplayed.length,
      hangup: (reason) => send({ k: "hangup", ...(reason ? { reason } : {}) }),
      ...(e.handOver
        ? {
            handOver: (target: string, options: { ringSeconds: number }) =>
              new Promise<HandOver>((resolve) => {
                const n = ++handOverCount;
                handOvers.set(n, resolve);
                send({ k: "handOver", n, target, ringSeconds: options.ringSeconds });
              }),
          }
        : {}),
    };
    const { captions, ...options } = e.options;
    const session = deps.startCall(leg, {
      ...options,
      ...(captions
        ? { onTranscript: (role, text, final) => send({ k: "transcript", role, text, final }) }
        : {}),
    });
    void session.ready.then((uuid) => send({ k: "ready", uuid }));
    void session.ended.then((summary) => {
      calls.delete(id);
      send({ k: "ended", summary });
    });
    calls.set(id, {
      feed(event) {
        switch (event.k) {
          case "audio":
            for (const listener of listeners.audio) listener(event.frame);
            return;
          case "dtmf":
            for (const listener of listeners.dtmf) listener(event.digit);
            return;
          case "hangup":
            if (hungUp) return;
            hungUp = true;
            for (const listener of listeners.hangup) listener();
            return;
          case "played": {
            // A report from before the last clear is of a frame already dropped here.
            if (event.gen !== gen) return;
            const frame = unplayed.shift();
            // The API process's clock is not this one: the frame went out `ago` ms before the report.
            if (frame)
              for (const listener of listeners.played) listener(frame, performance.now() - event.ago);
            return;
          }
          case "end":
            session.hangup(event.reason);
            return;
          case "handedOver":
            handOvers.get(event.n)?.(event.answer);
            handOvers.delete(event.n);
            return;
        }
      },
    });
  }

  return {
    /** A leg event from the API process. */
    feed(id: string, e: LegEvent) {
      if (e.k === "start") start(id, e);
      else calls.get(id)?.feed(e);
    },
  };
}

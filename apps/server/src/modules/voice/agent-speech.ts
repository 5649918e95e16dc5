/**
 * The agent's speech out: a stretch of speech takes sentences, synthesises them in order (TTS, one at a
 * time, cut into 20 ms frames) and hands the frames to the leg as they are made, unless paused by the
 * caller's speech onset (barge-in.ts). The leg paces them in real time.
 */

import { createFramer } from "../../audio/pcm.ts";
import type { MessageRow } from "../conversations/index.ts";
import { caption, finalCaption } from "./call-captions.ts";
import { background } from "./call-guard.ts";
import type { CallContext, Speech } from "./call-session-types.ts";

/** The agent is answering, or has speech not yet played. */
export function agentBusy(ctx: CallContext): boolean {
  const { speech } = ctx;
  return (
    ctx.answering !== null ||
    (speech !== null && (speech.sent < speech.frames.length || ctx.leg.queuedFrames() > 0))
  );
}

export function send(ctx: CallContext, frames: Iterable<Int16Array>) {
  for (const frame of frames) ctx.leg.sendAudio(frame);
  ctx.lastAgentActivity = performance.now();
}

/** Starts a stretch of agent speech: sentences are synthesised in order and go out as they are made. */
export function speak(ctx: CallContext, onFirstAudio?: () => void, onFirstFrame?: () => void): Speech {
  const { deps, log } = ctx;
  if (ctx.speech) stopSpeech(ctx, ctx.speech);
  const controller = new AbortController();
  const queue: string[] = [];
  let closed = false;
  let wake: (() => void) | null = null;
  let keep!: (message: MessageRow | null) => void;
  const stored = new Promise<MessageRow | null>((resolve) => {
    keep = resolve;
  });
  const current: Speech = {
    frames: [],
    sent: 0,
    sentences: [],
    controller,
    stored,
    keep,
    spokenText: "",
    captionText: "",
    captionDone: false,
    finished: Promise.resolve(),
    say(sentence) {
      queue.push(sentence);
      current.captionText = current.captionText ? `${current.captionText} ${sentence}` : sentence;
      caption(ctx, "agent", current.captionText, false);
      wake?.();
    },
    close() {
      closed = true;
      wake?.();
    },
  };
  // Never rejected (answers and lines wait for it): a failure is the call's, not an unhandled rejection.
  current.finished = (async () => {
    while (!controller.signal.aborted) {
      const sentence = queue.shift();
      if (sentence === undefined) {
        if (closed) {
          background(ctx, "final caption", finalCaption(ctx, current));
          return;
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
        continue;
      }
      const framer = createFramer();
      const add = (frames: Int16Array[]) => {
        if (controller.signal.aborted || frames.length === 0) return;
        current.frames.push(...frames);
        if (!ctx.paused && ctx.speech === current) {
          if (current.sent === 0) onFirstFrame?.();
          send(ctx, current.frames.slice(current.sent));
          current.sent = current.frames.length;
        }
      };
      try {
        let first = true;
        for await (const chunk of deps.tts.synthesize(sentence, {
          voice: ctx.voice,
          signal: controller.signal,
        })) {
          if (first) onFirstAudio?.();
          first = false;
          add(framer.push(chunk));
        }
      } catch (error) {
        if (!controller.signal.aborted) log.error({ err: error }, "text to speech failed");
      }
      add(framer.flush());
      if (!controller.signal.aborted)
        current.sentences.push({ text: sentence, endFrame: current.frames.length });
    }
  })().catch((error: unknown) => ctx.unexpected(error, "agent speech"));
  ctx.speech = current;
  ctx.paused = false;
  return current;
}

export function stopSpeech(ctx: CallContext, current: Speech) {
  current.controller.abort();
  if (ctx.speech === current) ctx.speech = null;
}

/** Resolves when the leg has played everything queued but `leftFrames` (or the call ended). */
export async function drained(ctx: CallContext, leftFrames = 0) {
  while (!ctx.finished && (ctx.leg.queuedFrames() > leftFrames || ctx.paused))
    await new Promise((r) => setTimeout(r, 20));
}

/**
 * The agent's turns in a call, one after another: the greeting, the answer to each caller turn (the same
 * agent turns as chat and SMS, streamed sentence by sentence into speech, the caller's text stored first),
 * and fixed lines (idle prompt, goodbye) stored as the agent's messages.
 */
import type { StoredTurn } from "../runtime/index.ts";
import { caption } from "./call-captions.ts";
import { callControls } from "./call-controls.ts";
import { finish } from "./call-end.ts";
import type { CallContext, TurnTiming } from "./call-session-types.ts";
import { runTransfer } from "./call-transfer.ts";
import type { HeardTurn } from "./caller-hearing.ts";
import { createSentenceSplitter } from "./endpointer.ts";
import { type Recognition, understood } from "./recognition.ts";
import { recordingNoticeOf } from "./recording-notice.ts";

/** What the agent says when a tool keeps the caller waiting longer than `fillerAfterMs`. */
const FILLERS: Record<string, string> = {
  checkAvailability: "One moment while I check the calendar.",
  bookAppointment: "One moment while I book that.",
  searchKnowledgeBase: "One moment while I look that up.",
  sendSms: "One moment while I send that.",
};
/** Tools that wait on the caller or the line themselves, or are instant: no filler. */
const NO_FILLER = new Set(["transferCall", "endCall", "sendDtmf", "collectDigits", "saveData"]);

/** The last second of the recording notice (20 ms frames), over which the greeting is synthesised. */
const NOTICE_OVERLAP_FRAMES = 50;

/** The agent is answering, or has speech not yet played. */
export function agentBusy(ctx: CallContext): boolean {
  return ctx.answering !== null || ctx.speech.talking;
}

/** The caller interrupted for real: the answer and its audio dropped, the speech cut to what was heard. */
export function bargeIn(ctx: CallContext) {
  ctx.bargeIns++;
  ctx.speech.interrupt();
  ctx.answering?.controller.abort();
  ctx.speech.cut();
}

/** Caller turns are answered one after another, in order. */
export function queueTurn(ctx: CallContext, work: () => Promise<void>) {
  ctx.chain = ctx.chain
    .then(work)
    .catch((error: unknown) => ctx.log.error({ err: error }, "call turn failed"));
}

/**
 * A caller turn the hearing stage ended: captioned once recognised, answered in its place in the order. A
 * line that tells its words told nothing new: more of a line already heard, not a turn.
 */
export function heardTurn(ctx: CallContext, turn: HeardTurn) {
  const { timing } = turn;
  const recognised = turn.recognised.then((recognition) => {
    if (understood(recognition) && !ctx.finished) caption(ctx, "caller", timing.text, true);
    return recognition;
  });
  queueTurn(ctx, async () => {
    const recognition = await recognised;
    if (ctx.finished || ctx.closing) return;
    if (ctx.recognition.tells && !recognition?.text) {
      if (turn.duringAgent) ctx.speech.release();
      return;
    }
    if (!understood(recognition)) {
      await notUnderstood(ctx, recognition, timing);
      return;
    }
    ctx.unheardTurns = 0;
    ctx.timings.push(timing);
    await answer(ctx, timing.text, timing);
  });
}

/**
 * A caller turn that could not be understood: the agent asks once to repeat; after that it does not ask
 * again in a row (no loop): a low-confidence text is answered as heard, nothing at all is left to the idle
 * prompt.
 */
async function notUnderstood(ctx: CallContext, recognition: Recognition, timing: TurnTiming) {
  ctx.unheardTurns++;
  if (ctx.unheardTurns === 1) {
    await sayLine(ctx, ctx.settings.repeatPrompt);
    return;
  }
  const text = recognition?.text.trim() ?? "";
  if (text && /[\p{L}\p{N}]/u.test(text)) {
    ctx.timings.push(timing);
    await answer(ctx, text, timing);
  }
}

export async function answer(ctx: CallContext, text: string, timing: TurnTiming | null) {
  const { deps } = ctx;
  const turnSubject = ctx.subject;
  const turnModel = ctx.model;
  if (!turnSubject || !turnModel || ctx.closing) return;
  const room = turnSubject.room;
  await deps.conversations.insertMessage({
    orgId: room.orgId,
    roomId: room.id,
    conversationUuid: turnSubject.conversation.uuid,
    role: "user",
    senderAddress: turnSubject.conversation.fromAddress,
    text,
  });
  ctx.speech.clearQueued();
  const controller = new AbortController();
  const splitter = createSentenceSplitter();
  const current = ctx.speech.speak(
    () => {
      if (timing) timing.firstAudioAt ??= performance.now();
    },
    () => {
      if (timing) timing.firstFrameAt ??= performance.now();
    },
  );
  let result: StoredTurn | null = null;
  const done = (async () => {
    const run = deps.turns.respond(turnSubject, turnModel, {
      abortSignal: controller.signal,
      call: callControls(ctx),
    });
    // A slow tool (the calendar, a webhook) gets one short filler line instead of dead air; it is speech
    // like any other, so the caller can still barge in over it.
    let filler: NodeJS.Timeout | null = null;
    let fillerSaid = false;
    try {
      let step = await run.next();
      while (!step.done) {
        const event = step.value;
        if (event.type === "text" && !controller.signal.aborted) {
          if (timing) timing.firstTokenAt ??= performance.now();
          for (const sentence of splitter.push(event.delta)) current.say(sentence);
        } else if (event.type === "tool-call" && !fillerSaid && !NO_FILLER.has(event.name)) {
          const after = ctx.settings.fillerAfterMs;
          if (filler) clearTimeout(filler);
          if (after > 0)
            filler = setTimeout(() => {
              if (controller.signal.aborted || ctx.finished) return;
              fillerSaid = true;
              for (const sentence of splitter.flush()) current.say(sentence);
              current.say(FILLERS[event.name] ?? "One moment please.");
            }, after);
        } else if (event.type === "tool-result" && filler) {
          clearTimeout(filler);
          filler = null;
        }
        step = await run.next();
      }
      result = step.value;
    } finally {
      if (filler) clearTimeout(filler);
    }
    current.keep((result as StoredTurn | null)?.message ?? null);
    if (!controller.signal.aborted) for (const sentence of splitter.flush()) current.say(sentence);
  })().finally(() => {
    current.keep(null);
    current.close();
  });
  const turn = { controller, done };
  ctx.answering = turn;
  try {
    await done;
  } finally {
    if (ctx.answering === turn) ctx.answering = null;
  }
  await current.finished;
  const transfer = ctx.pendingTransfer;
  ctx.pendingTransfer = null;
  if (transfer && (controller.signal.aborted || ctx.finished)) {
    // The caller interrupted the answer that asked for it (or left): the early leg is hung up.
    transfer.cancel.abort();
    void transfer.early?.then(({ leg }) => leg?.hangup("transfer cancelled"));
  } else if (transfer) {
    // What the agent said ("Let me put you through") is heard first.
    await ctx.speech.drained();
    await runTransfer(ctx, transfer, (text) => sayLine(ctx, text));
    return;
  }
  const stored = result as StoredTurn | null;
  if (stored?.conversationStatus === "ended" && !controller.signal.aborted) {
    await ctx.speech.drained();
    finish(ctx, "agent-ended");
  }
}

/** Says a fixed line (greeting, idle prompt, goodbye), stored as the agent's message. */
export async function sayLine(ctx: CallContext, text: string) {
  const { subject } = ctx;
  if (!subject) return;
  const current = ctx.speech.speak();
  current.say(text);
  current.close();
  const message = await ctx.deps.conversations.insertMessage({
    orgId: subject.room.orgId,
    roomId: subject.room.id,
    conversationUuid: subject.conversation.uuid,
    role: "assistant",
    text,
    model: ctx.model?.label ?? null,
  });
  current.keep(message);
  await current.finished;
}

/**
 * The agent speaks first: on a recorded call the recording notice (its own line and message, played out
 * first), then its greeting, streamed like an answer.
 */
export async function greet(ctx: CallContext) {
  const { subject, model } = ctx;
  if (!subject || !model) return;
  const notice = recordingNoticeOf(ctx.settings, ctx.recorder !== null, subject.campaign.variables);
  if (notice) {
    const bargeIns = ctx.bargeIns;
    await sayLine(ctx, notice);
    // Played out, but for its last second (time to synthesise the greeting with no gap after it), before the
    // greeting starts: an interruption until then cuts the notice's stored text to what was heard.
    await ctx.speech.drained(NOTICE_OVERLAP_FRAMES);
    // The caller talked over it: they are answered, not greeted over.
    if (ctx.bargeIns !== bargeIns) return;
  }
  if (ctx.finished) return;
  const greeting = ctx.speech.speak();
  const splitter = createSentenceSplitter();
  try {
    const run = ctx.deps.turns.greet(subject, model);
    let step = await run.next();
    while (!step.done) {
      if (step.value.type === "text")
        for (const sentence of splitter.push(step.value.delta)) greeting.say(sentence);
      step = await run.next();
    }
    for (const sentence of splitter.flush()) greeting.say(sentence);
    greeting.keep(step.value?.message ?? null);
  } finally {
    greeting.keep(null);
    greeting.close();
  }
  await greeting.finished;
}

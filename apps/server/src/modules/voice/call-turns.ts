/**
 * The turn stage: the agent's turns in a call, one after another (a chain): the greeting, the answer to each
 * caller turn the hearing stage hands on (the same agent turns as chat and SMS, streamed sentence by
 * sentence to the speech stage, the caller's text stored first), a caller turn not understood (asked again
 * once), and fixed lines (idle prompt, goodbye) stored as the agent's messages. A transfer the answer asked
 * for runs once it has been said (the transfer stage). Its state (the answer going on, the chain, the turn
 * timings, barge-ins, turns not understood) is its own.
 */
import type { CallControls, StoredTurn } from "../runtime/index.ts";
import type { AgentSpeech } from "./agent-speech.ts";
import type { CallShell } from "./call-session-types.ts";
import type { Transfers } from "./call-transfer.ts";
import type { HeardTurn, TurnTiming } from "./caller-hearing.ts";
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

/** What the turn stage uses of its call: the shell, the speech and transfer stages, the line's tools. */
export type TurnsCall = {
  readonly shell: CallShell;
  readonly speech: AgentSpeech;
  readonly transfer: Transfers;
  /** The line tells its far end's words (recognition.ts): an empty turn is more of a line already heard. */
  readonly tells: boolean;
  /** What the agent's tools may do on this call's line (call-controls.ts). */
  controls(): CallControls;
};

export type Turns = ReturnType<typeof createTurns>;

export function createTurns({ shell: ctx, speech, transfer, tells, controls }: TurnsCall) {
  /** The current answer: its model stream's controller and the promise of its end. */
  let answering: { controller: AbortController; done: Promise<void> } | null = null;
  /** Turns of the agent, one after another. */
  let chain: Promise<void> = Promise.resolve();
  const timings: TurnTiming[] = [];
  let bargeIns = 0;
  /** Caller turns in a row that could not be understood (the agent asks to repeat after the first). */
  let unheardTurns = 0;

  /** Caller turns are answered one after another, in order. */
  function queue(work: () => Promise<void>) {
    chain = chain.then(work).catch((error: unknown) => ctx.log.error({ err: error }, "call turn failed"));
  }

  /**
   * A caller turn that could not be understood: the agent asks once to repeat; after that it does not ask
   * again in a row (no loop): a low-confidence text is answered as heard, nothing at all is left to the
   * idle prompt.
   */
  async function notUnderstood(recognition: Recognition, timing: TurnTiming) {
    unheardTurns++;
    if (unheardTurns === 1) {
      await sayLine(ctx.settings.repeatPrompt);
      return;
    }
    const text = recognition?.text.trim() ?? "";
    if (text && /[\p{L}\p{N}]/u.test(text)) {
      timings.push(timing);
      await answer(text, timing);
    }
  }

  async function answer(text: string, timing: TurnTiming | null) {
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
    speech.clearQueued();
    const controller = new AbortController();
    const splitter = createSentenceSplitter();
    const current = speech.speak(
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
        call: controls(),
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
    answering = turn;
    try {
      await done;
    } finally {
      if (answering === turn) answering = null;
    }
    await current.finished;
    const pending = transfer.take();
    if (pending && (controller.signal.aborted || ctx.finished)) {
      // The caller interrupted the answer that asked for it (or left): the early leg is hung up.
      transfer.cancel(pending);
    } else if (pending) {
      // What the agent said ("Let me put you through") is heard first.
      await speech.drained();
      await transfer.run(pending, (text) => sayLine(text));
      return;
    }
    const stored = result as StoredTurn | null;
    if (stored?.conversationStatus === "ended" && !controller.signal.aborted) {
      await speech.drained();
      ctx.end("agent-ended");
    }
  }

  /** Says a fixed line (greeting, idle prompt, goodbye), stored as the agent's message. */
  async function sayLine(text: string) {
    const { subject } = ctx;
    if (!subject) return;
    const current = speech.speak();
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
  async function greet() {
    const { subject, model } = ctx;
    if (!subject || !model) return;
    const notice = recordingNoticeOf(ctx.settings, ctx.recorder !== null, subject.campaign.variables);
    if (notice) {
      const before = bargeIns;
      await sayLine(notice);
      // Played out, but for its last second (time to synthesise the greeting with no gap after it), before the
      // greeting starts: an interruption until then cuts the notice's stored text to what was heard.
      await speech.drained(NOTICE_OVERLAP_FRAMES);
      // The caller talked over it: they are answered, not greeted over.
      if (bargeIns !== before) return;
    }
    if (ctx.finished) return;
    const greeting = speech.speak();
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

  return {
    /** The agent is answering, or has speech not yet played. */
    get busy(): boolean {
      return answering !== null || speech.talking;
    },
    get timings(): readonly TurnTiming[] {
      return timings;
    },
    get bargeIns(): number {
      return bargeIns;
    },
    /** The call's first work (its set-up): every turn comes after it. */
    after(work: Promise<void>) {
      chain = work;
    },
    /** Resolves once the turn in progress and those queued are done (never rejects). */
    settled(): Promise<void> {
      return chain.catch(() => {});
    },
    queue,
    /**
     * A caller turn the hearing stage ended: captioned once recognised, answered in its place in the order.
     * On a line that tells its words, a turn with nothing new told is more of a line already heard.
     */
    heard(turn: HeardTurn) {
      const { timing } = turn;
      const recognised = turn.recognised.then((recognition) => {
        if (understood(recognition) && !ctx.finished) ctx.caption("caller", timing.text, true);
        return recognition;
      });
      queue(async () => {
        const recognition = await recognised;
        if (ctx.finished || ctx.closing) return;
        if (tells && !recognition?.text) {
          if (turn.duringAgent) speech.release();
          return;
        }
        if (!understood(recognition)) {
          await notUnderstood(recognition, timing);
          return;
        }
        unheardTurns = 0;
        timings.push(timing);
        await answer(timing.text, timing);
      });
    },
    /** Keys the caller pressed, as one turn. */
    pressed(digits: string) {
      ctx.caption("caller", `[pressed ${digits}]`, true);
      queue(() => answer(`[pressed ${digits}]`, null));
    },
    /** The agent speaks first (queued). */
    greet() {
      queue(greet);
    },
    /** Says a fixed line (greeting, idle prompt, goodbye), stored as the agent's message. */
    sayLine,
    /** The caller interrupted for real: the answer and its audio dropped, the speech cut to what was heard. */
    bargeIn() {
      bargeIns++;
      speech.interrupt();
      answering?.controller.abort();
      speech.cut();
    },
    /** The answer going on stops (the call ends, or says goodbye). */
    abort() {
      answering?.controller.abort();
    },
  };
}

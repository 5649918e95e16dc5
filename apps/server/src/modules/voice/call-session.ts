import { randomUUID } from "node:crypto";
import type { Stage } from "@switchboard/api";
import type { FastifyBaseLogger } from "fastify";
import type { AccountRow } from "../../access/access.ts";
import type { ResolvedModel } from "../../providers/llm/language-model.ts";
import type { SttProvider, SttStream } from "../../providers/stt/stt-provider.ts";
import type { TtsProvider } from "../../providers/tts/tts-provider.ts";
import type { VadProvider, VadStream } from "../../providers/vad/vad-provider.ts";
import type { AgentLookups } from "../runtime/agent-lookups.ts";
import { type AgentTurns, displayName, type StoredTurn, type TurnSubject } from "../runtime/agent-turn.ts";
import type { ConversationsRepository, MessageRow } from "../runtime/conversations.repository.ts";
import { createFramer } from "./audio.ts";
import type { CallLeg } from "./call-leg.ts";
import { type CallSettings, callSettingsOf } from "./call-settings.ts";
import { createEndpointer, createSentenceSplitter, type EndpointEvent } from "./endpointer.ts";
import type { VoiceRepository } from "./voice.repository.ts";

/**
 * One call: the agent greets, then listens (VAD + endpointing), recognises each caller turn (STT streamed
 * while the caller talks), answers through the same agent turns as the test chat and SMS (configuration,
 * tools, transcript, log row), and speaks the answer sentence by sentence (TTS) into the leg. Barge-in: at
 * the caller's speech onset the agent's queued audio is cleared at once (paused); if the speech lasts
 * `bargeInMinSpeechMs` the answer is dropped, the model stream cancelled and the stored text cut to what was
 * heard, otherwise (a backchannel) the agent goes on where it stopped.
 */

export type CallOutcome = "caller-hangup" | "agent-ended" | "idle" | "max-length" | "failed";

export type StartCallOptions = {
  agentAccountId: number;
  /** Which copy of the agent answers: `production` (default, the published agent) or `staging`. */
  stage?: Stage;
  /** `test` for the agent editor's test call; `live` (default) for callers. */
  roomKind?: "test" | "live";
  /** Overrides of the agent's call settings (tests, benchmarks). */
  settings?: Partial<CallSettings>;
  /**
   * Observes what is said, for live captions: each recognised caller turn (final), and the agent's text as
   * its sentences go to speech (`final` false, growing), then once more final when that speech is over (cut
   * to what the caller heard after a barge-in). Optional; an observer that throws does not affect the call.
   */
  onTranscript?: (role: "caller" | "agent", text: string, final: boolean) => void;
};

/** When each part of a caller turn happened (performance.now() ms), for the latency figures. */
export type TurnTiming = {
  /** The last voiced caller frame of the utterance arrived. */
  lastVoicedAt: number;
  /** Endpointing decided the turn was over. */
  endpointAt: number;
  /** The recogniser's final text. */
  sttAt: number;
  text: string;
  /** The model's first text. */
  firstTokenAt: number | null;
  /** The first synthesised audio of the answer. */
  firstAudioAt: number | null;
  /** The first answer frame handed to the leg. */
  firstFrameAt: number | null;
};

export type CallSummary = {
  outcome: CallOutcome;
  conversationUuid: string | null;
  error: string | null;
  turns: TurnTiming[];
  bargeIns: number;
};

export type CallSession = {
  /** The conversation's uuid once the call is set up (null when it could not be). */
  readonly ready: Promise<string | null>;
  readonly ended: Promise<CallSummary>;
  /** Ends the call from our side. */
  hangup(reason?: string): void;
};

export type CallSessionDeps = {
  turns: AgentTurns;
  lookups: AgentLookups;
  conversations: ConversationsRepository;
  voice: VoiceRepository;
  loadAccount: (id: number) => Promise<AccountRow | null>;
  vad: VadProvider;
  stt: SttProvider;
  tts: TtsProvider;
  log: FastifyBaseLogger;
};

/** Frames before the onset handed to the recogniser too (the VAD confirms onsets 40-60 ms late). */
const PREROLL_FRAMES = 15;
const DTMF_GAP_MS = 700;

/** One stretch of agent speech (the greeting, an answer, a prompt): its frames and what they say. */
type Speech = {
  frames: Int16Array[];
  /** Index of the next frame to hand to the leg. */
  sent: number;
  sentences: { text: string; endFrame: number }[];
  controller: AbortController;
  /** The stored message (to cut on barge-in): the greeting's at once, an answer's when its turn ends. */
  stored: Promise<MessageRow | null>;
  keep(message: MessageRow | null): void;
  spokenText: string;
  /** The text handed to speech so far (the live caption). */
  captionText: string;
  /** The final caption was given (once played, or cut to what was heard on barge-in). */
  captionDone: boolean;
  finished: Promise<void>;
  say(sentence: string): void;
  close(): void;
};

export function startCallSession(
  leg: CallLeg,
  options: StartCallOptions,
  deps: CallSessionDeps,
): CallSession {
  const { log, conversations } = deps;
  const started = performance.now();
  const timings: TurnTiming[] = [];
  let resolveReady!: (uuid: string | null) => void;
  let resolveEnded!: (summary: CallSummary) => void;
  const ready = new Promise<string | null>((resolve) => {
    resolveReady = resolve;
  });
  const ended = new Promise<CallSummary>((resolve) => {
    resolveEnded = resolve;
  });

  let subject: TurnSubject | null = null;
  let model: ResolvedModel | null = null;
  let settings: CallSettings = callSettingsOf(null, options.settings);
  let vad: VadStream | null = null;
  let endpointer = createEndpointer(settings);
  const early: Int16Array[] = [];
  const preroll: Int16Array[] = [];
  let finished = false;
  /** Saying goodbye at the time limit: the caller is no longer heard. */
  let closing = false;
  let bargeIns = 0;
  let voice: string | null = null;

  // Agent speech.
  let speech: Speech | null = null;
  let paused = false;
  /** The current answer: its model stream's controller and the promise of its end. */
  let answering: { controller: AbortController; done: Promise<void> } | null = null;
  let chain: Promise<void> = Promise.resolve();

  // Caller speech.
  let utterance: { stt: SttStream; duringAgent: boolean; confirmed: boolean; lastVoicedAt: number } | null =
    null;
  let lastCallerActivity = performance.now();
  let lastAgentActivity = performance.now();
  let idlePrompted = false;
  let dtmf = "";
  let dtmfTimer: NodeJS.Timeout | null = null;
  const ticker = setInterval(() => housekeeping(), 250);

  function caption(role: "caller" | "agent", text: string, final: boolean) {
    if (!options.onTranscript || (!text && !final)) return;
    try {
      options.onTranscript(role, text, final);
    } catch (error) {
      log.warn({ err: error }, "transcript observer failed");
    }
  }

  const agentBusy = () =>
    answering !== null || (speech !== null && (speech.sent < speech.frames.length || leg.queuedFrames() > 0));

  function send(frames: Iterable<Int16Array>) {
    for (const frame of frames) leg.sendAudio(frame);
    lastAgentActivity = performance.now();
  }

  /** Starts a stretch of agent speech: sentences are synthesised in order and go out as they are made. */
  function speak(onFirstAudio?: () => void, onFirstFrame?: () => void): Speech {
    if (speech) stopSpeech(speech);
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
        caption("agent", current.captionText, false);
        wake?.();
      },
      close() {
        closed = true;
        wake?.();
      },
    };
    current.finished = (async () => {
      while (!controller.signal.aborted) {
        const sentence = queue.shift();
        if (sentence === undefined) {
          if (closed) {
            void finalCaption(current);
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
          if (!paused && speech === current) {
            if (current.sent === 0) onFirstFrame?.();
            send(current.frames.slice(current.sent));
            current.sent = current.frames.length;
          }
        };
        try {
          let first = true;
          for await (const chunk of deps.tts.synthesize(sentence, { voice, signal: controller.signal })) {
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
    })();
    speech = current;
    paused = false;
    return current;
  }

  /** The agent's final caption of a speech once the leg has played it (unless a barge-in cut it first). */
  async function finalCaption(current: Speech) {
    if (!options.onTranscript) return;
    while (!finished && speech === current && (paused || leg.queuedFrames() > 0))
      await new Promise((resolve) => setTimeout(resolve, 20));
    if (current.captionDone) return;
    current.captionDone = true;
    caption("agent", current.captionText, true);
  }

  function stopSpeech(current: Speech) {
    current.controller.abort();
    if (speech === current) speech = null;
  }

  /** The caller started talking over the agent: silence at once, keep what is left to resume. */
  function pause() {
    if (paused) return;
    paused = true;
    const queued = leg.queuedFrames();
    leg.clearAudio();
    if (speech) speech.sent = Math.max(0, speech.sent - queued);
  }

  function resume() {
    if (!paused) return;
    paused = false;
    if (speech && speech.sent < speech.frames.length) {
      send(speech.frames.slice(speech.sent));
      speech.sent = speech.frames.length;
    }
  }

  /** What of a speech the caller heard: whole sentences played, and the played share of the one cut. */
  function heardText(current: Speech): string {
    const played = current.sent;
    const words: string[] = [];
    let start = 0;
    for (const sentence of current.sentences) {
      if (sentence.endFrame <= played) words.push(sentence.text);
      else {
        const share = (played - start) / Math.max(1, sentence.endFrame - start);
        const parts = sentence.text.split(/\s+/);
        const count = Math.floor(parts.length * Math.max(0, share));
        if (count > 0) words.push(parts.slice(0, count).join(" "));
        break;
      }
      start = sentence.endFrame;
    }
    return words.join(" ");
  }

  /** The caller interrupted for real: drop the answer and the audio, keep only what was heard. */
  function bargeIn() {
    bargeIns++;
    pause();
    paused = false;
    answering?.controller.abort();
    const current = speech;
    if (!current) return;
    current.spokenText = heardText(current);
    if (!current.captionDone) {
      current.captionDone = true;
      caption("agent", current.spokenText, true);
    }
    stopSpeech(current);
    void cutMessage(current);
  }

  async function cutMessage(current: Speech) {
    const message = await current.stored;
    if (!message) return;
    await deps.voice
      .cutMessage(message.id, current.spokenText)
      .catch((error: unknown) => log.error({ err: error }, "could not cut an interrupted message"));
  }

  function onEndpoint(event: EndpointEvent) {
    if (event.type === "start") {
      lastCallerActivity = performance.now();
      const duringAgent = agentBusy();
      if (duringAgent) pause();
      const stt = deps.stt.start();
      for (const frame of preroll) stt.write(frame);
      utterance = { stt, duringAgent, confirmed: false, lastVoicedAt: performance.now() };
    } else if (event.type === "confirmed") {
      if (utterance) utterance.confirmed = true;
      if (utterance?.duringAgent) bargeIn();
    } else if (event.type === "lull") {
      if (utterance?.duringAgent && !utterance.confirmed) resume();
    } else if (event.type === "end") {
      const current = utterance;
      utterance = null;
      if (!current) return;
      if (!event.turn || (current.duringAgent && !current.confirmed)) {
        // A click, a cough or a backchannel: not a turn.
        current.stt.abort();
        if (current.duringAgent) resume();
        return;
      }
      const endpointAt = performance.now();
      const timing: TurnTiming = {
        lastVoicedAt: current.lastVoicedAt,
        endpointAt,
        sttAt: 0,
        text: "",
        firstTokenAt: null,
        firstAudioAt: null,
        firstFrameAt: null,
      };
      const recognised = current.stt.finish().then(
        (text) => {
          timing.sttAt = performance.now();
          timing.text = text;
          if (text && !finished) caption("caller", text, true);
          return text;
        },
        (error: unknown) => {
          log.error({ err: error }, "speech recognition failed");
          return "";
        },
      );
      queueTurn(async () => {
        const text = await recognised;
        if (!text || finished) return;
        timings.push(timing);
        await answer(text, timing);
      });
    }
  }

  /** Caller turns are answered one after another, in order. */
  function queueTurn(work: () => Promise<void>) {
    chain = chain.then(work).catch((error: unknown) => log.error({ err: error }, "call turn failed"));
  }

  async function answer(text: string, timing: TurnTiming | null) {
    const turnSubject = subject;
    const turnModel = model;
    if (!turnSubject || !turnModel || closing) return;
    const room = turnSubject.room;
    await conversations.insertMessage({
      orgId: room.orgId,
      roomId: room.id,
      conversationUuid: turnSubject.conversation.uuid,
      role: "user",
      senderAddress: turnSubject.conversation.fromAddress,
      text,
    });
    if (leg.queuedFrames() > 0) leg.clearAudio();
    const controller = new AbortController();
    const splitter = createSentenceSplitter();
    const current = speak(
      () => {
        if (timing) timing.firstAudioAt ??= performance.now();
      },
      () => {
        if (timing) timing.firstFrameAt ??= performance.now();
      },
    );
    let result: StoredTurn | null = null;
    const done = (async () => {
      const run = deps.turns.respond(turnSubject, turnModel, { abortSignal: controller.signal });
      let step = await run.next();
      while (!step.done) {
        const event = step.value;
        if (event.type === "text" && !controller.signal.aborted) {
          if (timing) timing.firstTokenAt ??= performance.now();
          for (const sentence of splitter.push(event.delta)) current.say(sentence);
        }
        step = await run.next();
      }
      result = step.value;
      current.keep(result.message);
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
    const stored = result as StoredTurn | null;
    if (stored?.conversationStatus === "ended" && !controller.signal.aborted) {
      await drained();
      finish("agent-ended");
    }
  }

  /** Resolves when the leg has played everything queued (or the call ended). */
  async function drained() {
    while (!finished && (leg.queuedFrames() > 0 || paused)) await new Promise((r) => setTimeout(r, 20));
  }

  /** Says a fixed line (greeting, idle prompt, goodbye), stored as the agent's message. */
  async function sayLine(text: string) {
    if (!subject) return;
    const current = speak();
    current.say(text);
    current.close();
    const message = await conversations.insertMessage({
      orgId: subject.room.orgId,
      roomId: subject.room.id,
      conversationUuid: subject.conversation.uuid,
      role: "assistant",
      text,
      model: model?.label ?? null,
    });
    current.keep(message);
    await current.finished;
  }

  function housekeeping() {
    if (finished || !subject) return;
    const now = performance.now();
    if (closing) return;
    if (now - started >= settings.maxCallSeconds * 1000) {
      // No more turns: say goodbye, then end.
      closing = true;
      answering?.controller.abort();
      utterance?.stt.abort();
      utterance = null;
      if (leg.queuedFrames() > 0) leg.clearAudio();
      void (async () => {
        await sayLine(settings.maxCallMessage);
        await drained();
        finish("max-length");
      })();
      return;
    }
    if (agentBusy()) lastAgentActivity = now;
    if (settings.idlePromptSeconds <= 0 || agentBusy() || utterance || endpointer.inUtterance) return;
    const quietSince = Math.max(lastCallerActivity, lastAgentActivity);
    if (now - quietSince < settings.idlePromptSeconds * 1000) return;
    if (idlePrompted) {
      finish("idle");
      return;
    }
    idlePrompted = true;
    lastCallerActivity = now;
    queueTurn(() => sayLine(settings.idlePrompt));
  }

  function onFrame(frame: Int16Array) {
    if (finished || closing) return;
    if (!vad) {
      early.push(frame);
      return;
    }
    const voiced = vad.isSpeech(frame);
    preroll.push(frame);
    if (preroll.length > PREROLL_FRAMES) preroll.shift();
    const events = endpointer.push(voiced);
    if (utterance && !events.some((e) => e.type === "start")) utterance.stt.write(frame);
    if (voiced && utterance) {
      utterance.lastVoicedAt = performance.now();
      lastCallerActivity = utterance.lastVoicedAt;
      idlePrompted = false;
    }
    for (const event of events) onEndpoint(event);
  }

  function onDigit(digit: string) {
    if (finished) return;
    lastCallerActivity = performance.now();
    idlePrompted = false;
    if (agentBusy()) bargeIn();
    dtmf += digit;
    if (dtmfTimer) clearTimeout(dtmfTimer);
    dtmfTimer = setTimeout(() => {
      const digits = dtmf;
      dtmf = "";
      caption("caller", `[pressed ${digits}]`, true);
      queueTurn(() => answer(`[pressed ${digits}]`, null));
    }, DTMF_GAP_MS);
  }

  let finishing: Promise<void> | null = null;
  function finish(outcome: CallOutcome, error: string | null = null, hangup = true) {
    if (finishing) return;
    finished = true;
    clearInterval(ticker);
    if (dtmfTimer) clearTimeout(dtmfTimer);
    answering?.controller.abort();
    if (speech) stopSpeech(speech);
    utterance?.stt.abort();
    utterance = null;
    if (hangup) leg.hangup(error ?? outcome);
    finishing = (async () => {
      await chain.catch(() => {});
      const conversationUuid = subject?.conversation.uuid ?? null;
      if (subject) {
        try {
          const conversation = await deps.turns.end(subject);
          const row = deps.turns.logRow(subject, conversation);
          await conversations.upsertLog({
            ...row,
            data: {
              ...row.data,
              callOutcome: outcome,
              transport: leg.info.transport,
              narrowband: leg.info.narrowband,
              bargeIns,
            },
          });
        } catch (failure) {
          log.error({ err: failure, uuid: conversationUuid }, "could not store the end of a call");
        }
      }
      vad?.close();
      resolveReady(conversationUuid);
      resolveEnded({ outcome, conversationUuid, error, turns: timings, bargeIns });
    })();
  }

  function fail(message: string) {
    log.error({ callId: leg.info.callId, transport: leg.info.transport }, `call refused: ${message}`);
    finish("failed", message);
  }

  leg.onAudio(onFrame);
  leg.onDtmf(onDigit);
  leg.onHangup(() => finish("caller-hangup", null, false));

  void (async () => {
    const missing = deps.stt.unavailable() ?? deps.tts.unavailable();
    if (missing) return fail(missing);
    const agent = await deps.loadAccount(options.agentAccountId);
    if (!agent || agent.accountType !== "agent" || !agent.organizationId)
      return fail(`no agent with id ${options.agentAccountId}`);
    settings = callSettingsOf(agent.details, options.settings);
    endpointer = createEndpointer(settings);
    const stage = options.stage ?? "production";
    const campaign = await deps.lookups.campaignOf({ id: agent.id, orgId: agent.organizationId }, stage);
    const resolved = await deps.lookups.modelOrNull(agent.organizationId);
    if (!resolved.model) return fail(resolved.error ?? "the language model is unavailable");
    model = resolved.model;
    voice = campaign.voice;
    vad = await deps.vad.createStream();
    if (finished) return;
    const { info } = leg;
    const room = await conversations.createRoom(
      {
        id: randomUUID(),
        orgId: agent.organizationId,
        agentAccountId: agent.id,
        channel: "voice",
        kind: options.roomKind ?? "live",
        externalAddress: info.from,
        title: `Call from ${info.from}`,
      },
      [
        { kind: "agent", accountId: agent.id, displayName: displayName(agent, "agentName") },
        { kind: "external", address: info.from },
      ],
    );
    const conversation = await conversations.createConversation({
      uuid: randomUUID(),
      orgId: agent.organizationId,
      roomId: room.id,
      agentAccountId: agent.id,
      channel: "voice",
      stage,
      direction: "inbound",
      fromAddress: info.from,
      toAddress: info.to,
      callId: info.callId,
    });
    subject = {
      agent,
      organization: await deps.lookups.organizationOf(agent),
      campaign,
      stage,
      room,
      conversation,
    };
    resolveReady(conversation.uuid);
    log.info({ uuid: conversation.uuid, callId: info.callId, agentId: agent.id }, "call started");
    // The agent speaks first.
    queueTurn(async () => {
      if (!subject || !model) return;
      const greeting = speak();
      const splitter = createSentenceSplitter();
      try {
        const run = deps.turns.greet(subject, model);
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
    });
    for (const frame of early.splice(0)) onFrame(frame);
  })().catch((error: unknown) => {
    fail(error instanceof Error ? error.message : String(error));
  });

  return {
    ready,
    ended,
    hangup(reason) {
      finish("agent-ended", reason ?? null);
    },
  };
}

/**
 * Transfers, run once the agent's answer that asked for one has been said (call-turns.ts):
 *
 * - **cold**: the transport's own hand-over first (SIP REFER when the caller's side allows it, Twilio
 *   updating the call with `<Dial>`); when there is none or it is refused, a new call to the destination
 *   (the numbers module's outbound route: the organisation's trunk, a SIP URI, or the sandbox carrier) is
 *   bridged to the caller here, audio both ways, until either side hangs up.
 * - **warm**: the agent calls the destination, says a short summary to the person who answers, then joins
 *   the caller to them (bridged). Nobody answers within the destination's `ringSeconds` (or busy, or a
 *   failure): the agent tells the caller and offers to take a message, and the call goes on.
 *
 * Each transfer's legs, timing and result go into the call's log row (`transfers`, `transferResult`) and the
 * transcript (a system line); the conversation's `outcome.transferred` (the log row's `transfer` = 1, which
 * the "Calls Transferred" metric counts) is set only when the destination answered.
 */
import { createFramer } from "../../audio/pcm.ts";
import type { TransferRequest } from "../runtime/index.ts";
import type { CallLeg, TransferResult } from "./call-leg.ts";
import type { CallShell, TransferLeg, TransferRecord } from "./call-session-types.ts";
import { destinationCaptions } from "./destination-captions.ts";

/** A transfer the agent asked for in the current answer: run once the answer has been said. */
export type PendingTransfer = TransferRequest & {
  name: string;
  to: string;
  ringSeconds: number;
  decidedAt: number;
  /** The new leg, dialled from the decision on (bridged and warm transfers). */
  early: Dialing | null;
  /** Stops an early dial (the answer that asked for it was interrupted). */
  cancel: AbortController;
};
type Pending = PendingTransfer;

/** Frames (20 ms) a bridged direction may hold queued before more are dropped. */
const BRIDGE_BACKLOG = 10;

const elapsed = (since: number) => Math.round(performance.now() - since);

/** What the caller hears when the destination cannot be reached. */
export function unavailableLine(name: string, result: TransferResult): string {
  const why =
    result === "busy"
      ? `${name} is on another call`
      : result === "no_answer"
        ? `${name} did not answer`
        : `I could not reach ${name}`;
  return `I'm sorry, ${why}. Can I take a message for them?`;
}

async function note(ctx: CallShell, text: string) {
  const { subject } = ctx;
  if (!subject) return;
  await ctx.deps.conversations
    .insertMessage({
      orgId: subject.room.orgId,
      roomId: subject.room.id,
      conversationUuid: subject.conversation.uuid,
      role: "system",
      text,
    })
    .catch((error: unknown) => ctx.log.error({ err: error }, "could not store a transfer note"));
}

/** The destination answered: the conversation's outcome says so (the log row's transfer = 1). */
async function completed(ctx: CallShell, record: TransferRecord) {
  const { subject } = ctx;
  if (!subject) return;
  const outcome = {
    ...subject.conversation.outcome,
    transferred: {
      destination: record.destination,
      to: record.to,
      mode: record.mode,
      reason: record.reason,
      at: record.at,
    },
  };
  const updated = await ctx.deps.conversations
    .updateConversation(subject.conversation.uuid, { outcome })
    .catch((error: unknown) => {
      ctx.log.error({ err: error }, "could not store a transfer's outcome");
      return null;
    });
  subject.conversation = updated ?? { ...subject.conversation, outcome };
}

function describe(record: TransferRecord): string {
  const leg = record.legs.at(-1);
  const how =
    leg?.kind === "refer" ? "by SIP REFER" : leg?.kind === "handover" ? "by the carrier" : "bridged";
  const result = record.result ?? "failed";
  const words = { answered: "answered", no_answer: "no answer", busy: "busy", failed: "failed" }[result];
  const timing = record.setupMs !== null ? ` (ringing after ${(record.setupMs / 1000).toFixed(1)} s)` : "";
  return `Transfer to ${record.destination} (${record.to}, ${record.mode}, ${how}): ${words}${timing}.`;
}

/** Synthesises `text` in the agent's voice into `leg` and waits until it was played. */
async function speakInto(ctx: CallShell, leg: CallLeg, text: string, hungUp: () => boolean) {
  const framer = createFramer();
  for await (const chunk of ctx.deps.tts.synthesize(text, { voice: ctx.voice })) {
    for (const frame of framer.push(chunk)) leg.sendAudio(frame);
    if (hungUp()) return;
  }
  for (const frame of framer.flush()) leg.sendAudio(frame);
  while (!hungUp() && !ctx.finished && leg.queuedFrames() > 0) await new Promise((r) => setTimeout(r, 20));
}

/** A new leg to the destination: its log entry, and the leg once answered. */
export type Dialing = Promise<{ leg: CallLeg | null; entry: TransferLeg }>;

/**
 * Dials the destination for a bridged or warm transfer, from the agent's decision on (while it still says
 * "let me put you through"): the leg's log entry (times from the decision) and the answered leg, if any.
 */
export function dial(ctx: CallShell, pending: Pending, signal: AbortSignal): Dialing {
  const base = pending.decidedAt;
  const entry: TransferLeg = {
    kind: "dial",
    to: pending.to,
    result: "failed",
    status: null,
    detail: "",
    ringingMs: null,
    answeredMs: null,
    endedMs: null,
  };
  const subject = ctx.subject;
  const dialTransfer = ctx.deps.dialTransfer;
  if (!dialTransfer || !subject) {
    entry.detail = "no outbound calls from this server";
    return Promise.resolve({ leg: null, entry });
  }
  const controller = new AbortController();
  signal.addEventListener("abort", () => controller.abort(), { once: true });
  const stop = setInterval(() => {
    if (ctx.finished) controller.abort();
  }, 100);
  return (async () => {
    try {
      const dialed = await dialTransfer({
        organizationId: subject.room.orgId,
        agentAccountId: subject.agent.id,
        to: pending.to,
        from: subject.agent.switchboardPhoneNumber ?? null,
        ringSeconds: pending.ringSeconds,
        signal: controller.signal,
        onRinging: () => {
          entry.ringingMs ??= elapsed(base);
        },
      });
      if (dialed.kind !== "answered") {
        entry.result = dialed.kind;
        entry.detail = dialed.reason;
        return { leg: null, entry };
      }
      entry.answeredMs = elapsed(base);
      entry.ringingMs ??= entry.answeredMs;
      entry.result = "answered";
      entry.detail = "answered";
      if (ctx.finished || controller.signal.aborted) {
        dialed.leg.hangup(ctx.finished ? "caller hung up" : "transfer cancelled");
        entry.result = "failed";
        entry.detail = ctx.finished ? "the caller hung up first" : "the transfer was cancelled";
        return { leg: null, entry };
      }
      return { leg: dialed.leg, entry };
    } catch (error) {
      entry.detail = error instanceof Error ? error.message : String(error);
      return { leg: null, entry };
    } finally {
      clearInterval(stop);
    }
  })();
}

/** What the transfer stage uses of its call besides the shell. */
export type TransferCall = {
  readonly shell: CallShell;
  /** A stretch of agent speech is going on: its queued audio is dropped when the caller is bridged. */
  agentSpeaking(): boolean;
  /** The caller is back with the agent (a transfer not reached): the idle clock restarts. */
  callerHeard(): void;
};

export type Transfers = ReturnType<typeof createTransfers>;

/**
 * The transfer stage: the transfer the current answer asked for, this call's transfers (for its log row),
 * and the bridge that connects the caller to a destination (their audio and keys go there).
 */
export function createTransfers({ shell: ctx, agentSpeaking, callerHeard }: TransferCall) {
  let pending: Pending | null = null;
  const records: TransferRecord[] = [];
  let connected: {
    fromCaller(frame: Int16Array): void;
    digit(digit: string): void;
    callerLeft(): void;
  } | null = null;

  /**
   * Connects the caller and `destination` until either hangs up: the caller's audio and keys go to the
   * destination, its audio to the caller (and the recording's agent side). Resolves with who left first.
   */
  function bridge(destination: CallLeg, name: string): Promise<"caller" | "destination"> {
    // What the destination says goes to the caller's captions and the transcript: the words its line tells
    // (the sandbox carrier's callee), else its audio heard and recognised (destination-captions.ts).
    const said = (text: string) => {
      if (ctx.finished) return;
      ctx.caption("destination", text, true);
      void note(ctx, `${name}: ${text}`);
    };
    const heard = destination.onSaid ? null : destinationCaptions(ctx, ctx.deps.vad, said);
    destination.onSaid?.(said);
    return new Promise((resolve) => {
      let over = false;
      const end = (who: "caller" | "destination") => {
        if (over) return;
        over = true;
        connected = null;
        heard?.stop();
        resolve(who);
      };
      if (agentSpeaking()) ctx.leg.clearAudio();
      connected = {
        // Two clocks (the caller's, the destination's) drift: a backlog beyond 200 ms is dropped, not delayed.
        fromCaller: (frame) => {
          if (destination.queuedFrames() < BRIDGE_BACKLOG) destination.sendAudio(frame);
        },
        digit: (digit) => void destination.sendDtmf?.(digit).catch(() => {}),
        callerLeft: () => {
          destination.hangup("caller hung up");
          end("caller");
        },
      };
      destination.onAudio((frame) => {
        if (over) return;
        heard?.hear(frame);
        if (ctx.leg.queuedFrames() < BRIDGE_BACKLOG) ctx.leg.sendAudio(frame);
      });
      destination.onHangup(() => end("destination"));
      if (ctx.finished) connected.callerLeft();
    });
  }

  /** Runs the transfer; the call ends when the caller was handed over, or goes on when it could not be. */
  async function run(pending: Pending, say: (text: string) => Promise<void>) {
    const started = performance.now();
    const record: TransferRecord = {
      destination: pending.name,
      to: pending.to,
      mode: pending.mode,
      reason: pending.reason,
      at: new Date().toISOString(),
      legs: [],
      result: null,
      setupMs: null,
      decisionMs: null,
      connectedMs: null,
      bridgedSeconds: null,
    };
    records.push(record);
    const decided = (setupMs: number | null) =>
      setupMs === null ? null : Math.round(setupMs + (started - pending.decidedAt));
    // The pipeline stops listening while the transfer runs (no turns, no idle prompt).
    ctx.closing = true;
    try {
      if (pending.mode === "cold" && ctx.transport.handOver) {
        const answer = await ctx.transport.handOver(pending.to, { ringSeconds: pending.ringSeconds });
        const entry: TransferLeg = {
          kind: ctx.transport.info.transport === "sip" ? "refer" : "handover",
          to: pending.to,
          result: answer.kind === "done" ? answer.result : "refused",
          status: answer.status,
          detail: answer.detail,
          ringingMs: null,
          answeredMs: answer.kind === "done" && answer.result === "answered" ? elapsed(started) : null,
          endedMs: elapsed(started),
        };
        if (answer.kind === "done" || answer.asked) record.legs.push(entry);
        if (answer.kind === "done") {
          record.setupMs = entry.answeredMs ?? elapsed(started);
          record.decisionMs = decided(record.setupMs);
          record.result = answer.result;
          await note(ctx, describe(record));
          if (answer.result === "answered") {
            await completed(ctx, record);
            ctx.end("transferred", null, !ctx.finished);
            return;
          }
          return await notReached(pending, answer.result, say);
        }
        // Refused: a new leg, bridged here.
      }
      const { leg, entry } = await (pending.early ?? dial(ctx, pending, new AbortController().signal));
      record.legs.push(entry);
      // The leg's times run from the decision; the set-up from the transfer's start (0 if it rang before).
      record.decisionMs = entry.ringingMs;
      record.setupMs =
        entry.ringingMs === null
          ? null
          : Math.max(0, Math.round(entry.ringingMs - (started - pending.decidedAt)));
      if (!leg) {
        record.result = entry.result === "refused" ? "failed" : entry.result;
        entry.endedMs = elapsed(pending.decidedAt);
        await note(ctx, describe(record));
        if (ctx.finished) return;
        return await notReached(pending, record.result, say);
      }
      let gone = false;
      leg.onHangup(() => {
        gone = true;
      });
      if (pending.mode === "warm") {
        const summary =
          pending.summary?.trim() ||
          `Hello, this is ${ctx.subject ? "the assistant" : "an assistant"} with a caller${pending.reason ? ` about ${pending.reason}` : ""}. I'm connecting you now.`;
        await speakInto(ctx, leg, summary, () => gone);
        await note(ctx, `Said to ${pending.name}: ${summary}`);
        if (gone) {
          entry.endedMs = elapsed(pending.decidedAt);
          record.result = "failed";
          entry.detail = "the destination hung up before the caller joined";
          await note(ctx, describe(record));
          return await notReached(pending, "failed", say);
        }
      }
      if (ctx.finished) {
        leg.hangup("caller hung up");
        record.result = "failed";
        entry.detail = "the caller hung up before joining";
        return;
      }
      record.result = "answered";
      await note(ctx, describe(record));
      await completed(ctx, record);
      const bridgedAt = performance.now();
      record.connectedMs = Math.round(bridgedAt - pending.decidedAt);
      const left = await bridge(leg, pending.name);
      record.bridgedSeconds = Math.round((performance.now() - bridgedAt) / 100) / 10;
      entry.endedMs = elapsed(pending.decidedAt);
      await note(
        ctx,
        `The ${left === "caller" ? "caller" : `${pending.name} side`} ended the transferred call after ${record.bridgedSeconds} s.`,
      );
      ctx.end("transferred", null, left === "destination");
    } finally {
      if (!ctx.finished) ctx.closing = false;
    }
  }

  /** The destination was not reached: the caller is told, and the agent goes on (it takes a message). */
  async function notReached(pending: Pending, result: TransferResult, say: (text: string) => Promise<void>) {
    if (ctx.finished) return;
    ctx.closing = false;
    callerHeard();
    await say(unavailableLine(pending.name, result));
  }

  return {
    /** The caller is connected to a transfer destination: their audio and keys go there (else null). */
    get bridge() {
      return connected;
    },
    /** A transfer was asked for in the current answer and not yet run. */
    get pending(): boolean {
      return pending !== null;
    },
    /** The agent's transfer, accepted: a warm one dials at once (while the agent still talks). */
    accept(transfer: Omit<Pending, "early" | "cancel">) {
      const accepted: Pending = { ...transfer, early: null, cancel: new AbortController() };
      if (accepted.mode === "warm") accepted.early = dial(ctx, accepted, accepted.cancel.signal);
      pending = accepted;
    },
    /** The transfer the answer asked for (once said), taken to run or cancel. */
    take(): Pending | null {
      const taken = pending;
      pending = null;
      return taken;
    },
    /** The answer that asked for it was interrupted (or the caller left): an early leg is hung up. */
    cancel(transfer: Pending) {
      transfer.cancel.abort();
      void transfer.early?.then(({ leg }) => leg?.hangup("transfer cancelled"));
    },
    run,
    /** The log row's fields for the call's transfers (none: nothing). */
    logData(): Record<string, unknown> {
      if (records.length === 0) return {};
      const last = records.at(-1) as TransferRecord;
      return { transfers: records, transferResult: last.result ?? "failed" };
    },
  };
}

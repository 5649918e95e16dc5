/** What the API process and its voice worker processes say over their IPC channel (besides db/remote-pglite.ts). */
import type { PlacedCall } from "@switchboard/api";
import type { Config } from "../../../config.ts";
import type { CallLegInfo, HandOver } from "../call-leg.ts";
import type { CallSummary, StartCallOptions } from "../call-session-types.ts";
import type { ScenarioCallInput, ScenarioCallResult } from "../scenario-calls.ts";
import type { SipRemote } from "../sip/sip-types.ts";

/** Work the API process hands to a worker by name: what it is given and what it answers when done. */
export type WorkerTasks = {
  /** Dial the stored outbound call `callId` (numbers/outbound-calls.ts) and carry it until it ends. */
  dial: { input: { callId: string; detect: boolean }; result: PlacedCall };
  /** The demo's simulated calls to the agent `agentUsername` (voice/demo-calls.ts): how many were made. */
  demoCalls: { input: { agentUsername: string }; result: { calls: number } };
  /** A test scenario's simulated call to an agent's staging copy (voice/scenario-calls.ts). */
  scenarioCall: { input: ScenarioCallInput; result: ScenarioCallResult };
};
export type WorkerTaskKind = keyof WorkerTasks;
/** How a worker does each task. */
export type WorkerTaskHandlers = {
  [K in WorkerTaskKind]: (input: WorkerTasks[K]["input"]) => Promise<WorkerTasks[K]["result"]>;
};

/** A call's options as they cross to a worker: data only (captions come back as `transcript` events). */
export type RelayedCallOptions = Omit<StartCallOptions, "onTranscript" | "logData"> & { captions: boolean };

/**
 * A call whose transport stays in the API process (a browser's or Twilio's WebSocket) and whose pipeline
 * runs in a worker (leg-relay.ts): what the API process says of the leg.
 */
export type LegEvent =
  /** `handOver`: the transport has a cold transfer of its own (Twilio's `<Dial>`), asked for by `handOver`. */
  | { k: "start"; info: CallLegInfo; options: RelayedCallOptions; handOver?: boolean }
  | { k: "audio"; frame: Int16Array }
  | { k: "dtmf"; digit: string }
  /** The far end hung up. */
  | { k: "hangup" }
  /** An agent frame went out to the caller `ago` ms before this was sent (frames since clear `gen`). */
  | { k: "played"; gen: number; ago: number }
  /** End the call from our side (the live calls' hang-up, the server stopping). */
  | { k: "end"; reason?: string }
  /** How the hand-over `n` ended. */
  | { k: "handedOver"; n: number; answer: HandOver };

/** ... and what the worker's pipeline says back. */
export type SessionEvent =
  | { k: "send"; frame: Int16Array }
  /** Drop the frames queued (barge-in); `gen` counts the clears. */
  | { k: "clear"; gen: number }
  /** Hang the leg up. */
  | { k: "hangup"; reason?: string }
  | { k: "ready"; uuid: string | null }
  | { k: "transcript"; role: "caller" | "agent" | "destination"; text: string; final: boolean }
  | { k: "ended"; summary: CallSummary }
  /** Hand the call over to `target` with the transport's own transfer (answered by `handedOver` with `n`). */
  | { k: "handOver"; n: number; target: string; ringSeconds: number };

export type ToWorker =
  /** The first message: the worker builds its app from this configuration. */
  | { t: "start"; index: number; config: Config; sipPort: number | null; relayPort: number | null }
  /** A SIP message the API process received on its socket, for a call of this worker. */
  | { t: "sip:in"; data: Uint8Array; source: SipRemote }
  /** Do `kind` with `input`, answering `task:done` with the same id. */
  | {
      [K in WorkerTaskKind]: { t: "task"; id: string; kind: K; input: WorkerTasks[K]["input"] };
    }[WorkerTaskKind]
  /** A relayed call's leg (`id`: the API process's name for it). */
  | { t: "leg"; id: string; e: LegEvent }
  /** Hang up every call and exit. */
  | { t: "stop" };

/**
 * A call a worker carries, as it starts: enough for the API process to log it as failed if the worker dies
 * before the call has a conversation of its own (a call is answered before that is written).
 */
export type CarriedCall = {
  /** The leg's call id (SIP Call-ID, Twilio CallSid, a browser session's id). */
  callId: string;
  agentAccountId: number;
  direction: "inbound" | "outbound";
  from: string;
  to: string;
  /** ISO time. */
  startedAt: string;
};

export type FromWorker =
  /** The worker's app is built: it takes calls. */
  | { t: "ready"; sipPort: number | null }
  /** A SIP message the worker sends, to go out of the API process's socket. */
  | { t: "sip:out"; data: Uint8Array; to: SipRemote }
  /**
   * A call the worker carries started (before it is answered: who it is for) or ended: what is logged as
   * failed if the worker dies.
   */
  | { t: "call"; state: "live"; call: CarriedCall }
  | { t: "call"; state: "ended"; callId: string }
  /** A relayed call's pipeline. */
  | { t: "session"; id: string; e: SessionEvent }
  /** A task it was given is done: its result, or why it failed. */
  | { t: "task:done"; id: string; result: unknown; error?: string };

export const isMessage = <T extends { t: string }>(message: unknown): message is T =>
  typeof message === "object" && message !== null && typeof (message as { t?: unknown }).t === "string";

/** What the API process and its voice worker processes say over their IPC channel (besides db/remote-pglite.ts). */
import type { PlacedCall } from "@switchboard/api";
import type { Config } from "../../../config.ts";
import type { SipRemote } from "../sip/sip-types.ts";

/** Work the API process hands to a worker by name: what it is given and what it answers when done. */
export type WorkerTasks = {
  /** Dial the stored outbound call `callId` (numbers/outbound-calls.ts) and carry it until it ends. */
  dial: { input: { callId: string; detect: boolean }; result: PlacedCall };
  /** The demo's simulated calls to the agent `agentUsername` (voice/demo-calls.ts): how many were made. */
  demoCalls: { input: { agentUsername: string }; result: { calls: number } };
};
export type WorkerTaskKind = keyof WorkerTasks;
/** How a worker does each task. */
export type WorkerTaskHandlers = {
  [K in WorkerTaskKind]: (input: WorkerTasks[K]["input"]) => Promise<WorkerTasks[K]["result"]>;
};

export type ToWorker =
  /** The first message: the worker builds its app from this configuration. */
  | { t: "start"; index: number; config: Config; sipPort: number | null; relayPort: number | null }
  /** A SIP message the API process received on its socket, for a call of this worker. */
  | { t: "sip:in"; data: Uint8Array; source: SipRemote }
  /** Do `kind` with `input`, answering `task:done` with the same id. */
  | {
      [K in WorkerTaskKind]: { t: "task"; id: string; kind: K; input: WorkerTasks[K]["input"] };
    }[WorkerTaskKind]
  /** Hang up every call and exit. */
  | { t: "stop" };

export type FromWorker =
  /** The worker's app is built: it takes calls. */
  | { t: "ready"; sipPort: number | null }
  /** A SIP message the worker sends, to go out of the API process's socket. */
  | { t: "sip:out"; data: Uint8Array; to: SipRemote }
  /** A call the worker carries (by its leg's call id) started or ended: what is marked failed if it dies. */
  | { t: "call"; callId: string; state: "live" | "ended" }
  /** A task it was given is done: its result, or why it failed. */
  | { t: "task:done"; id: string; result: unknown; error?: string };

export const isMessage = <T extends { t: string }>(message: unknown): message is T =>
  typeof message === "object" && message !== null && typeof (message as { t?: unknown }).t === "string";

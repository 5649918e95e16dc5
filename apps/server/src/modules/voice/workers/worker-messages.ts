/** What the API process and its voice worker processes say over their IPC channel (besides db/remote-pglite.ts). */

import type { PlacedCall } from "@switchboard/api";
import type { Config } from "../../../config.ts";
import type { SipRemote } from "../sip/sip-types.ts";

export type ToWorker =
  /** The first message: the worker builds its app from this configuration. */
  | { t: "start"; index: number; config: Config; sipPort: number | null; relayPort: number | null }
  /** A SIP message the API process received on its socket, for a call of this worker. */
  | { t: "sip:in"; data: Uint8Array; source: SipRemote }
  /** Dial the stored outbound call `id` (numbers/outbound-calls.ts) and carry it here. */
  | { t: "dial"; id: string; detect: boolean }
  /** Hang up every call and exit. */
  | { t: "stop" };

export type FromWorker =
  /** The worker's app is built: it takes calls. */
  | { t: "ready"; sipPort: number | null }
  /** A SIP message the worker sends, to go out of the API process's socket. */
  | { t: "sip:out"; data: Uint8Array; to: SipRemote }
  /** A call the worker carries (by SIP Call-ID) started or ended: what is marked failed if it dies. */
  | { t: "call"; callId: string; state: "live" | "ended" }
  /** The outbound call `id` it was asked to dial has ended. */
  | { t: "dialed"; id: string; result: PlacedCall };

export const isMessage = <T extends { t: string }>(message: unknown): message is T =>
  typeof message === "object" && message !== null && typeof (message as { t?: unknown }).t === "string";

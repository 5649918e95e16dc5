/**
 * SIP captures: every message the SIP server receives or sends, with its addresses and time, secrets
 * redacted (the digest response of Authorization / Proxy-Authorization, passwords in URIs, SRTP keys in
 * SDP), collected in memory and handed in batches to a sink that stores them (the sip-settings module).
 * Cheap on the hot path: a message is only queued; it is serialised and redacted when flushed.
 */
import { redactAuthorization } from "./digest-auth.ts";
import { getHeader, type SipMessage, serializeSipMessage } from "./sip-message.ts";
import type { SipRemote } from "./sip-types.ts";

export type CapturedMessage = {
  callId: string;
  at: Date;
  direction: "in" | "out";
  transport: "udp" | "tcp";
  localAddress: string;
  localPort: number;
  remoteAddress: string;
  remotePort: number;
  firstLine: string;
  /** The first request of its call: its method and Request-URI (which names the agent dialled). */
  requestUri: string | null;
  refused: boolean;
  message: string;
};

/** Redacts what a capture must never keep. */
export function redactSipText(text: string): string {
  return text
    .split("\r\n")
    .map((line) => {
      const colon = line.indexOf(":");
      if (colon > 0) {
        const name = line.slice(0, colon).trim().toLowerCase();
        if (name === "authorization" || name === "proxy-authorization")
          return `${line.slice(0, colon + 1)} ${redactAuthorization(line.slice(colon + 1).trim())}`;
      }
      // SDES keys (a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:KEY...)
      if (/^a=crypto:/i.test(line)) return line.replace(/inline:[^\s|]+/gi, "inline:[redacted]");
      return line;
    })
    .join("\r\n")
    .replace(/\b(sips?:[^:@;\s<>"]+):[^@;\s<>"]+@/gi, "$1:[redacted]@");
}

export function firstLineOf(message: SipMessage): string {
  return message.kind === "request"
    ? `${message.method} ${message.uri}`
    : `SIP/2.0 ${message.status} ${message.reason}`;
}

type Pending = {
  message: SipMessage;
  at: Date;
  direction: "in" | "out";
  remote: SipRemote;
};

export type CaptureRecorder = ReturnType<typeof createCaptureRecorder>;

/**
 * Queues messages and flushes them every `flushMs` (or when `maxBatch` are waiting) to `sink`. At most
 * `maxPending` wait: beyond that (the store cannot keep up) messages are counted and dropped.
 * `markRefused(callId, address)` flags a call the edge refused; refused calls of one source are captured at
 * most `refusedPerMinute` a minute (a flood from a refused address costs no storage).
 */
export function createCaptureRecorder(options: {
  sink: (messages: CapturedMessage[]) => Promise<void>;
  localAddress: () => { address: string; port: number };
  flushMs?: number;
  maxPending?: number;
  refusedPerMinute?: number;
  onError?: (error: unknown) => void;
}) {
  const flushMs = options.flushMs ?? 500;
  const maxPending = options.maxPending ?? 20_000;
  const refusedPerMinute = options.refusedPerMinute ?? 30;
  let pending: Pending[] = [];
  const refused = new Map<string, boolean>(); // call id -> kept?
  const refusedBySource = new Map<string, { minute: number; count: number }>();
  const firstRequest = new Map<string, string>();
  let dropped = 0;
  let timer: NodeJS.Timeout | null = null;
  let flushing: Promise<void> = Promise.resolve();
  let stopped = false;

  function schedule() {
    if (timer || stopped) return;
    timer = setTimeout(() => {
      timer = null;
      void flush();
    }, flushMs);
    timer.unref?.();
  }

  async function drain(batch: Pending[]) {
    const local = options.localAddress();
    const rows: CapturedMessage[] = [];
    for (const item of batch) {
      const callId = getHeader(item.message, "Call-ID") ?? "";
      const verdict = refused.get(callId);
      if (verdict === false) continue; // a refused call over its source's capture budget
      let requestUri = firstRequest.get(callId) ?? null;
      if (!requestUri && item.message.kind === "request" && item.message.method !== "ACK") {
        requestUri = `${item.message.method} ${item.message.uri}`;
        firstRequest.set(callId, requestUri);
      }
      rows.push({
        callId,
        at: item.at,
        direction: item.direction,
        transport: item.remote.transport,
        localAddress: local.address,
        localPort: local.port,
        remoteAddress: item.remote.address,
        remotePort: item.remote.port,
        firstLine: firstLineOf(item.message),
        requestUri,
        refused: verdict === true,
        message: redactSipText(serializeSipMessage(item.message).toString("utf8")),
      });
    }
    // Forget per-call notes of calls long gone (bounded maps).
    if (firstRequest.size > 50_000) firstRequest.clear();
    if (refused.size > 50_000) refused.clear();
    if (rows.length) await options.sink(rows);
  }

  function flush(): Promise<void> {
    const batch = pending;
    pending = [];
    flushing = flushing.then(() => drain(batch)).catch((error) => options.onError?.(error));
    return flushing;
  }

  return {
    /** The tap the SIP server calls for every message in and out. */
    record(direction: "in" | "out", message: SipMessage, remote: SipRemote) {
      if (stopped) return;
      if (pending.length >= maxPending) {
        dropped++;
        return;
      }
      pending.push({ message, at: new Date(), direction, remote });
      if (pending.length >= 500) void flush();
      else schedule();
    },
    /** The edge refused this call's source: keep it only within the source's capture budget. */
    markRefused(callId: string, address: string) {
      const minute = Math.floor(Date.now() / 60_000);
      let budget = refusedBySource.get(address);
      if (!budget || budget.minute !== minute) {
        if (refusedBySource.size > 10_000) refusedBySource.clear();
        budget = { minute, count: 0 };
        refusedBySource.set(address, budget);
      }
      budget.count++;
      refused.set(callId, budget.count <= refusedPerMinute);
    },
    flush,
    get dropped() {
      return dropped;
    },
    async stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      await flush();
      stopped = true;
    },
  };
}

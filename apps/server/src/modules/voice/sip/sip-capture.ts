/**
 * SIP captures: every message the SIP server receives or sends, with its addresses and time, secrets
 * redacted (the digest response of Authorization / Proxy-Authorization, passwords in URIs, SRTP keys in
 * SDP), collected in memory and handed in batches to a sink that stores them (the sip-settings module).
 * Cheap on the hot path: a message is only queued; it is serialised and redacted when flushed. A capture
 * keeps what was sent, as text: bytes that are not text (NUL, other control bytes, invalid UTF-8 in a body)
 * are written as visible `\xNN` escapes, so an attack message is stored like any other.
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

/** Control characters that are not line structure (tab, CR and LF stay), as `\xNN`. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is escaped.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const hex = (code: number) => `\\x${code.toString(16).padStart(2, "0")}`;

/** Text from a peer, safe to store: control characters escaped as `\xNN`. */
export function escapeControl(text: string): string {
  return text.replace(CONTROL, (ch) => hex(ch.charCodeAt(0)));
}

/**
 * Bytes as text: valid UTF-8 kept, control bytes (but tab, CR, LF) and bytes that are not UTF-8 escaped as
 * `\xNN`, so nothing of the message is lost and the text is storable anywhere.
 */
export function bytesAsText(bytes: Buffer): string {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let out = "";
  let at = 0;
  while (at < bytes.length) {
    // Whole runs of valid UTF-8 decode at once; a bad byte is escaped and decoding goes on after it.
    let end = at;
    let bad = -1;
    while (end < bytes.length) {
      const length = utf8Length(bytes, end);
      if (length === 0) {
        bad = end;
        break;
      }
      end += length;
    }
    if (end > at) out += escapeControl(decoder.decode(bytes.subarray(at, end)));
    if (bad === -1) break;
    out += hex(bytes[bad] as number);
    at = bad + 1;
  }
  return out;
}

/** The length of the valid UTF-8 sequence at `at`, or 0 when it is not one. */
function utf8Length(bytes: Buffer, at: number): number {
  const first = bytes[at] as number;
  if (first < 0x80) return 1;
  const length =
    first >= 0xc2 && first <= 0xdf
      ? 2
      : first >= 0xe0 && first <= 0xef
        ? 3
        : first >= 0xf0 && first <= 0xf4
          ? 4
          : 0;
  if (length === 0 || at + length > bytes.length) return 0;
  for (let i = 1; i < length; i++) if (((bytes[at + i] as number) & 0xc0) !== 0x80) return 0;
  const second = bytes[at + 1] as number;
  // Overlong forms, surrogates and code points past U+10FFFF.
  if (first === 0xe0 && second < 0xa0) return 0;
  if (first === 0xed && second > 0x9f) return 0;
  if (first === 0xf0 && second < 0x90) return 0;
  if (first === 0xf4 && second > 0x8f) return 0;
  return length;
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
        callId: escapeControl(callId),
        at: item.at,
        direction: item.direction,
        transport: item.remote.transport,
        localAddress: local.address,
        localPort: local.port,
        remoteAddress: escapeControl(item.remote.address),
        remotePort: item.remote.port,
        firstLine: escapeControl(firstLineOf(item.message)),
        requestUri: requestUri === null ? null : escapeControl(requestUri),
        refused: verdict === true,
        message: redactSipText(bytesAsText(serializeSipMessage(item.message))),
      });
    }
    // Forget per-call notes of calls long gone (bounded maps).
    if (firstRequest.size > 50_000) firstRequest.clear();
    if (refused.size > 50_000) refused.clear();
    if (!rows.length) return;
    try {
      await options.sink(rows);
    } catch (error) {
      // One message the store refuses must not cost its neighbours: each is stored on its own then.
      options.onError?.(error);
      for (const row of rows) await options.sink([row]).catch((failure) => options.onError?.(failure));
    }
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

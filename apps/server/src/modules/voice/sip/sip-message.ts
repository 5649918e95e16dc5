/**
 * A small, strict SIP message parser and serialiser (RFC 3261 §7, §20): request and status lines, header
 * folding, compact header names, comma-joined values (several Via in one line), Content-Length framing for
 * datagrams and streams. No maintained Node SIP library serves a plain UAS (`sip` 0.0.6 is unmaintained,
 * drachtio needs its own server, sip.js/JsSIP speak only WebSocket), so this is ours; it is kept to what the
 * user-agent server needs.
 */

export type SipHeader = [name: string, value: string];

export type SipRequest = {
  kind: "request";
  method: string;
  uri: string;
  headers: SipHeader[];
  body: Buffer;
};

export type SipResponse = {
  kind: "response";
  status: number;
  reason: string;
  headers: SipHeader[];
  body: Buffer;
};

export type SipMessage = SipRequest | SipResponse;

export class SipParseError extends Error {
  override name = "SipParseError";
}

/** Compact forms (RFC 3261 §7.3.3, RFC 4028 `x`, RFC 3265 `o`/`u`, RFC 3515 `r`, RFC 3892 `b`). */
const COMPACT: Record<string, string> = {
  i: "Call-ID",
  m: "Contact",
  e: "Content-Encoding",
  l: "Content-Length",
  c: "Content-Type",
  f: "From",
  s: "Subject",
  k: "Supported",
  t: "To",
  v: "Via",
  x: "Session-Expires",
  o: "Event",
  u: "Allow-Events",
  r: "Refer-To",
  b: "Referred-By",
  a: "Accept-Contact",
  j: "Reject-Contact",
  d: "Request-Disposition",
  y: "Identity",
};

const CANONICAL = new Map(
  [
    "Accept",
    "Allow",
    "Call-ID",
    "Contact",
    "Content-Disposition",
    "Content-Length",
    "Content-Type",
    "CSeq",
    "From",
    "Max-Forwards",
    "Min-SE",
    "Record-Route",
    "Require",
    "Route",
    "Server",
    "Session-Expires",
    "Supported",
    "To",
    "Unsupported",
    "User-Agent",
    "Via",
    "Warning",
    "Retry-After",
    "Reason",
    "Proxy-Require",
    "Allow-Events",
    "Event",
    "Subject",
    "Organization",
    "Date",
    "Timestamp",
    "WWW-Authenticate",
    "Authorization",
    "Expires",
  ].map((name) => [name.toLowerCase(), name]),
);

/** Headers whose values may be joined with commas on one line (RFC 3261 §7.3.1). */
const LIST_HEADERS = new Set([
  "via",
  "contact",
  "route",
  "record-route",
  "allow",
  "supported",
  "require",
  "proxy-require",
  "unsupported",
  "accept",
]);

/** The canonical spelling of a header name, expanding compact forms. */
export function canonicalName(name: string): string {
  const lower = name.toLowerCase();
  if (lower.length === 1) return COMPACT[lower] ?? name;
  return CANONICAL.get(lower) ?? name;
}

const TOKEN = /^[A-Za-z0-9\-.!%*_+`'~]+$/;
const MAX_MESSAGE_BYTES = 64 * 1024;

/** Splits a header value on commas that are outside quotes and angle brackets. */
export function splitList(value: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (quoted) {
      if (ch === "\\") i++;
      else if (ch === '"') quoted = false;
    } else if (ch === '"') quoted = true;
    else if (ch === "<") depth++;
    else if (ch === ">") depth = Math.max(0, depth - 1);
    else if (ch === "," && depth === 0) {
      parts.push(value.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(value.slice(start).trim());
  return parts.filter(Boolean);
}

/** Index of the blank line that ends the headers (CRLF CRLF, or bare LF LF as RFC 3261 §7.5 tolerates). */
function headerEnd(data: Buffer): { end: number; bodyStart: number } | null {
  const crlf = data.indexOf("\r\n\r\n");
  const lf = data.indexOf("\n\n");
  if (crlf === -1 && lf === -1) return null;
  if (crlf !== -1 && (lf === -1 || crlf < lf)) return { end: crlf, bodyStart: crlf + 4 };
  return { end: lf, bodyStart: lf + 2 };
}

function parseHead(head: string): { start: string; headers: SipHeader[] } {
  const lines = head.split(/\r?\n/);
  const start = lines.shift() ?? "";
  const unfolded: string[] = [];
  for (const line of lines) {
    if (line === "") continue;
    if (line[0] === " " || line[0] === "\t") {
      if (unfolded.length === 0) throw new SipParseError("folded line before the first header");
      unfolded[unfolded.length - 1] += ` ${line.trim()}`;
    } else unfolded.push(line);
  }
  const headers: SipHeader[] = [];
  for (const line of unfolded) {
    const colon = line.indexOf(":");
    if (colon <= 0) throw new SipParseError(`malformed header line: ${line.slice(0, 40)}`);
    const rawName = line.slice(0, colon).trim();
    if (!TOKEN.test(rawName)) throw new SipParseError(`bad header name: ${rawName.slice(0, 40)}`);
    const name = canonicalName(rawName);
    const value = line.slice(colon + 1).trim();
    if (LIST_HEADERS.has(name.toLowerCase())) {
      for (const part of splitList(value)) headers.push([name, part]);
    } else headers.push([name, value]);
  }
  return { start, headers };
}

function parseStartLine(start: string, headers: SipHeader[], body: Buffer): SipMessage {
  const response = /^SIP\/2\.0 ([1-6]\d\d) ?(.*)$/.exec(start);
  if (response)
    return { kind: "response", status: Number(response[1]), reason: response[2] ?? "", headers, body };
  const request = /^([A-Za-z0-9\-.!%*_+`'~]+) (\S+) SIP\/2\.0$/.exec(start);
  if (!request) throw new SipParseError(`bad start line: ${start.slice(0, 60)}`);
  const uri = request[2] ?? "";
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(uri)) throw new SipParseError("Request-URI has no scheme");
  return { kind: "request", method: (request[1] ?? "").toUpperCase(), uri, headers, body };
}

function checkMandatory(message: SipMessage): void {
  for (const name of ["Call-ID", "CSeq", "From", "To", "Via"]) {
    if (getHeader(message, name) === undefined) throw new SipParseError(`missing ${name}`);
  }
  const cseq = parseCSeq(getHeader(message, "CSeq") ?? "");
  if (!cseq) throw new SipParseError("bad CSeq");
  // ACK and CANCEL carry their INVITE's number with their own method: every request names itself.
  if (message.kind === "request" && cseq.method !== message.method) {
    throw new SipParseError("CSeq method differs from the request method");
  }
}

/**
 * Parses one whole message (a datagram). A Content-Length shorter than the body truncates it (RFC 3261
 * §18.3); one longer than what arrived is an error. Throws SipParseError on anything malformed.
 */
export function parseSipMessage(data: Buffer): SipMessage {
  if (data.length > MAX_MESSAGE_BYTES) throw new SipParseError("message too large");
  // Keep-alives (CRLF) are not messages: callers skip them before parsing.
  let offset = 0;
  while (offset < data.length && (data[offset] === 0x0d || data[offset] === 0x0a)) offset++;
  const rest = data.subarray(offset);
  const bounds = headerEnd(rest);
  if (!bounds) throw new SipParseError("no blank line after the headers");
  const { start, headers } = parseHead(rest.subarray(0, bounds.end).toString("utf8"));
  let body = rest.subarray(bounds.bodyStart);
  const lengthValue = headers.find(([name]) => name === "Content-Length")?.[1];
  if (lengthValue !== undefined) {
    if (!/^\d+$/.test(lengthValue)) throw new SipParseError("bad Content-Length");
    const length = Number(lengthValue);
    if (length > body.length) throw new SipParseError("body shorter than Content-Length");
    body = body.subarray(0, length);
  }
  const message = parseStartLine(start, headers, Buffer.from(body));
  checkMandatory(message);
  return message;
}

/**
 * Frames messages out of a stream (TCP): Content-Length is mandatory there (RFC 3261 §18.3). Feed it chunks;
 * it returns each whole message; throws SipParseError when the stream cannot be framed (close it then).
 */
export function createSipStreamParser() {
  let buffered: Buffer = Buffer.alloc(0);
  return {
    push(chunk: Buffer): SipMessage[] {
      buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
      const messages: SipMessage[] = [];
      for (;;) {
        let offset = 0;
        while (offset < buffered.length && (buffered[offset] === 0x0d || buffered[offset] === 0x0a)) offset++;
        buffered = buffered.subarray(offset);
        const bounds = headerEnd(buffered);
        if (!bounds) {
          if (buffered.length > MAX_MESSAGE_BYTES) throw new SipParseError("headers too large");
          return messages;
        }
        const head = buffered.subarray(0, bounds.end).toString("utf8");
        const { headers } = parseHead(head);
        const lengthValue = headers.find(([name]) => name === "Content-Length")?.[1];
        if (lengthValue === undefined || !/^\d+$/.test(lengthValue)) {
          throw new SipParseError("Content-Length is required on a stream");
        }
        const total = bounds.bodyStart + Number(lengthValue);
        if (total > MAX_MESSAGE_BYTES) throw new SipParseError("message too large");
        if (buffered.length < total) return messages;
        messages.push(parseSipMessage(buffered.subarray(0, total)));
        buffered = buffered.subarray(total);
      }
    },
  };
}

/** Serialises a message with a correct Content-Length (any given one is replaced). */
export function serializeSipMessage(message: SipMessage): Buffer {
  const start =
    message.kind === "request"
      ? `${message.method} ${message.uri} SIP/2.0`
      : `SIP/2.0 ${message.status} ${message.reason}`;
  const lines = [start];
  for (const [name, value] of message.headers) {
    if (name === "Content-Length") continue;
    lines.push(`${name}: ${value}`);
  }
  lines.push(`Content-Length: ${message.body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "utf8"), message.body]);
}

/** The first value of a header (canonical or compact name), or undefined. */
export function getHeader(message: SipMessage, name: string): string | undefined {
  const wanted = canonicalName(name).toLowerCase();
  return message.headers.find(([n]) => n.toLowerCase() === wanted)?.[1];
}

/** Every value of a header, in order (comma-joined values were split when parsed). */
export function getHeaders(message: SipMessage, name: string): string[] {
  const wanted = canonicalName(name).toLowerCase();
  return message.headers.filter(([n]) => n.toLowerCase() === wanted).map(([, value]) => value);
}

export function parseCSeq(value: string): { seq: number; method: string } | null {
  const match = /^(\d{1,10})\s+([A-Za-z0-9\-.!%*_+`'~]+)$/.exec(value.trim());
  if (!match) return null;
  const seq = Number(match[1]);
  if (seq >= 2 ** 31) return null;
  return { seq, method: (match[2] ?? "").toUpperCase() };
}

/** `;name=value` parameters after a value (outside quotes and angle brackets), names lower-cased. */
export function headerParams(value: string): Record<string, string> {
  const params: Record<string, string> = {};
  let quoted = false;
  let depth = 0;
  let cut = -1;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (quoted) {
      if (ch === "\\") i++;
      else if (ch === '"') quoted = false;
    } else if (ch === '"') quoted = true;
    else if (ch === "<") depth++;
    else if (ch === ">") depth--;
    else if (ch === ";" && depth === 0) {
      cut = i;
      break;
    }
  }
  if (cut === -1) return params;
  for (const part of value.slice(cut + 1).split(";")) {
    const eq = part.indexOf("=");
    const key = (eq === -1 ? part : part.slice(0, eq)).trim().toLowerCase();
    if (!key) continue;
    params[key] = eq === -1 ? "" : part.slice(eq + 1).trim();
  }
  return params;
}

/** The URI of a name-addr (`"Bob" <sip:bob@host>;tag=1`) or addr-spec (`sip:bob@host;tag=1`). */
export function addressUri(value: string): string {
  const open = value.indexOf("<");
  if (open !== -1) {
    const close = value.indexOf(">", open);
    return value.slice(open + 1, close === -1 ? undefined : close).trim();
  }
  const semi = value.indexOf(";");
  return (semi === -1 ? value : value.slice(0, semi)).trim();
}

export type SipUri = {
  scheme: "sip" | "sips";
  user: string | undefined;
  host: string;
  port: number | undefined;
  params: Record<string, string>;
};

/** Parses `sip:user@host:port;params` (user info may hold a password; IPv6 hosts are bracketed). */
export function parseSipUri(uri: string): SipUri | null {
  const match =
    /^(sips?):(?:([^@;?]*)@)?(\[[0-9a-fA-F:.]+\]|[^:;?]+)(?::(\d{1,5}))?((?:;[^?]*)?)(?:\?.*)?$/i.exec(
      uri.trim(),
    );
  if (!match) return null;
  const params: Record<string, string> = {};
  for (const part of (match[5] ?? "").split(";")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    params[(eq === -1 ? part : part.slice(0, eq)).toLowerCase()] = eq === -1 ? "" : part.slice(eq + 1);
  }
  const user = match[2] === undefined ? undefined : decodeURIComponent(match[2].split(":")[0] ?? "");
  return {
    scheme: (match[1] ?? "sip").toLowerCase() as "sip" | "sips",
    user,
    host: (match[3] ?? "").replace(/^\[|\]$/g, ""),
    port: match[4] ? Number(match[4]) : undefined,
    params,
  };
}

export type Via = {
  transport: string;
  host: string;
  port: number | undefined;
  params: Record<string, string>;
};

export function parseVia(value: string): Via | null {
  const match =
    /^SIP\s*\/\s*2\.0\s*\/\s*([A-Za-z]+)\s+(\[[0-9a-fA-F:.]+\]|[^\s:;]+)(?:\s*:\s*(\d{1,5}))?/i.exec(
      value.trim(),
    );
  if (!match) return null;
  return {
    transport: (match[1] ?? "").toUpperCase(),
    host: (match[2] ?? "").replace(/^\[|\]$/g, ""),
    port: match[3] ? Number(match[3]) : undefined,
    params: headerParams(value),
  };
}

/** Reason phrases for the statuses this server sends. */
export const REASONS: Record<number, string> = {
  100: "Trying",
  180: "Ringing",
  200: "OK",
  400: "Bad Request",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  415: "Unsupported Media Type",
  420: "Bad Extension",
  422: "Session Interval Too Small",
  480: "Temporarily Unavailable",
  481: "Call/Transaction Does Not Exist",
  483: "Too Many Hops",
  486: "Busy Here",
  487: "Request Terminated",
  488: "Not Acceptable Here",
  491: "Request Pending",
  500: "Server Internal Error",
  501: "Not Implemented",
  503: "Service Unavailable",
};

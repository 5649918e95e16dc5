/**
 * SIP digest authentication (RFC 3261 §22 with RFC 8760's algorithms): answering a registrar's or trunk's
 * challenge (401 WWW-Authenticate / 407 Proxy-Authenticate) with the strongest algorithm it offers —
 * SHA-512-256, SHA-256 or MD5, each also as `-sess` — and qop=auth when offered; and the server side
 * (a challenge, and checking an Authorization against a password) for tests and trunks that authenticate
 * to us.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { splitList } from "./sip-message.ts";

export type DigestAlgorithm =
  | "MD5"
  | "MD5-sess"
  | "SHA-256"
  | "SHA-256-sess"
  | "SHA-512-256"
  | "SHA-512-256-sess";

export type DigestChallenge = {
  realm: string;
  nonce: string;
  opaque: string | undefined;
  algorithm: DigestAlgorithm;
  /** The qop values offered (`auth`, `auth-int`); empty for RFC 2069 style. */
  qop: string[];
  stale: boolean;
};

const HASH: Record<string, string> = { MD5: "md5", "SHA-256": "sha256", "SHA-512-256": "sha512-256" };
/** Preference when several challenges are offered (RFC 8760 §2.4: the strongest first). */
const STRENGTH: Record<string, number> = { "SHA-512-256": 3, "SHA-256": 2, MD5: 1 };

const baseOf = (algorithm: string) => algorithm.replace(/-sess$/i, "");

function hash(algorithm: string, text: string): string {
  return createHash(HASH[baseOf(algorithm)] ?? "md5")
    .update(text, "utf8")
    .digest("hex");
}

/** The `name=value` pairs of a Digest header value (quoted or not). */
export function parseDigestParams(value: string): Record<string, string> | null {
  const match = /^\s*Digest\s+(.*)$/is.exec(value);
  if (!match) return null;
  const params: Record<string, string> = {};
  for (const part of splitList(match[1] ?? "")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim().toLowerCase();
    let raw = part.slice(eq + 1).trim();
    if (raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2)
      raw = raw.slice(1, -1).replace(/\\(.)/g, "$1");
    params[name] = raw;
  }
  return params;
}

/** A WWW-Authenticate / Proxy-Authenticate value we can answer, or null (not Digest, unknown algorithm). */
export function parseChallenge(value: string): DigestChallenge | null {
  const params = parseDigestParams(value);
  if (!params?.realm || !params.nonce) return null;
  const name = (params.algorithm ?? "MD5").toUpperCase();
  const algorithm = (
    ["MD5", "MD5-SESS", "SHA-256", "SHA-256-SESS", "SHA-512-256", "SHA-512-256-SESS"].includes(name)
      ? name.replace(/-SESS$/, "-sess")
      : null
  ) as DigestAlgorithm | null;
  if (!algorithm) return null;
  return {
    realm: params.realm,
    nonce: params.nonce,
    opaque: params.opaque,
    algorithm,
    qop: (params.qop ?? "")
      .split(",")
      .map((q) => q.trim().toLowerCase())
      .filter(Boolean),
    stale: (params.stale ?? "").toLowerCase() === "true",
  };
}

/** The strongest challenge we can answer among several headers' values. */
export function pickChallenge(values: string[]): DigestChallenge | null {
  let best: DigestChallenge | null = null;
  for (const value of values) {
    const challenge = parseChallenge(value);
    if (!challenge) continue;
    if (!best || (STRENGTH[baseOf(challenge.algorithm)] ?? 0) > (STRENGTH[baseOf(best.algorithm)] ?? 0))
      best = challenge;
  }
  return best;
}

function quote(value: string): string {
  return `"${value.replace(/(["\\])/g, "\\$1")}"`;
}

function responseFor(input: {
  algorithm: string;
  username: string;
  realm: string;
  password: string;
  method: string;
  uri: string;
  nonce: string;
  cnonce: string;
  nc: string;
  qop: string | undefined;
}): string {
  let ha1 = hash(input.algorithm, `${input.username}:${input.realm}:${input.password}`);
  if (/-sess$/i.test(input.algorithm)) ha1 = hash(input.algorithm, `${ha1}:${input.nonce}:${input.cnonce}`);
  const ha2 = hash(input.algorithm, `${input.method}:${input.uri}`);
  return input.qop
    ? hash(input.algorithm, `${ha1}:${input.nonce}:${input.nc}:${input.cnonce}:${input.qop}:${ha2}`)
    : hash(input.algorithm, `${ha1}:${input.nonce}:${ha2}`);
}

/** The Authorization (or Proxy-Authorization) value answering `challenge` for one request. */
export function authorize(input: {
  challenge: DigestChallenge;
  method: string;
  uri: string;
  username: string;
  password: string;
  /** Requests already sent with this nonce, plus one (the nonce count). */
  nonceCount?: number;
  cnonce?: string;
}): string {
  const { challenge } = input;
  const qop = challenge.qop.includes("auth") ? "auth" : undefined;
  const cnonce = input.cnonce ?? randomBytes(8).toString("hex");
  const nc = (input.nonceCount ?? 1).toString(16).padStart(8, "0");
  const response = responseFor({
    algorithm: challenge.algorithm,
    username: input.username,
    realm: challenge.realm,
    password: input.password,
    method: input.method,
    uri: input.uri,
    nonce: challenge.nonce,
    cnonce,
    nc,
    qop,
  });
  const parts = [
    `username=${quote(input.username)}`,
    `realm=${quote(challenge.realm)}`,
    `nonce=${quote(challenge.nonce)}`,
    `uri=${quote(input.uri)}`,
    `response=${quote(response)}`,
    `algorithm=${challenge.algorithm}`,
  ];
  if (challenge.opaque !== undefined) parts.push(`opaque=${quote(challenge.opaque)}`);
  if (qop) parts.push(`qop=${qop}`, `nc=${nc}`, `cnonce=${quote(cnonce)}`);
  return `Digest ${parts.join(", ")}`;
}

/** A challenge to send (server side). */
export function challengeHeader(input: {
  realm: string;
  nonce?: string;
  algorithm?: DigestAlgorithm;
}): string {
  const nonce = input.nonce ?? randomBytes(16).toString("hex");
  return `Digest realm=${quote(input.realm)}, nonce=${quote(nonce)}, algorithm=${input.algorithm ?? "SHA-256"}, qop="auth"`;
}

/** Checks an Authorization value against the password (server side); the nonce must be one we issued. */
export function verifyAuthorization(input: {
  header: string;
  method: string;
  password: string;
  realm: string;
  nonce: string;
  username?: string;
}): boolean {
  const params = parseDigestParams(input.header);
  if (!params?.response || !params.username || !params.uri) return false;
  if (params.realm !== input.realm || params.nonce !== input.nonce) return false;
  if (input.username !== undefined && params.username !== input.username) return false;
  const algorithm = params.algorithm ?? "MD5";
  if (!HASH[baseOf(algorithm).toUpperCase()]) return false;
  const expected = responseFor({
    algorithm: baseOf(algorithm).toUpperCase() + (/-sess$/i.test(algorithm) ? "-sess" : ""),
    username: params.username,
    realm: input.realm,
    password: input.password,
    method: input.method,
    uri: params.uri,
    nonce: input.nonce,
    cnonce: params.cnonce ?? "",
    nc: params.nc ?? "",
    qop: params.qop,
  });
  const a = Buffer.from(expected);
  const b = Buffer.from(params.response.toLowerCase());
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * What captures keep of an Authorization / Proxy-Authorization value: everything but the response (and
 * cnonce), which could be attacked offline for the password.
 */
export function redactAuthorization(value: string): string {
  return value
    .replace(/(\bresponse\s*=\s*)("[^"]*"|[^,\s]+)/gi, '$1"[redacted]"')
    .replace(/(\bcnonce\s*=\s*)("[^"]*"|[^,\s]+)/gi, '$1"[redacted]"');
}

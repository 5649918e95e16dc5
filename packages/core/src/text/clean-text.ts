/**
 * Text from outside (uploads, fetched pages, model output, CSV, requests) made storable and safe to pass on:
 * PostgreSQL refuses NUL in text and `\u0000` in jsonb, UTF-8 has no lone surrogates, and XML (TwiML, SIP
 * bodies, sitemaps) allows neither C0 controls other than tab, line feed and carriage return nor U+FFFE and
 * U+FFFF. Removing them loses nothing a reader could see.
 */

import { decodeUtf8Portable } from "./utf8-decode.ts";

/** The supplementary planes' noncharacters (U+1FFFE, U+1FFFF, ..., U+10FFFE, U+10FFFF). */
const PLANE_NONCHARACTERS = Array.from({ length: 16 }, (_, plane) => {
  const base = (plane + 1) * 0x10000;
  return `\\u{${(base + 0xfffe).toString(16)}}\\u{${(base + 0xffff).toString(16)}}`;
}).join("");

// With the `u` flag a surrogate class matches only a surrogate that is not half of a pair.
const UNWANTED_SOURCE = `[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\uD800-\\uDFFF\\uFDD0-\\uFDEF\\uFFFE\\uFFFF${PLANE_NONCHARACTERS}]`;
const UNWANTED = new RegExp(UNWANTED_SOURCE, "u");
const UNWANTED_ALL = new RegExp(UNWANTED_SOURCE, "gu");

/**
 * `text` without NUL and the other C0 controls (tab, line feed and carriage return stay), lone surrogates,
 * and noncharacters (U+FDD0–U+FDEF, U+FFFE, U+FFFF and their like in every plane). Clean text comes back
 * as it is.
 */
export function cleanText(text: string): string {
  return UNWANTED.test(text) ? text.replace(UNWANTED_ALL, "") : text;
}

/** Whether `text` is clean already (`cleanText` would return it unchanged). */
export function isCleanText(text: string): boolean {
  return !UNWANTED.test(text);
}

type PlatformDecoder = { decode(bytes: Uint8Array): string };
const PlatformTextDecoder = (
  globalThis as { TextDecoder?: new (label: string, options: { ignoreBOM: boolean }) => PlatformDecoder }
).TextDecoder;
const platformDecoder = PlatformTextDecoder ? new PlatformTextDecoder("utf-8", { ignoreBOM: true }) : null;

/**
 * UTF-8 bytes as text, each invalid or cut-short sequence replaced by one U+FFFD (the WHATWG decoder's
 * rule, so the same bytes read alike here and in a browser). A byte order mark stays.
 */
export function decodeUtf8(bytes: Uint8Array): string {
  return platformDecoder ? platformDecoder.decode(bytes) : decodeUtf8Portable(bytes);
}

/**
 * Uploaded or fetched bytes as clean text: UTF-8 (invalid bytes become U+FFFD, which is storable and shows
 * where something was lost), without a leading byte order mark, and through `cleanText`.
 */
export function decodeText(bytes: Uint8Array): string {
  const text = decodeUtf8(bytes);
  return cleanText(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
}

/** At most `max` UTF-16 code units of `text`, never ending in half a surrogate pair. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, Math.max(0, max));
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/** Data: an object literal, or a dictionary without prototype (parsers make them, some through a class). */
const isPlainObject = (value: object): value is Record<string, unknown> => {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null || Object.getPrototypeOf(proto) === null;
};

/**
 * `value` with `clean` applied to every string and object key in it (arrays and plain objects, up to
 * `maxDepth` levels; deeper parts are left as they are). Parts that did not change are the same objects.
 */
export function mapTextDeep(value: unknown, clean: (text: string) => string, maxDepth = 100): unknown {
  if (typeof value === "string") return clean(value);
  if (value === null || typeof value !== "object" || maxDepth <= 0) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      const mapped = mapTextDeep(item, clean, maxDepth - 1);
      if (mapped !== item) {
        copy ??= value.slice();
        copy[i] = mapped;
      }
    }
    return copy ?? value;
  }
  if (!isPlainObject(value)) return value;
  let changed = false;
  const entries: [string, unknown][] = [];
  for (const [key, item] of Object.entries(value)) {
    const cleanKey = clean(key);
    const mapped = mapTextDeep(item, clean, maxDepth - 1);
    if (cleanKey !== key || mapped !== item) changed = true;
    entries.push([cleanKey, mapped]);
  }
  if (!changed) return value;
  // Own data properties (a `__proto__` key stays a key); a dictionary stays without prototype.
  const copy = Object.fromEntries(entries);
  return Object.getPrototypeOf(value) === Object.prototype ? copy : Object.assign(Object.create(null), copy);
}

/** `value` with every string and key in it through `cleanText`. */
export const cleanTextDeep = <T>(value: T): T => mapTextDeep(value, cleanText) as T;

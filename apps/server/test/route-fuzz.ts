// Schema fuzz of the whole route table (security issue #14 §4 "No 500 on bad input"): for every route of
// `routeTable`, requests built by fast-check from the route's own zod schemas (query, path params, JSON
// body, through their JSON Schema) and then spoiled with hostile values — huge and negative numbers, NUL,
// lone surrogates, deep nesting, `__proto__` keys, wrong content types, malformed multipart — sent with a
// fresh token of a fixture user (the super admin and an organisation owner) and without one. Whatever the
// input, the server must answer below 500, within a few seconds, and stay up.
// Used by test/route-fuzz.test.ts (small, in CI on both databases) and bench/route-fuzz.bench.ts (≥300
// inputs per route).

import { type RouteDefinition, routeTable } from "@switchboard/api";
import fc from "fast-check";
import type { FastifyInstance, InjectOptions } from "fastify";
import { z } from "zod";
import { issueSessionToken } from "../src/modules/auth/sessions.ts";
import { buildHierarchy } from "./fixtures.ts";

type Json = Record<string, unknown>;
type Value = unknown;

// ---------------------------------------------------------------------------------------------------------
// Values from a JSON Schema (the input side of a zod schema, as the OpenAPI document shows it)

const SAMPLE_URLS = [
  "https://example.com/",
  "https://example.invalid/picture.png",
  "http://127.0.0.1:1/hook",
  "https://user:pass@example.com:8443/a?b=c#d",
];

/** Fixture ids that exist, so that generated ids reach rows and not only "not found". */
let knownIds: number[] = [1, 2, 3];
/** Accounts the owner fixture may act on (its organisation and its agent): valid targetAccountIds. */
let ownAccountIds: number[] = [1];

function stringArbitrary(schema: Json): fc.Arbitrary<string> {
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? Math.max(min, schema.maxLength) : min + 30;
  const cap = Math.min(max, min + 40);
  switch (schema.format) {
    case "email":
      return fc.emailAddress();
    case "uri":
    case "url":
      return fc.constantFrom(...SAMPLE_URLS);
    case "date-time":
      return fc
        .date({ min: new Date("1990-01-01"), max: new Date("2100-01-01"), noInvalidDate: true })
        .map((d) => d.toISOString());
    case "date":
      return fc
        .date({ min: new Date("1990-01-01"), max: new Date("2100-01-01"), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
  }
  if (typeof schema.pattern === "string") {
    try {
      return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= max);
    } catch {
      // A pattern fast-check cannot generate from: plain strings below.
    }
  }
  return fc.string({ minLength: min, maxLength: cap, unit: fc.constantFrom("a", "Z", "7", " ", "-", "é") });
}

function numberArbitrary(schema: Json, integer: boolean): fc.Arbitrary<number> {
  const lowerEx = typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum : undefined;
  const upperEx = typeof schema.exclusiveMaximum === "number" ? schema.exclusiveMaximum : undefined;
  let min = typeof schema.minimum === "number" ? schema.minimum : lowerEx;
  let max = typeof schema.maximum === "number" ? schema.maximum : upperEx;
  if (integer) {
    min = min === undefined ? -1_000_000 : Math.max(min, -Number.MAX_SAFE_INTEGER);
    max = max === undefined ? 1_000_000 : Math.min(max, Number.MAX_SAFE_INTEGER);
    if (lowerEx !== undefined && min === lowerEx) min += 1;
    if (upperEx !== undefined && max === upperEx) max -= 1;
    const lo = Math.ceil(min);
    const hi = Math.floor(max);
    const small = fc.integer({ min: lo, max: Math.max(lo, Math.min(hi, lo + 50)) });
    const ids = knownIds.filter((id) => id >= lo && id <= hi);
    return fc.oneof(
      small,
      fc.integer({ min: lo, max: hi }),
      ...(ids.length ? [fc.constantFrom(...ids)] : []),
    );
  }
  return fc.double({
    min: min ?? -1e6,
    max: max ?? 1e6,
    noNaN: true,
    noDefaultInfinity: true,
    minExcluded: lowerEx !== undefined,
    maxExcluded: upperEx !== undefined,
  });
}

/**
 * Values for a string field its name describes better than its JSON Schema does (a zod pipe or refinement
 * shows as a plain string): e-mail addresses, phone numbers, web addresses.
 */
function hinted(name: string, schema: Json): fc.Arbitrary<Value> | null {
  if (schema.type !== "string" || schema.format || schema.pattern || schema.enum) return null;
  if (/e-?mail/i.test(name)) return fc.emailAddress();
  if (/phone|number$/i.test(name))
    return fc.constantFrom("+15551230000", "+44 20 7946 0000", "(555) 123-4567");
  if (/url$|link$|website/i.test(name)) return fc.constantFrom(...SAMPLE_URLS);
  return null;
}

function resolveRef(root: Json, ref: string): Json {
  if (ref === "#") return root;
  let node: unknown = root;
  for (const part of ref.replace(/^#\//, "").split("/")) node = (node as Json | undefined)?.[part];
  return (node as Json | undefined) ?? {};
}

/** An arbitrary of values that (mostly) satisfy `schema`; recursion through `$ref` stops at `depth`. */
export function valueArbitrary(schema: Json, root: Json = schema, depth = 0): fc.Arbitrary<Value> {
  if (typeof schema.$ref === "string") {
    if (depth > 3) return fc.constant(null);
    return valueArbitrary(resolveRef(root, schema.$ref), root, depth + 1);
  }
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0)
    return fc.constantFrom(...(schema.enum as Value[]));
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0)
      return fc.oneof(...options.map((o) => valueArbitrary(o as Json, root, depth + 1)));
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0)
    return valueArbitrary({ ...(schema.allOf[0] as Json), ...schema, allOf: undefined }, root, depth + 1);
  const type = schema.type;
  if (Array.isArray(type))
    return fc.oneof(...type.map((t) => valueArbitrary({ ...schema, type: t }, root, depth + 1)));
  switch (type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return numberArbitrary(schema, true);
    case "number":
      return numberArbitrary(schema, false);
    case "string":
      return stringArbitrary(schema);
    case "array": {
      const items = (schema.items as Json | undefined) ?? {};
      const minLength = typeof schema.minItems === "number" ? schema.minItems : 0;
      const maxItems = typeof schema.maxItems === "number" ? schema.maxItems : minLength + 4;
      return fc.array(valueArbitrary(items, root, depth + 1), {
        minLength,
        maxLength: Math.max(minLength, Math.min(maxItems, minLength + 4)),
      });
    }
    case "object": {
      const properties = (schema.properties as Record<string, Json> | undefined) ?? {};
      const required = new Set((schema.required as string[] | undefined) ?? []);
      const record = fc.record(
        Object.fromEntries(
          Object.entries(properties).map(([k, v]) => [k, hinted(k, v) ?? valueArbitrary(v, root, depth + 1)]),
        ),
        { requiredKeys: [...required].filter((k) => k in properties) },
      );
      const extra = schema.additionalProperties;
      if (extra && typeof extra === "object" && Object.keys(properties).length === 0)
        return fc.dictionary(
          fc.string({ minLength: 1, maxLength: 12 }),
          valueArbitrary(extra as Json, root, depth + 1),
          { maxKeys: 4 },
        );
      return record;
    }
  }
  return fc.jsonValue({ maxDepth: 2 });
}

// ---------------------------------------------------------------------------------------------------------
// Hostile values

function nested(depth: number, kind: "array" | "object"): Value {
  let value: Value = "leaf";
  for (let i = 0; i < depth; i++) value = kind === "array" ? [value] : { a: value };
  return value;
}

/**
 * JSON text too deep for JSON.stringify (it would exhaust this process's stack too): stands in a value as a
 * placeholder string that `toJsonText` swaps for the text.
 */
class RawJson {
  constructor(
    readonly key: string,
    readonly text: string,
  ) {}
  toJSON() {
    return this.key;
  }
}
const rawTexts: RawJson[] = [];
function rawJson(text: string): RawJson {
  const raw = new RawJson(`\u0001raw${rawTexts.length}\u0001`, text);
  rawTexts.push(raw);
  return raw;
}

/** JSON text of a value that may hold RawJson pieces. */
export function toJsonText(value: Value): string {
  let text = JSON.stringify(value) ?? "null";
  for (const raw of rawTexts) text = text.split(JSON.stringify(raw.key)).join(raw.text);
  return text;
}

/** `{"__proto__": ...}` as an own key (what JSON.parse makes of it), so JSON.stringify sends it. */
const protoKeyed = (inner: Value) => JSON.parse(`{"__proto__": ${JSON.stringify(inner)}, "a": 1}`) as Value;

export const HOSTILE_NUMBERS: number[] = [
  0,
  -1,
  -2_147_483_648,
  -2_147_483_649,
  2_147_483_647,
  2_147_483_648,
  4_294_967_296,
  2 ** 53,
  2 ** 53 + 2,
  2 ** 63,
  9.2e18,
  1e21,
  1e308,
  -1e308,
  0.5,
  -0.000001,
  Number.MIN_VALUE,
];

export const HOSTILE_STRINGS: string[] = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "a\udfffb",
  "\udc00\ud800",
  "\uffff\ufffe",
  "\u202e\u200b",
  "🙂",
  "99999999999999999999",
  "2147483648",
  "-2147483649",
  "-1",
  "0",
  "1e309",
  "-1e309",
  "0x7fffffff",
  "NaN",
  "Infinity",
  "1.5",
  "true",
  "null",
  "undefined",
  "[]",
  "{}",
  "__proto__",
  "constructor",
  "'; drop table accounts; --",
  "\\",
  "%00",
  "../../../etc/passwd",
  "<script>alert(1)</script>",
  "9999-99-99",
  "0000-00-00",
  "+275760-09-13T00:00:00.001Z",
  "-271821-04-19T00:00:00.000Z",
  "10000-01-01",
  "0001-01-01",
  "-000001-01-01T00:00:00Z",
  "1970-01-01T00:00:00+99:99",
  "x".repeat(5000),
  "\u0000".repeat(100),
];

export const hostileValue: fc.Arbitrary<Value> = fc.oneof(
  fc.constantFrom(...HOSTILE_NUMBERS),
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.constantFrom<Value>(null, true, false, [], {}, [null], [[]], { "": "" }),
  fc.constantFrom(
    nested(50, "array"),
    nested(50, "object"),
    nested(2000, "array"),
    nested(2000, "object"),
    rawJson(`${"[".repeat(100_000)}"leaf"${"]".repeat(100_000)}`),
    rawJson(`${'{"a":'.repeat(50_000)}"leaf"${"}".repeat(50_000)}`),
    protoKeyed({ polluted: true }),
    { constructor: { prototype: { polluted: true } } },
    { "a\u0000b": 1, "\ud800": "x" },
    Array.from({ length: 3000 }, (_, i) => i),
  ),
  fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.string({ unit: fc.constantFrom("\u0000", "\ud800", "\udfff", "a", "%", "\n"), maxLength: 8 }),
);

type Path = (string | number)[];

/** Every place in `value` a hostile value can go: existing entries and new keys of objects. */
function placesOf(value: Value, keys: string[], path: Path = [], out: Path[] = [], depth = 0): Path[] {
  out.push(path);
  if (depth > 6 || value instanceof RawJson) return out;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) placesOf(v, keys, [...path, i], out, depth + 1);
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) placesOf(v, keys, [...path, k], out, depth + 1);
    for (const k of keys) if (!(k in (value as Json))) out.push([...path, k]);
  }
  return out;
}

function setAt(value: Value, path: Path, replacement: Value): Value {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path as [string | number, ...Path];
  if (Array.isArray(value)) {
    const copy = [...value];
    copy[head as number] = setAt(copy[head as number], rest, replacement);
    return copy;
  }
  const copy: Json = { ...((value as Json) ?? {}) };
  Object.defineProperty(copy, head, {
    value: setAt(copy[head as string], rest, replacement),
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return copy;
}

/** A valid value of `schema` with one or two places (existing or new keys) replaced by hostile values. */
function spoiledArbitrary(schema: Json, keys: string[]): fc.Arbitrary<Value> {
  const valid = valueArbitrary(schema);
  const extraKeys = [...keys, "__proto__", "constructor", "a\u0000b"];
  return fc
    .tuple(valid, fc.array(fc.tuple(fc.nat(), hostileValue), { minLength: 1, maxLength: 2 }))
    .map(([base, spoils]) => {
      let value = base;
      for (const [index, bad] of spoils) {
        const places = placesOf(value, extraKeys);
        value = setAt(value, places[index % places.length] ?? [], bad);
      }
      return value;
    });
}

// ---------------------------------------------------------------------------------------------------------
// Requests

export type FuzzRequest = {
  method: RouteDefinition["method"];
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** Who calls: a fixture user's fresh token, or nobody. */
  caller: "superAdmin" | "owner" | "none";
  /** Short description for a failure report. */
  note: string;
};

/** Percent-encodes as UTF-8, and lone surrogates as their 3-byte (WTF-8) form, which is not UTF-8. */
export function encodeComponent(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (code >= 0xd800 && code <= 0xdfff) {
      out +=
        `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
    } else out += encodeURIComponent(char);
  }
  return out;
}

/** A query or path value as text: numbers and strings as they are, anything else as JSON. */
const asText = (value: Value): string =>
  typeof value === "string" ? value : typeof value === "object" ? toJsonText(value) : String(value);

function queryString(value: Value): string {
  if (!value || typeof value !== "object" || Array.isArray(value))
    return `q=${encodeComponent(asText(value))}`;
  const parts: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue;
    const values = Array.isArray(v) && v.length > 0 && v.length < 5 ? v : [v];
    for (const one of values) parts.push(`${encodeComponent(key)}=${encodeComponent(asText(one))}`);
  }
  return parts.join("&");
}

const RAW_PATH_VALUES = [
  "%00",
  "a%00b",
  "%ED%A0%80",
  "%FF",
  "%",
  "%2",
  "..%2F..%2F",
  "%C0%80",
  "2147483648",
  "-1",
  "0",
  "1e3",
  "%20",
  "a%2Fb",
];

const MULTIPART_BODIES: { note: string; contentType: string; body: string | Buffer }[] = (() => {
  const b = "fuzzboundary";
  const ct = `multipart/form-data; boundary=${b}`;
  const filePart = (name: string, filename: string, data: string | Buffer, type = "image/png") =>
    Buffer.concat([
      Buffer.from(
        `--${b}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
      ),
      Buffer.from(data),
      Buffer.from("\r\n"),
    ]);
  const end = Buffer.from(`--${b}--\r\n`);
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.alloc(64),
  ]);
  return [
    { note: "multipart: no boundary", contentType: "multipart/form-data", body: "garbage" },
    { note: "multipart: garbage", contentType: ct, body: "garbage" },
    { note: "multipart: empty", contentType: ct, body: "" },
    { note: "multipart: only the end", contentType: ct, body: end },
    {
      note: "multipart: truncated",
      contentType: ct,
      body: `--${b}\r\nContent-Disposition: form-data; name="image"`,
    },
    {
      note: "multipart: part never ends",
      contentType: ct,
      body: `--${b}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\nabc`,
    },
    {
      note: "multipart: no disposition",
      contentType: ct,
      body: Buffer.concat([Buffer.from(`--${b}\r\nContent-Type: image/png\r\n\r\nabc\r\n`), end]),
    },
    {
      note: "multipart: field, no file",
      contentType: ct,
      body: Buffer.concat([
        Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="image"\r\n\r\nabc\r\n`),
        end,
      ]),
    },
    {
      note: "multipart: two files",
      contentType: ct,
      body: Buffer.concat([filePart("image", "a.png", png), filePart("image", "b.png", png), end]),
    },
    {
      note: "multipart: NUL file name",
      contentType: ct,
      body: Buffer.concat([filePart("image", "a\u0000.png", png), end]),
    },
    {
      note: "multipart: not an image",
      contentType: ct,
      body: Buffer.concat([filePart("image", "a.txt", "hello", "text/plain"), end]),
    },
    {
      note: "multipart: a png",
      contentType: ct,
      body: Buffer.concat([filePart("image", "a.png", png), end]),
    },
    {
      note: "multipart: boundary too long",
      contentType: `multipart/form-data; boundary=${"x".repeat(200)}`,
      body: "--x",
    },
    {
      note: "multipart: bad header",
      contentType: ct,
      body: Buffer.concat([
        Buffer.from(`--${b}\r\nContent-Disposition: form-data; name=\r\n\r\nabc\r\n`),
        end,
      ]),
    },
  ];
})();

/** Bodies sent with a content type other than the JSON the route reads, or not JSON at all. */
const WRONG_BODIES: { note: string; contentType: string; body: string }[] = [
  { note: "text/plain JSON", contentType: "text/plain", body: '{"a":1}' },
  { note: "form-encoded", contentType: "application/x-www-form-urlencoded", body: "a=1&__proto__=x&b=%00" },
  { note: "xml", contentType: "application/xml", body: "<a/>" },
  { note: "octet-stream", contentType: "application/octet-stream", body: "\u0000\u0001" },
  { note: "json: not JSON", contentType: "application/json", body: "{" },
  { note: "json: empty", contentType: "application/json", body: "" },
  { note: "json: null", contentType: "application/json", body: "null" },
  { note: "json: array", contentType: "application/json", body: "[1,2]" },
  { note: "json: string", contentType: "application/json", body: '"x"' },
  { note: "json: number", contentType: "application/json", body: "1e999" },
  { note: "json: __proto__", contentType: "application/json", body: '{"__proto__":{"polluted":true}}' },
  {
    note: "json: constructor.prototype",
    contentType: "application/json",
    body: '{"constructor":{"prototype":{"polluted":true}}}',
  },
  { note: "json: NUL escape", contentType: "application/json", body: '{"a":"\\u0000"}' },
  { note: "json: lone surrogate escape", contentType: "application/json", body: '{"a":"\\ud800"}' },
  { note: "json: charset latin1", contentType: "application/json; charset=latin1", body: '{"a":1}' },
  { note: "json: huge number", contentType: "application/json", body: '{"id":1e400}' },
  { note: "json: invalid UTF-8", contentType: "application/json", body: '{"a":"\u00ff\u00fe"}' },
];

const toSchema = (schema: z.ZodType | undefined): Json | undefined =>
  schema ? (z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Json) : undefined;

const keysOf = (schema: Json | undefined): string[] =>
  Object.keys((schema?.properties as Json | undefined) ?? {});

/** The arbitrary of requests to one route. */
export function requestArbitrary(route: RouteDefinition): fc.Arbitrary<FuzzRequest> {
  const query = toSchema(route.query) ?? { type: "object", properties: {} };
  const params = toSchema(route.params);
  const body = toSchema(route.body) ?? { type: "object", properties: {} };
  const paramNames = [...route.path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1] as string);
  const paramsOf = (hostile: boolean) =>
    fc.record(
      Object.fromEntries(
        paramNames.map((name) => {
          const schema = ((params?.properties as Json | undefined)?.[name] as Json | undefined) ?? {
            type: "string",
          };
          const valid = valueArbitrary(schema).map((v) => encodeComponent(asText(v)));
          const bad = fc.oneof(
            hostileValue.map((v) => encodeComponent(asText(v))),
            fc.constantFrom(...RAW_PATH_VALUES),
          );
          return [name, hostile ? fc.oneof(valid, bad) : valid];
        }),
      ),
    );
  const queryKeys = [...keysOf(query), "targetAccountId", "viewingAs", "token"];
  const validTarget = fc.option(fc.constantFrom(...ownAccountIds).map(String), { freq: 2 });
  const hostileTarget = fc.constantFrom(
    "2147483648",
    "99999999999999999999",
    "-1",
    "0",
    "1.5",
    "%00",
    "abc",
    "1e3",
    "",
  );
  type BodyChoice = { note: string; contentType?: string; payload?: string | Buffer };
  const jsonBody = (value: Value): BodyChoice => ({
    note: "json",
    contentType: "application/json",
    payload: toJsonText(value),
  });
  const wrongBodies = fc
    .constantFrom(...WRONG_BODIES)
    .map((w): BodyChoice => ({ note: w.note, contentType: w.contentType, payload: w.body }));
  const multipart = (bodies: typeof MULTIPART_BODIES) =>
    fc
      .constantFrom(...bodies)
      .map((m): BodyChoice => ({ note: m.note, contentType: m.contentType, payload: m.body }));
  let validBody: fc.Arbitrary<BodyChoice>;
  let hostileBody: fc.Arbitrary<BodyChoice>;
  if (route.consumes === "multipart/form-data") {
    validBody = multipart(MULTIPART_BODIES.filter((m) => m.note === "multipart: a png"));
    hostileBody = fc.oneof(
      { weight: 4, arbitrary: multipart(MULTIPART_BODIES) },
      { weight: 1, arbitrary: wrongBodies },
    );
  } else if (route.method === "GET") {
    validBody = hostileBody = fc.constant({ note: "no body" });
  } else {
    validBody = valueArbitrary(body).map(jsonBody);
    hostileBody = fc.oneof(
      { weight: 6, arbitrary: spoiledArbitrary(body, keysOf(body)).map(jsonBody) },
      { weight: 1, arbitrary: hostileValue.map(jsonBody) },
      { weight: 2, arbitrary: wrongBodies },
      { weight: 1, arbitrary: fc.constant({ note: "no body" }) },
    );
  }
  const validCaller: fc.Arbitrary<FuzzRequest["caller"]> =
    route.auth === "none" ? fc.constantFrom("none", "owner") : fc.constantFrom("superAdmin", "owner");
  const hostileCaller: fc.Arbitrary<FuzzRequest["caller"]> =
    route.auth === "adminToken" ? fc.constantFrom("none", "owner") : fc.constant("none");
  type Part = "params" | "query" | "target" | "body" | "caller";
  const parts: Part[] = [
    "query",
    "target",
    "body",
    "caller",
    ...(paramNames.length ? (["params"] as const) : []),
  ];
  // A quarter of the requests are valid throughout (they reach the handlers); the others spoil one or two
  // parts, so that each hostile value meets otherwise valid input and gets past the earlier checks.
  const spoilArb = fc.oneof(
    { weight: 1, arbitrary: fc.constant<Part[]>([]) },
    { weight: 3, arbitrary: fc.subarray(parts, { minLength: 1, maxLength: 2 }) },
  );
  return spoilArb.chain((spoil) => {
    const bad = new Set(spoil);
    return fc
      .record({
        params: paramsOf(bad.has("params")),
        query: bad.has("query") ? spoiledArbitrary(query, queryKeys) : valueArbitrary(query),
        target: bad.has("target") ? hostileTarget : validTarget,
        body: bad.has("body") ? hostileBody : validBody,
        caller: bad.has("caller") ? hostileCaller : validCaller,
      })
      .map(({ params: p, query: q, target, body: b, caller }) => {
        const path = route.path.replace(
          /\{([A-Za-z0-9_]+)\}/g,
          (_, name: string) => (p as Record<string, string>)[name] ?? "x",
        );
        let search = queryString(q);
        if (target !== null) search += `${search ? "&" : ""}targetAccountId=${encodeComponent(target)}`;
        const headers: Record<string, string> = {};
        if (b.contentType) headers["content-type"] = b.contentType;
        return {
          method: route.method,
          url: `${path}${search ? `?${search}` : ""}`,
          headers,
          ...(b.payload !== undefined ? { payload: b.payload } : {}),
          caller,
          note: `${b.note}${spoil.length ? `; spoilt: ${spoil.join(", ")}` : "; valid"}`,
        };
      });
  });
}

// ---------------------------------------------------------------------------------------------------------
// Running

export type FuzzFailure = {
  route: string;
  request: FuzzRequest;
  status: number | "no answer";
  answer: string;
};

export type FuzzResult = {
  requests: number;
  routes: number;
  serverErrors: number;
  failures: FuzzFailure[];
  /** Answers by status class, e.g. { "2xx": 120, "4xx": 900 }. */
  statuses: Record<string, number>;
  /** Routes that answered at least one request with 2xx (their handlers ran to the end). */
  routesWithSuccess: number;
};

/** Routes whose calls may remove the fixture's users or accounts: a fresh world is built after them. */
const DESTRUCTIVE = /delete|logout|signout|disable|remove|leave|transfer/i;

export type FuzzOptions = {
  /** Requests per route. */
  perRoute: number;
  seed: number;
  /** Longest wait for one answer. */
  timeoutMs?: number;
  /** Only these routes (ids); default all. */
  only?: (route: RouteDefinition) => boolean;
  /** Called after each route with its answers by status class and the time it took. */
  onRoute?: (route: RouteDefinition, statuses: Record<string, number>, ms: number) => void;
};

export async function fuzzRoutes(app: FastifyInstance, options: FuzzOptions): Promise<FuzzResult> {
  const db = app.context.database.db;
  const routes = routeTable.filter((r) => options.only?.(r) ?? true);
  const result: FuzzResult = {
    requests: 0,
    routes: 0,
    serverErrors: 0,
    failures: [],
    statuses: {},
    routesWithSuccess: 0,
  };
  let world = await buildHierarchy(app);
  const idsOf = (w: typeof world) => [
    ...Object.values(w.accounts).map((a) => a.id),
    ...Object.values(w.members).map((m) => m.userId),
  ];
  knownIds = idsOf(world);
  ownAccountIds = [world.accounts.O1.id, world.accounts.A1.id];
  let index = 0;
  for (const route of routes) {
    index++;
    const samples = fc.sample(requestArbitrary(route), {
      numRuns: options.perRoute,
      seed: options.seed + index,
    });
    const started = performance.now();
    const routeStatuses: Record<string, number> = {};
    for (const request of samples) {
      // A fresh token per request: a call that signs out or deletes does not spoil the next one.
      const member = request.caller === "superAdmin" ? world.members.superAdmin : world.members.o1Owner;
      const account = request.caller === "superAdmin" ? null : world.accounts.O1.id;
      let url = request.url;
      if (request.caller !== "none") {
        const token = await issueSessionToken(db, member.userId, account);
        const name = route.auth === "adminToken" ? "adminToken" : "token";
        url += `${url.includes("?") ? "&" : "?"}${name}=${token}`;
      }
      const inject: InjectOptions = {
        method: request.method,
        url,
        headers: request.headers,
        ...(request.payload !== undefined ? { payload: request.payload } : {}),
      };
      let timer: NodeJS.Timeout | undefined;
      const answer = await Promise.race([
        app.inject(inject).then((res) => ({ status: res.statusCode, body: res.body })),
        new Promise<{ status: "no answer"; body: string }>((resolve) => {
          timer = setTimeout(() => resolve({ status: "no answer", body: "" }), options.timeoutMs ?? 15_000);
        }),
      ]).finally(() => clearTimeout(timer));
      result.requests++;
      const bucket = answer.status === "no answer" ? "no answer" : `${Math.floor(answer.status / 100)}xx`;
      result.statuses[bucket] = (result.statuses[bucket] ?? 0) + 1;
      routeStatuses[bucket] = (routeStatuses[bucket] ?? 0) + 1;
      if (answer.status === "no answer" || answer.status >= 500) {
        if (answer.status !== "no answer") result.serverErrors++;
        result.failures.push({
          route: `${route.method} ${route.path}`,
          request: { ...request, url },
          status: answer.status,
          answer: answer.body.slice(0, 300),
        });
      }
    }
    result.routes++;
    if (routeStatuses["2xx"]) result.routesWithSuccess++;
    options.onRoute?.(route, routeStatuses, performance.now() - started);
    if (route.method === "DELETE" || DESTRUCTIVE.test(route.id)) {
      world = await buildHierarchy(app);
      knownIds = idsOf(world);
      ownAccountIds = [world.accounts.O1.id, world.accounts.A1.id];
    }
  }
  return result;
}

/** One line per failure, for a test's message or a bench's output. */
export function describeFailures(failures: FuzzFailure[], limit = 20): string {
  return failures
    .slice(0, limit)
    .map((f) => {
      const payload =
        f.request.payload === undefined
          ? ""
          : ` body=${JSON.stringify(String(f.request.payload).slice(0, 160))}`;
      return `${f.status} ${f.request.method} ${f.request.url.replace(/(token|adminToken)=[^&]+/g, "$1=…")} [${f.request.caller}, ${f.request.note}]${payload} -> ${f.answer}`;
    })
    .join("\n");
}

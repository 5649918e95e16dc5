import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  cleanText,
  cleanTextDeep,
  decodeText,
  decodeUtf8,
  isCleanText,
  mapTextDeep,
  truncateText,
} from "./clean-text.ts";
import { decodeUtf8Portable } from "./utf8-decode.ts";

// The platform's decoder (Node and browsers), the reference the hand-written one must match.
type Decoder = { decode(bytes: Uint8Array): string };
const { TextDecoder, TextEncoder } = globalThis as unknown as {
  TextDecoder: new (label: string, options: { ignoreBOM: boolean }) => Decoder;
  TextEncoder: new () => { encode(text: string): Uint8Array };
};
const platform = new TextDecoder("utf-8", { ignoreBOM: true });
const utf8 = (text: string) => new TextEncoder().encode(text);
const bytes = (...values: number[]) => new Uint8Array(values);

describe("cleanText", () => {
  it("removes NUL and the C0 controls but keeps tab, line feed and carriage return", () => {
    expect(cleanText("a\u0000b\u0001c\u0008d\u000be\u000cf\u001fg")).toBe("abcdefg");
    expect(cleanText("line\tone\r\nline two\n")).toBe("line\tone\r\nline two\n");
  });

  it("removes lone surrogates and keeps pairs", () => {
    expect(cleanText("a\ud800b\udc00c")).toBe("abc");
    expect(cleanText("\udc00\ud800")).toBe("");
    expect(cleanText("x\ud83d\ude00y")).toBe("x😀y");
    expect(cleanText("\ud83d\ud83d\ude00")).toBe("😀");
  });

  it("removes noncharacters of every plane", () => {
    expect(cleanText("a\ufffeb\uffffc\ufdd0d\ufdefe")).toBe("abcde");
    expect(cleanText("a\u{1fffe}b\u{10ffff}c\u{5ffff}d")).toBe("abcd");
    // Their neighbours are characters.
    expect(cleanText("\ufdcf\ufdf0\ufffd\u{1fffd}\u{10fffd}")).toBe("\ufdcf\ufdf0\ufffd\u{1fffd}\u{10fffd}");
  });

  it("keeps everything else, and clean text comes back as it is", () => {
    const text = "Grüße, 東京 😀 — \u007f\u0085\u00a0 café";
    expect(cleanText(text)).toBe(text);
    expect(isCleanText(text)).toBe(true);
    expect(isCleanText("a\u0000")).toBe(false);
  });

  it("leaves nothing it removes, and is idempotent", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) => {
        const cleaned = cleanText(text);
        expect(isCleanText(cleaned)).toBe(true);
        expect(cleanText(cleaned)).toBe(cleaned);
        for (const char of cleaned) {
          const code = char.codePointAt(0) as number;
          expect(code >= 0x20 || code === 0x09 || code === 0x0a || code === 0x0d).toBe(true);
          expect((code & 0xfffe) === 0xfffe || (code >= 0xd800 && code <= 0xdfff)).toBe(false);
        }
        // Well-formed: encodes to UTF-8 and back unchanged.
        expect(platform.decode(utf8(cleaned))).toBe(cleaned);
      }),
    );
  });
});

describe.each([
  ["decodeUtf8", decodeUtf8],
  ["decodeUtf8Portable", decodeUtf8Portable],
])("%s", (_name, decode) => {
  it("reads valid UTF-8 of every length", () => {
    const text = "a é € 😀 \u{10fffd}";
    expect(decode(utf8(text))).toBe(text);
  });

  it("replaces invalid and cut-short sequences with one U+FFFD each, as the WHATWG decoder does", () => {
    expect(decode(bytes(0x61, 0xff, 0x62))).toBe("a\ufffdb");
    expect(decode(bytes(0xc0, 0x80))).toBe("\ufffd\ufffd");
    expect(decode(bytes(0xed, 0xa0, 0x80))).toBe("\ufffd\ufffd\ufffd");
    expect(decode(bytes(0xe2, 0x82))).toBe("\ufffd");
    expect(decode(bytes(0xe2, 0x82, 0x41))).toBe("\ufffdA");
    expect(decode(bytes(0xf4, 0x90, 0x80, 0x80))).toBe("\ufffd\ufffd\ufffd\ufffd");
  });

  it("matches the platform's decoder on any bytes", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.integer({ min: 0, max: 255 }),
            fc.constantFrom(0x80, 0xbf, 0xc2, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5),
          ),
          { maxLength: 64 },
        ),
        (values) => {
          const input = new Uint8Array(values);
          expect(decode(input)).toBe(platform.decode(input));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("reads a large document across its chunk boundaries", () => {
    const text = "😀é".repeat(20_000);
    expect(decode(utf8(text))).toBe(text);
  });
});

describe("decodeText", () => {
  it("gives clean text: no NUL, no byte order mark, invalid bytes as U+FFFD", () => {
    expect(decodeText(bytes(0xef, 0xbb, 0xbf, 0x48, 0x00, 0x69, 0xff, 0x21))).toBe("Hi\ufffd!");
    expect(decodeText(utf8("a\uffffb\u0001c"))).toBe("abc");
  });
});

describe("truncateText", () => {
  it("cuts at the limit without splitting a surrogate pair", () => {
    expect(truncateText("abcdef", 3)).toBe("abc");
    expect(truncateText("ab😀", 3)).toBe("ab");
    expect(truncateText("ab😀", 4)).toBe("ab😀");
    expect(truncateText("short", 100)).toBe("short");
  });
});

describe("cleanTextDeep", () => {
  it("cleans strings and keys at any depth, and returns unchanged parts as they were", () => {
    const untouched = { keep: ["fine", 1, true, null] };
    const input = { "na\u0000me": "a\u0000b", list: ["x\uffff", { y: "\ud800z" }], untouched, n: 2 };
    const output = cleanTextDeep(input);
    expect(output).toEqual({
      name: "ab",
      list: ["x", { y: "z" }],
      untouched: { keep: ["fine", 1, true, null] },
      n: 2,
    });
    expect(output.untouched).toBe(untouched);
    expect(input["na\u0000me"]).toBe("a\u0000b");
    const clean = { a: ["b", { c: "d" }] };
    expect(cleanTextDeep(clean)).toBe(clean);
  });

  it("keeps a __proto__ key a key, and leaves what is not plain data alone", () => {
    const input = JSON.parse('{"__proto__":{"x":"a\\u0000"},"d":"\\u0001"}') as Record<string, unknown>;
    const output = cleanTextDeep(input) as Record<string, unknown>;
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(output, "__proto__")?.value).toEqual({ x: "a" });
    // A dictionary a parser made (a class whose prototype has none, as fast-querystring's).
    const Dictionary = function (this: Record<string, unknown>) {} as unknown as new () => Record<
      string,
      unknown
    >;
    Dictionary.prototype = Object.create(null);
    const query = new Dictionary();
    query.state = "queued\u0001";
    expect({ ...(cleanTextDeep(query) as Record<string, unknown>) }).toEqual({ state: "queued" });
    const date = new Date(0);
    expect(cleanTextDeep({ date }).date).toBe(date);
  });

  it("stops at the depth it is given instead of exhausting the stack", () => {
    let deep: unknown = "a\u0000";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(mapTextDeep(deep, cleanText, 50)).toBe(deep);
  });
});

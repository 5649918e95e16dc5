import { describe, expect, it } from "vitest";
import {
  findInputProblem,
  idSchema,
  KEY_NUL_MESSAGE,
  MAX_NESTING,
  NESTING_MESSAGE,
  TEXT_NUL_MESSAGE,
  TEXT_SURROGATE_MESSAGE,
  textProblem,
  timeMsSchema,
} from "./fields.ts";

describe("idSchema", () => {
  it("takes 1 to 2^31 - 1, as numbers or digits", () => {
    expect(idSchema.parse("1")).toBe(1);
    expect(idSchema.parse(2147483647)).toBe(2147483647);
    for (const bad of [0, -1, 2147483648, "99999999999999999999", 1.5, "abc", ""]) {
      expect(idSchema.safeParse(bad).success, String(bad)).toBe(false);
    }
  });
});

describe("timeMsSchema", () => {
  it("takes times from the year 1 to the year 9999", () => {
    expect(timeMsSchema.parse(Date.parse("9999-12-31T23:59:59.999Z"))).toBe(253402300799999);
    expect(timeMsSchema.safeParse(Date.parse("0001-01-01T00:00:00Z") - 1).success).toBe(false);
    expect(timeMsSchema.safeParse(8.64e15).success).toBe(false);
  });
});

describe("textProblem", () => {
  it("accepts text with surrogate pairs (emoji) and refuses NUL and lone surrogates", () => {
    expect(textProblem("naïve 🙂 ok")).toBeNull();
    expect(textProblem("a\u0000b")).toBe(TEXT_NUL_MESSAGE);
    for (const lone of ["\ud800", "a\ud800", "\udc00a", "\udc00\ud800", "🙂\ud83d"]) {
      expect(textProblem(lone), JSON.stringify(lone)).toBe(TEXT_SURROGATE_MESSAGE);
    }
  });
});

describe("findInputProblem", () => {
  it("names the path of a bad value, and the object of a bad key", () => {
    expect(findInputProblem({ a: [1, { b: "x\u0000" }] })).toEqual({
      path: ["a", 1, "b"],
      message: TEXT_NUL_MESSAGE,
    });
    expect(findInputProblem({ a: { "k\u0000": 1 } })).toEqual({ path: ["a"], message: KEY_NUL_MESSAGE });
    expect(findInputProblem({ a: ["fine", 1, null, true], b: { c: "🙂" } })).toBeNull();
  });

  it("refuses nesting deeper than MAX_NESTING without recursing (no stack overflow)", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const problem = findInputProblem({ x: deep });
    expect(problem?.message).toBe(NESTING_MESSAGE);
    expect(problem?.path).toHaveLength(MAX_NESTING);
    let fine: unknown = "leaf";
    for (let i = 0; i < MAX_NESTING - 1; i++) fine = [fine];
    expect(findInputProblem(fine)).toBeNull();
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isNumericString } from "./numeric.ts";

describe("isNumericString", () => {
  it.each(["0", "42", "-7", "+3", "3.14", ".5", "5.", "1e3", "-2.5E-3", " 12 "])("%j is numeric", (value) => {
    expect(isNumericString(value)).toBe(true);
  });

  it.each(["", " ", "abc", "12abc", "1,000", "NaN", "Infinity", "0x10", "1e", "--1", "1.2.3"])(
    "%j is not",
    (value) => {
      expect(isNumericString(value)).toBe(false);
    },
  );

  it.each([42, null, undefined, {}, []])("non-string %j is not", (value) => {
    expect(isNumericString(value)).toBe(false);
  });

  it("accepts the text of every finite double", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => isNumericString(String(n))),
    );
  });
});

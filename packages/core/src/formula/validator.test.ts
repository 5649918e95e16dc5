import { describe, expect, it } from "vitest";
import { FORMULA_ALLOWED_NAMES, FORMULA_LOG_FIELDS, validateFormula } from "./validator.ts";

const invalid = (errors: string[]) => ({ valid: false, errors });
const VALID = { valid: true, errors: [] };

describe("validateFormula", () => {
  it("accepts formulas over the log fields, functions and operator words", () => {
    for (const text of [
      "1",
      "duration * 0.0166667",
      "direction = 'inbound'",
      "SUM(duration) / COUNT()",
      "transfer = 1 and not (cnam like 'spam%') or toNumber regex '[+]1.*5'",
      "timestamp_diff(timestamp, now()) > 3600",
      "if(duration between 10 and 60, 1, 0)",
      "callId is not null && uuid in ['a', 'b'] || !agentId",
      "d_count(roomId) + med([1, 2]) + variance([1]) + std_dev([1]) + abs(-1) + min(1, 2) + max(1, 2) + avg([1])",
      "TRUE = False",
      "accountId >= 1e3",
    ]) {
      expect(validateFormula(text), text).toEqual(VALID);
    }
  });

  it("Formula cannot be empty. (empty, blank, or a lone leading =)", () => {
    for (const text of ["", "   ", "\n\t", "=", "  =  "]) {
      expect(validateFormula(text), JSON.stringify(text)).toEqual(invalid(["Formula cannot be empty."]));
    }
  });

  it("Invalid characters: lists each offending character once, in order", () => {
    expect(validateFormula("duration @ 2")).toEqual(invalid(["Invalid characters: @"]));
    expect(validateFormula("duration $ 2 # 3 $ ^")).toEqual(invalid(["Invalid characters: $, #, ^"]));
    expect(validateFormula("{a: 1}")).toEqual(invalid(["Invalid characters: {, :, }", "Unknown field: a"]));
    expect(validateFormula("cnam like 'é'")).toEqual(invalid(["Invalid characters: é"]));
    // The spec's alphabet applies to the whole text, quoted strings included.
    expect(validateFormula("cnam regex '^A$'")).toEqual(invalid(["Invalid characters: ^, $"]));
  });

  it("accepts every character of the alphabet", () => {
    expect(
      validateFormula("duration+1-2*3/4%5 < 6 <= 7 > 8 >= 9 = 10 != 11 & & | | ! [1, 2] . ( ) 'x' \"y\" _a1")
        .errors,
    ).not.toContainEqual(expect.stringMatching(/^Invalid characters/));
  });

  it("Mismatched parentheses.", () => {
    expect(validateFormula("(duration + 1")).toEqual(invalid(["Mismatched parentheses."]));
    expect(validateFormula("duration + 1)")).toEqual(invalid(["Mismatched parentheses."]));
    expect(validateFormula(")duration(")).toEqual(invalid(["Mismatched parentheses."]));
    expect(validateFormula("abs((duration)")).toEqual(invalid(["Mismatched parentheses."]));
  });

  it("ignores parentheses inside quoted strings", () => {
    expect(validateFormula("cnam like '(%'")).toEqual(VALID);
    expect(validateFormula('cnam = ")"')).toEqual(VALID);
  });

  it("Unknown field: X for each unknown identifier, as written, once", () => {
    expect(validateFormula("foo + 1")).toEqual(invalid(["Unknown field: foo"]));
    expect(validateFormula("Foo + bar * FOO")).toEqual(invalid(["Unknown field: Foo", "Unknown field: bar"]));
    expect(validateFormula("sum(appointmentBooked)")).toEqual(invalid(["Unknown field: appointmentBooked"]));
  });

  it("matches fields and names case-insensitively", () => {
    expect(validateFormula("DURATION + Sum(Duration) > 0 AND NOT TRUE")).toEqual(VALID);
    expect(validateFormula("x is NULL")).toEqual(invalid(["Unknown field: x"]));
  });

  it("ignores quoted strings, numbers with exponents and property names when looking for fields", () => {
    expect(validateFormula("direction = 'foo bar'")).toEqual(VALID);
    expect(validateFormula('direction = "it""s"')).toEqual(VALID);
    expect(validateFormula("duration > 1e5")).toEqual(VALID);
    expect(validateFormula("duration.whatever > 1")).toEqual(VALID);
  });

  it("ignores a leading =", () => {
    expect(validateFormula("=duration * 2")).toEqual(VALID);
    expect(validateFormula("  = foo")).toEqual(invalid(["Unknown field: foo"]));
  });

  it("takes the known fields as a parameter (dynamic fields), case-insensitively", () => {
    expect(validateFormula("appointmentBooked = true", [...FORMULA_LOG_FIELDS, "appointmentBooked"])).toEqual(
      VALID,
    );
    expect(validateFormula("APPOINTMENTBOOKED", ["appointmentBooked"])).toEqual(VALID);
    expect(validateFormula("duration", ["appointmentBooked"])).toEqual(invalid(["Unknown field: duration"]));
  });

  it("reports every failing check together", () => {
    expect(validateFormula("(foo @ 1")).toEqual(
      invalid(["Invalid characters: @", "Mismatched parentheses.", "Unknown field: foo"]),
    );
  });

  it("adds the parse or compile error once the character, parenthesis and field checks pass", () => {
    expect(validateFormula("duration +")).toEqual(invalid(["Unexpected token"]));
    expect(validateFormula("duration duration")).toEqual(invalid(["Extra tokens after valid expression"]));
    expect(validateFormula("duration in 1")).toEqual(invalid(["IN expects array like [x,y]"]));
    expect(validateFormula("duration is 1")).toEqual(invalid(["IS expects 'NULL'"]));
    expect(validateFormula("[duration")).toEqual(invalid(["Unexpected token: eof EOF, expected ]"]));
    expect(validateFormula("duration(1)")).toEqual(invalid(["Unknown function"]));
    expect(validateFormula("'open")).toEqual(invalid(["Unknown token"]));
    expect(validateFormula("a & b", ["a", "b"])).toEqual(invalid(["Unknown token"]));
  });

  it("lists the spec's allowed names plus true, false and is", () => {
    expect([...FORMULA_ALLOWED_NAMES].sort()).toEqual(
      [
        "abs",
        "if",
        "sum",
        "avg",
        "min",
        "max",
        "count",
        "d_count",
        "med",
        "variance",
        "std_dev",
        "now",
        "timestamp_diff",
        "and",
        "or",
        "not",
        "between",
        "in",
        "like",
        "regex",
        "null",
        "true",
        "false",
        "is",
      ].sort(),
    );
  });
});

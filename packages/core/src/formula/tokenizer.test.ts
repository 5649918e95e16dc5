import { describe, expect, it } from "vitest";
import { FormulaError } from "./errors.ts";
import { tokenizeFormula } from "./tokenizer.ts";

const pairs = (text: string) => tokenizeFormula(text).map((t) => [t.type, t.value]);

describe("tokenizeFormula", () => {
  it("splits identifiers, numbers, strings, operators and punctuation, ending with eof", () => {
    expect(pairs("sum(duration) >= 1.5e3 and cnam like 'A%'")).toEqual([
      ["identifier", "sum"],
      ["punctuation", "("],
      ["identifier", "duration"],
      ["punctuation", ")"],
      ["operator", ">="],
      ["number", "1.5e3"],
      ["identifier", "and"],
      ["identifier", "cnam"],
      ["identifier", "like"],
      ["string", "A%"],
      ["eof", "EOF"],
    ]);
  });

  it("reads every two-character operator as one token", () => {
    expect(pairs("<= >= <> != == && ||").map(([, v]) => v)).toEqual([
      "<=",
      ">=",
      "<>",
      "!=",
      "==",
      "&&",
      "||",
      "EOF",
    ]);
  });

  it("reads single-character operators and punctuation", () => {
    expect(pairs("<>=!+-*/%()[]{},:.").map(([, v]) => v)).toEqual([
      "<>",
      "=",
      "!",
      "+",
      "-",
      "*",
      "/",
      "%",
      "(",
      ")",
      "[",
      "]",
      "{",
      "}",
      ",",
      ":",
      ".",
      "EOF",
    ]);
  });

  it("reads numbers with fraction and signed exponent, but not a dot without digits", () => {
    expect(pairs("12 3.25 1e-7 2E+4 1.x 5e")).toEqual([
      ["number", "12"],
      ["number", "3.25"],
      ["number", "1e-7"],
      ["number", "2E+4"],
      ["number", "1"],
      ["punctuation", "."],
      ["identifier", "x"],
      ["number", "5"],
      ["identifier", "e"],
      ["eof", "EOF"],
    ]);
  });

  it("reads both quote styles; a doubled quote stands for itself; backslashes are literal", () => {
    expect(pairs(`'it''s' "say ""hi""" '\\d+'`)).toEqual([
      ["string", "it's"],
      ["string", 'say "hi"'],
      ["string", "\\d+"],
      ["eof", "EOF"],
    ]);
  });

  it("records token positions", () => {
    expect(tokenizeFormula("a + 10").map((t) => t.position)).toEqual([0, 2, 4, 6]);
  });

  it.each([
    ["@", "@", 0],
    ["a # b", "#", 2],
    ["'open", "'", 0],
    ["a & b", "&", 2],
    ["a | b", "|", 2],
    ["x ; y", ";", 2],
  ])("throws Unknown token on %j", (text, detail, position) => {
    let caught: unknown;
    try {
      tokenizeFormula(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(FormulaError);
    const error = caught as FormulaError;
    expect(error.message).toBe("Unknown token");
    expect(error.kind).toBe("syntax");
    expect(error.detail).toBe(detail);
    expect(error.position).toBe(position);
  });
});

import { describe, expect, it } from "vitest";
import { FormulaError } from "./errors.ts";
import { FORMULA_MAX_DEPTH, FORMULA_MAX_NESTING, formulaDepth, parseFormula } from "./parser.ts";
import type { FormulaNode } from "./types.ts";

const num = (value: number): FormulaNode => ({ type: "number", value });
const v = (name: string): FormulaNode => ({ type: "var", name });
const bin = (operator: string, left: FormulaNode, right: FormulaNode) =>
  ({ type: "binary", operator, left, right }) as FormulaNode;

function parseError(text: string): FormulaError {
  try {
    parseFormula(text);
  } catch (error) {
    if (error instanceof FormulaError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(text)} to fail`);
}

describe("parseFormula: node kinds", () => {
  it("parses literals", () => {
    expect(parseFormula("42")).toEqual(num(42));
    expect(parseFormula("'x'")).toEqual({ type: "string", value: "x" });
    expect(parseFormula("TRUE")).toEqual({ type: "boolean", value: true });
    expect(parseFormula("false")).toEqual({ type: "boolean", value: false });
    expect(parseFormula("Null")).toEqual({ type: "null" });
  });

  it("parses variables, property access and calls (names kept as written)", () => {
    expect(parseFormula("Duration")).toEqual(v("Duration"));
    expect(parseFormula("data.booked.at")).toEqual({
      type: "property_access",
      object: { type: "property_access", object: v("data"), property: "booked" },
      property: "at",
    });
    expect(parseFormula("SUM(duration, 1)")).toEqual({
      type: "function_call",
      name: "SUM",
      args: [v("duration"), num(1)],
    });
    expect(parseFormula("now()")).toEqual({ type: "function_call", name: "now", args: [] });
    expect(parseFormula("sum")).toEqual(v("sum"));
  });

  it("parses arrays and objects", () => {
    expect(parseFormula("[1, 'a', []]")).toEqual({
      type: "array",
      elements: [num(1), { type: "string", value: "a" }, { type: "array", elements: [] }],
    });
    expect(parseFormula("{a: 1, 'b c': x, in: 2}")).toEqual({
      type: "object",
      properties: [
        { key: "a", value: num(1) },
        { key: "b c", value: v("x") },
        { key: "in", value: num(2) },
      ],
    });
    expect(parseFormula("{}")).toEqual({ type: "object", properties: [] });
  });

  it("parses in, between, is null, is not null", () => {
    expect(parseFormula("x in [1, 2]")).toEqual({ type: "in", value: v("x"), list: [num(1), num(2)] });
    expect(parseFormula("x between 1 and 2")).toEqual({
      type: "between",
      value: v("x"),
      low: num(1),
      high: num(2),
    });
    expect(parseFormula("x IS NULL")).toEqual({ type: "isnull", value: v("x"), negated: false });
    expect(parseFormula("x is not null")).toEqual({ type: "isnull", value: v("x"), negated: true });
  });

  it("reads `not like`, `not regex`, `not in`, `not between` as not of the predicate", () => {
    expect(parseFormula("x not like 'a%'")).toEqual({
      type: "unary",
      operator: "not",
      operand: bin("like", v("x"), { type: "string", value: "a%" }),
    });
    expect(parseFormula("x NOT IN [1]")).toEqual({
      type: "unary",
      operator: "not",
      operand: { type: "in", value: v("x"), list: [num(1)] },
    });
    expect(parseFormula("x not between 1 and 2")).toEqual(parseFormula("not x between 1 and 2"));
    expect(parseFormula("x not regex 'a'")).toEqual(parseFormula("not (x regex 'a')"));
  });

  it("normalises operator aliases and keyword case", () => {
    expect(parseFormula("a == b")).toEqual(bin("=", v("a"), v("b")));
    expect(parseFormula("a <> b")).toEqual(bin("!=", v("a"), v("b")));
    expect(parseFormula("a && b")).toEqual(bin("and", v("a"), v("b")));
    expect(parseFormula("a || b")).toEqual(bin("or", v("a"), v("b")));
    expect(parseFormula("a AND b Or c")).toEqual(bin("or", bin("and", v("a"), v("b")), v("c")));
    expect(parseFormula("a LIKE b")).toEqual(bin("like", v("a"), v("b")));
  });

  it("ignores one leading =", () => {
    expect(parseFormula("=duration * 2")).toEqual(bin("*", v("duration"), num(2)));
    expect(parseFormula("  = 1")).toEqual(num(1));
  });
});

describe("parseFormula: precedence and associativity", () => {
  it("* / % bind tighter than + -", () => {
    expect(parseFormula("1 + 2 * 3")).toEqual(bin("+", num(1), bin("*", num(2), num(3))));
    expect(parseFormula("1 - 2 % 3")).toEqual(bin("-", num(1), bin("%", num(2), num(3))));
  });

  it("binary operators of one level associate to the left", () => {
    expect(parseFormula("8 - 4 - 2")).toEqual(bin("-", bin("-", num(8), num(4)), num(2)));
    expect(parseFormula("8 / 4 * 2")).toEqual(bin("*", bin("/", num(8), num(4)), num(2)));
  });

  it("unary minus binds tighter than *", () => {
    expect(parseFormula("-a * b")).toEqual(
      bin("*", { type: "unary", operator: "-", operand: v("a") }, v("b")),
    );
    expect(parseFormula("!a * b")).toEqual(
      bin("*", { type: "unary", operator: "!", operand: v("a") }, v("b")),
    );
  });

  it("comparison binds looser than + and tighter than predicates", () => {
    expect(parseFormula("a + 1 > b")).toEqual(bin(">", bin("+", v("a"), num(1)), v("b")));
    expect(parseFormula("a = b like c")).toEqual(bin("like", bin("=", v("a"), v("b")), v("c")));
    expect(parseFormula("a < b in [1]")).toEqual({
      type: "in",
      value: bin("<", v("a"), v("b")),
      list: [num(1)],
    });
  });

  it("not binds looser than comparisons and predicates, tighter than and", () => {
    expect(parseFormula("not a = b")).toEqual({
      type: "unary",
      operator: "not",
      operand: bin("=", v("a"), v("b")),
    });
    expect(parseFormula("not a and b")).toEqual(
      bin("and", { type: "unary", operator: "not", operand: v("a") }, v("b")),
    );
    expect(parseFormula("not x is null")).toEqual({
      type: "unary",
      operator: "not",
      operand: { type: "isnull", value: v("x"), negated: false },
    });
  });

  it("and binds tighter than or", () => {
    expect(parseFormula("a or b and c")).toEqual(bin("or", v("a"), bin("and", v("b"), v("c"))));
  });

  it("between takes comparison-level bounds, so a following and is logical", () => {
    expect(parseFormula("x between 1 and 2 and y")).toEqual(
      bin("and", { type: "between", value: v("x"), low: num(1), high: num(2) }, v("y")),
    );
  });

  it("parentheses override precedence", () => {
    expect(parseFormula("(1 + 2) * 3")).toEqual(bin("*", bin("+", num(1), num(2)), num(3)));
  });
});

describe("parseFormula: errors", () => {
  it.each([
    ["", "Unexpected token"],
    ["1 +", "Unexpected token"],
    ["* 2", "Unexpected token"],
    [")", "Unexpected token"],
    ["and", "Unexpected token"],
    ["x in 1", "IN expects array like [x,y]"],
    ["x in (1, 2)", "IN expects array like [x,y]"],
    ["x is 1", "IS expects 'NULL'"],
    ["x is not 0", "IS expects 'NULL'"],
    ["1 2", "Extra tokens after valid expression"],
    ["(1))", "Extra tokens after valid expression"],
    ["a not b", "Extra tokens after valid expression"],
    ["a # 1", "Unknown token"],
    ["'unterminated", "Unknown token"],
    ["abs(1", "Unexpected token: eof EOF, expected )"],
    ["(1 + 2", "Unexpected token: eof EOF, expected )"],
    ["[1 2]", "Unexpected token: number 2, expected ]"],
    ["x between 1 or 2", "Unexpected token: identifier or, expected and"],
    ["a.1", "Unexpected token: number 1, expected identifier"],
    ["{1: 2}", "Unexpected token: number 1, expected property name"],
    ["{a 2}", "Unexpected token: number 2, expected :"],
    ["{a: 2 b}", "Unexpected token: identifier b, expected }"],
    ["sum(1 2)", "Unexpected token: number 2, expected )"],
  ])("%j throws %j", (text, message) => {
    const error = parseError(text);
    expect(error.message).toBe(message);
    expect(error.kind).toBe("syntax");
  });

  it("refuses nesting deeper than the limit with its own message, below it parses", () => {
    const ok = `${"(".repeat(FORMULA_MAX_NESTING - 1)}1${")".repeat(FORMULA_MAX_NESTING - 1)}`;
    expect(parseFormula(ok)).toEqual(num(1));
    const deep = `${"(".repeat(FORMULA_MAX_NESTING + 1)}1${")".repeat(FORMULA_MAX_NESTING + 1)}`;
    expect(parseError(deep).message).toBe("Formula is too deeply nested.");
    expect(parseError(`${"-".repeat(5000)}1`).message).toBe("Formula is too deeply nested.");
  });

  it("refuses trees deeper than the limit (long left-associative chains)", () => {
    expect(
      formulaDepth(
        parseFormula(
          Array(FORMULA_MAX_DEPTH - 1)
            .fill("1")
            .join("+"),
        ),
      ),
    ).toBe(FORMULA_MAX_DEPTH - 1);
    expect(
      parseError(
        Array(FORMULA_MAX_DEPTH + 1)
          .fill("1")
          .join("+"),
      ).message,
    ).toBe("Formula is too deeply nested.");
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { within } from "../../../../vitest.time-limits.ts";
import { compileFormula, compileFormulaAst } from "./compiler.ts";
import { FormulaError } from "./errors.ts";
import { FORMULA_FUNCTIONS } from "./functions.ts";
import { evaluateFormula, evaluateFormulaAst } from "./interpreter.ts";
import { FORMULA_KEYWORDS, parseFormula } from "./parser.ts";
import { printFormula } from "./printer.ts";
import { tokenizeFormula } from "./tokenizer.ts";
import type { FormulaBinaryOperator, FormulaContext, FormulaNode, FormulaRow } from "./types.ts";
import { validateFormula } from "./validator.ts";

const FIELDS = ["duration", "direction", "transfer", "cnam", "booked", "data", "tags", "Duration"];

const identifier = fc
  .stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,6}$/)
  .filter((name) => !FORMULA_KEYWORDS.includes(name.toLowerCase()));
const fieldName = fc.oneof(fc.constantFrom(...FIELDS), identifier);
const randomCase = (name: string) =>
  fc
    .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
    .map((upper) => [...name].map((char, i) => (upper[i] ? char.toUpperCase() : char)).join(""));

const BINARY: FormulaBinaryOperator[] = [
  "+",
  "-",
  "*",
  "/",
  "%",
  "<",
  "<=",
  ">",
  ">=",
  "=",
  "!=",
  "like",
  "regex",
  "and",
  "or",
];

/** Syntax trees of every node kind, shaped as the parser produces them. */
const { node: astArbitrary } = fc.letrec<{ node: FormulaNode }>((tie) => {
  const child = tie("node");
  const leaf = fc.oneof(
    fc
      .oneof(fc.nat(1000), fc.double({ min: 0, max: 1e300, noNaN: true, noDefaultInfinity: true }))
      .filter((value) => !Object.is(value, -0))
      .map((value): FormulaNode => ({ type: "number", value })),
    fc
      .oneof(fc.string(), fc.constantFrom("a%", "%", "_b", "it's", "1", "true", ""))
      .map((value): FormulaNode => ({ type: "string", value })),
    fc.boolean().map((value): FormulaNode => ({ type: "boolean", value })),
    fc.constant<FormulaNode>({ type: "null" }),
    fieldName.map((name): FormulaNode => ({ type: "var", name })),
  );
  return {
    node: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      leaf,
      fc
        .record({ operator: fc.constantFrom(...BINARY), left: child, right: child })
        .map((n): FormulaNode => ({ type: "binary", ...n })),
      fc
        .record({ operator: fc.constantFrom("-", "+", "!", "not" as const), operand: child })
        .map((n): FormulaNode => ({ type: "unary", ...n })),
      fc.array(child, { maxLength: 3 }).map((elements): FormulaNode => ({ type: "array", elements })),
      fc
        .array(fc.record({ key: fc.oneof(identifier, fc.string()), value: child }), { maxLength: 2 })
        .map((properties): FormulaNode => ({ type: "object", properties })),
      fc
        .record({ object: child, property: fc.oneof(identifier, fc.constantFrom("in", "TRUE", "null")) })
        .map((n): FormulaNode => ({ type: "property_access", ...n })),
      fc
        .record({
          name: fc.constantFrom(...FORMULA_FUNCTIONS).chain(randomCase),
          args: fc.array(child, { maxLength: 3 }),
        })
        .map((n): FormulaNode => ({ type: "function_call", ...n })),
      fc
        .record({ value: child, list: fc.array(child, { maxLength: 3 }) })
        .map((n): FormulaNode => ({ type: "in", ...n })),
      fc
        .record({ value: child, low: child, high: child })
        .map((n): FormulaNode => ({ type: "between", ...n })),
      fc.record({ value: child, negated: fc.boolean() }).map((n): FormulaNode => ({ type: "isnull", ...n })),
    ),
  };
});

const scalar = fc.oneof(
  fc.integer({ min: -5, max: 300 }),
  fc.double(),
  fc.constantFrom(
    "inbound",
    "outbound",
    "1",
    "0",
    "",
    "true",
    "FALSE",
    "12.5",
    "Jane Doe",
    "2023-11-14T22:13:30Z",
  ),
  fc.string({ maxLength: 5 }),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.date({ noInvalidDate: false }),
);
const fieldValue = fc.oneof(
  { weight: 5, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) },
  {
    weight: 1,
    arbitrary: fc.dictionary(fc.constantFrom("booked", "in", "x", "TRUE"), scalar, { maxKeys: 3 }),
  },
);
const rowArbitrary: fc.Arbitrary<FormulaRow> = fc.dictionary(
  fc.oneof(fc.constantFrom(...FIELDS, "DIRECTION", "toString"), identifier),
  fieldValue,
  { maxKeys: 6 },
);
const contextArbitrary: fc.Arbitrary<FormulaContext> = fc.record(
  { now: fc.constant(1_700_000_000_000), rows: fc.array(rowArbitrary, { maxLength: 4 }) },
  { requiredKeys: ["now"] },
);

describe("properties", () => {
  it("parse(print(ast)) deep-equals ast", () => {
    fc.assert(
      fc.property(astArbitrary, (ast) => {
        expect(parseFormula(printFormula(ast))).toEqual(ast);
      }),
      { numRuns: 400 },
    );
  });

  it("the compiled formula computes what the interpreter computes", () => {
    fc.assert(
      fc.property(astArbitrary, rowArbitrary, contextArbitrary, (ast, row, ctx) => {
        const expected = evaluateFormulaAst(ast, row, ctx);
        expect(compileFormulaAst(ast)(row, ctx)).toEqual(expected);
        expect(compileFormula(printFormula(ast))(row, ctx)).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });

  it("specialised shapes (field against a literal) agree with the interpreter", () => {
    const literal = fc.oneof(
      fc
        .integer({ min: -2, max: 3 })
        .map((value): FormulaNode => ({ type: "number", value: Math.abs(value) })),
      fc
        .constantFrom("1", "a", "A", "", "true", "%A_")
        .map((value): FormulaNode => ({ type: "string", value })),
      fc.boolean().map((value): FormulaNode => ({ type: "boolean", value })),
    );
    const small = fc.oneof(
      fc.integer({ min: 0, max: 3 }),
      fc.constantFrom("1", "a", "A", "", "true", "True", "2", "bA", null, undefined, true, false, Number.NaN),
    );
    const shape = fc.record({
      operator: fc.constantFrom<FormulaBinaryOperator>(
        "<",
        "<=",
        ">",
        ">=",
        "=",
        "!=",
        "+",
        "-",
        "*",
        "/",
        "%",
        "like",
        "regex",
      ),
      name: fc.constantFrom("x", "X", "toString"),
      right: literal,
    });
    fc.assert(
      fc.property(
        shape,
        fc.dictionary(fc.constantFrom("x", "X", "toString"), small),
        ({ operator, name, right }, row) => {
          const ast: FormulaNode = { type: "binary", operator, left: { type: "var", name }, right };
          const expected = evaluateFormulaAst(ast, row);
          expect(compileFormulaAst(ast)(row)).toEqual(expected);
          const inList: FormulaNode = { type: "in", value: { type: "var", name }, list: [right] };
          expect(compileFormulaAst(inList)(row)).toEqual(evaluateFormulaAst(inList, row));
        },
      ),
      { numRuns: 400 },
    );
  });

  const FRAGMENTS = [
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    ".",
    "'",
    '"',
    "+",
    "-",
    "*",
    "/",
    "%",
    "<",
    ">",
    "=",
    "!",
    "&",
    "|",
    " and ",
    " or ",
    " not ",
    " in ",
    " like ",
    " regex ",
    " between ",
    " is ",
    "null",
    "true",
    "1",
    "2.5",
    "1e3",
    "0",
    " ",
    "@",
    "\\",
    "duration",
    "cnam",
    "x",
    "sum",
    "if",
    "now",
    "abs",
    "count",
    "med",
    "timestamp_diff",
    "'a%'",
    "'('",
    "é",
  ];
  const formulaText = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ unit: "binary", maxLength: 40 }),
    fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 25 }).map((parts) => parts.join("")),
  );

  const onlyFormulaErrors = (fn: () => unknown) => {
    const started = Date.now();
    try {
      fn();
    } catch (error) {
      expect(error).toBeInstanceOf(FormulaError);
    }
    expect(Date.now() - started).toBeLessThan(within(1000));
  };

  it("for any text, tokenizer, parser, compiler and evaluators throw nothing but FormulaError, quickly", () => {
    fc.assert(
      fc.property(formulaText, rowArbitrary, contextArbitrary, (text, row, ctx) => {
        onlyFormulaErrors(() => tokenizeFormula(text));
        onlyFormulaErrors(() => parseFormula(text));
        onlyFormulaErrors(() => evaluateFormula(text, row, ctx));
        onlyFormulaErrors(() => compileFormula(text)(row, ctx));
      }),
      { numRuns: 600 },
    );
  });

  it("for any text, the validator never throws, and accepts only text that compiles", () => {
    fc.assert(
      fc.property(formulaText, (text) => {
        const result = validateFormula(text, ["duration", "cnam", "x"]);
        expect(result.valid).toBe(result.errors.length === 0);
        if (result.valid) expect(() => compileFormula(text.replace(/^\s*=(?!=)/, ""))).not.toThrow();
      }),
      { numRuns: 600 },
    );
  });

  it("printing what parses gives text that parses to the same tree", () => {
    fc.assert(
      fc.property(formulaText, (text) => {
        let ast: FormulaNode;
        try {
          ast = parseFormula(text);
        } catch {
          return;
        }
        expect(parseFormula(printFormula(ast))).toEqual(ast);
      }),
      { numRuns: 600 },
    );
  });
});

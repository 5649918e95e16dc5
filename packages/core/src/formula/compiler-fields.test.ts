import { afterEach, describe, expect, it, vi } from "vitest";
import { compileFormula, compileFormulaAst } from "./compiler.ts";
import { evaluateFormula, evaluateFormulaAst } from "./interpreter.ts";
import type { FormulaNode, FormulaRow } from "./types.ts";

// The compiler's own code for a field and for `field <op> constant` (a metric's usual formulas): every kind of stored
// value, a missing field, another spelling of the name, as a value and as a condition.
const ROWS: [string, FormulaRow][] = [
  ["missing", { other: 1 }],
  ["another spelling", { X: 1 }],
  ["another spelling, text", { X: "a" }],
  ["null", { x: null }],
  ["zero", { x: 0 }],
  ["one", { x: 1 }],
  ["NaN", { x: Number.NaN }],
  ["empty text", { x: "" }],
  ["numeric text", { x: "1" }],
  ["padded numeric text", { x: " 1 " }],
  ["'true'", { x: "true" }],
  ["'FALSE '", { x: "FALSE " }],
  ["other text", { x: "a" }],
  ["true", { x: true }],
  ["false", { x: false }],
  ["date", { x: new Date(1) }],
  ["bigint", { x: 1n }],
  ["array", { x: [1] }],
  ["object", { x: { y: 1 } }],
  ["undefined, another spelling set", { x: undefined, X: 1 }],
];

const FORMULAS = [
  "x",
  "x + 1",
  "x * 2 - x",
  "abs(x)",
  "x = 1",
  "x != 1",
  "x < 1",
  "x <= 0",
  "x > 0",
  "x >= 1",
  "x = 0",
  "x = true",
  "x != false",
  "x = 'a'",
  "x != 'a'",
  "x = ''",
  "if(x = 1, 5, 7)",
  "if(x != 'a', 5, 7)",
  "x > 0 and x < 2",
  "not (x = 'a')",
];

/** Each formula on each row, compiled and interpreted. */
function bothWays(compile: typeof compileFormula): [string, unknown, unknown][] {
  const out: [string, unknown, unknown][] = [];
  for (const text of FORMULAS) {
    const formula = compile(text);
    for (const [label, row] of ROWS)
      out.push([`${text} on ${label}`, formula(row), evaluateFormula(text, row)]);
  }
  return out;
}

describe("a field compared with a constant", () => {
  it("computes what the interpreter computes for every stored value", () => {
    for (const [label, compiled, interpreted] of bothWays(compileFormula)) {
      expect(compiled, label).toEqual(interpreted);
    }
  });

  it("gives what a metric shows on the edges", () => {
    const run = (text: string, row: FormulaRow) => compileFormula(text)(row);
    expect(run("taskCompleted = true", { duration: 5 })).toBe(0);
    expect(run("taskCompleted = 0", { duration: 5 })).toBe(1);
    expect(run("taskCompleted = true", { TASKCOMPLETED: "true" })).toBe(1);
    expect(run("transfer = 1", { transfer: "" })).toBe(0);
    expect(run("transfer = 0", { transfer: "" })).toBe(1);
    expect(run("transfer = 1", { transfer: " 1 " })).toBe(1);
    expect(run("transfer = 1", { transfer: null })).toBe(0);
    expect(run("transfer = 0", { transfer: null })).toBe(1);
    // Text that is not a number compares with no number: every comparison false, != true.
    expect(run("transfer = 0", { transfer: "yes" })).toBe(0);
    expect(run("transfer < 1", { transfer: "yes" })).toBe(0);
    expect(run("transfer != 1", { transfer: "yes" })).toBe(1);
    expect(run("duration > 0", { duration: Number.NaN })).toBe(0);
    expect(run("direction = 'inbound'", { Direction: "inbound" })).toBe(1);
    expect(run("direction = 'inbound'", { direction: "Inbound" })).toBe(0);
    expect(run("direction != 'inbound'", {})).toBe(1);
    // A missing field reads 0, and so does empty text.
    expect(run("direction = ''", {})).toBe(1);
    expect(run("direction = 0", {})).toBe(1);
  });

  it("never reads names inherited from Object.prototype", () => {
    const run = (text: string, row: FormulaRow) => compileFormula(text)(row);
    expect(run("constructor = 0", {})).toBe(1);
    expect(run("toString != 'x'", {})).toBe(1);
    expect(run("constructor = 1", { constructor: 1 })).toBe(1);
    expect(run("hasOwnProperty = 'x'", { hasOwnProperty: "x" })).toBe(1);
    for (const text of ["constructor = 1", "__proto__ != 1", "toString = 'x'", "valueOf > 0"]) {
      for (const row of [{}, { constructor: 2 }, Object.create(null) as FormulaRow]) {
        expect(compileFormula(text)(row), text).toEqual(evaluateFormula(text, row));
      }
    }
  });

  it("reads any field name a tree holds as that name, and runs nothing of it", () => {
    const names = ['a"b', "back\\slash", "line\u2028break", "x'); throw new Error('ran'); ('", `\`\${1}\``];
    for (const name of names) {
      const row: FormulaRow = { [name]: 1, [name.toUpperCase()]: 2 };
      for (const [operator, right] of [
        ["=", { type: "number", value: 1 }],
        ["!=", { type: "string", value: "1" }],
        [">=", { type: "number", value: 2 }],
      ] as const) {
        const ast: FormulaNode = { type: "binary", operator, left: { type: "var", name }, right };
        expect(compileFormulaAst(ast)(row), `${name} ${operator}`).toBe(evaluateFormulaAst(ast, row));
        expect(compileFormulaAst(ast)({}), `${name} ${operator} missing`).toBe(evaluateFormulaAst(ast, {}));
      }
    }
    expect(
      compileFormulaAst({
        type: "binary",
        operator: "=",
        left: { type: "var", name: 'a"b' },
        right: { type: "number", value: 1 },
      })({ 'a"b': 1 }),
    ).toBe(1);
  });
});

describe("where code cannot be generated (a browser's Content-Security-Policy)", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("compiles to the same values, and tries code generation only once", async () => {
    vi.resetModules();
    const fresh = await import("./compiler.ts");
    let attempts = 0;
    vi.stubGlobal("Function", function refuse() {
      attempts++;
      throw new EvalError("Code generation from strings disallowed for this context");
    });
    const results = bothWays(fresh.compileFormula);
    vi.unstubAllGlobals();
    expect(attempts).toBe(1);
    for (const [label, compiled, interpreted] of results) expect(compiled, label).toEqual(interpreted);
  });
});

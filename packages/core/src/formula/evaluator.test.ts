import { describe, expect, it } from "vitest";
import { within } from "../../../../vitest.time-limits.ts";
import { compileFormula, compileFormulaAst } from "./compiler.ts";
import { FormulaError } from "./errors.ts";
import { evaluateFormula, evaluateFormulaAst } from "./interpreter.ts";
import type { FormulaContext, FormulaNode, FormulaRow, FormulaValue } from "./types.ts";

type Run = (text: string, row?: FormulaRow, ctx?: FormulaContext) => FormulaValue;

const engines: [string, Run][] = [
  ["interpreter", (text, row = {}, ctx) => evaluateFormula(text, row, ctx)],
  ["compiler", (text, row = {}, ctx) => compileFormula(text)(row, ctx)],
];

const ROW: FormulaRow = {
  duration: 125,
  direction: "inbound",
  transfer: "1",
  appointmentBooked: true,
  missedCall: false,
  cnam: "Jane DOE",
  fromNumber: "+15551234567",
  amount: "12.5",
  empty: "",
  nothing: null,
  startedAt: 1_700_000_000_000,
  endedAt: "2023-11-14T22:13:30.000Z",
  tags: [1, 2, 3],
  data: { booked: true, meta: { source: "web" } },
};

describe.each(engines)("%s", (_name, run) => {
  describe("arithmetic and precedence", () => {
    it.each([
      ["1 + 2 * 3", 7],
      ["(1 + 2) * 3", 9],
      ["10 - 4 - 3", 3],
      ["2 * 3 % 4", 2],
      ["7 % 4 * 2", 6],
      ["8 / 4 / 2", 1],
      ["-2 * 3", -6],
      ["- -2", 2],
      ["+'4' + 1", 5],
      ["2 + 3 > 4", 1],
      ["1 + (2 > 1)", 2],
      ["1 < 2 = 1", 1],
      ["not 1 = 2", 1],
      ["not 0 and 0", 0],
      ["1 or 0 and 0", 1],
      ["(1 or 0) and 0", 0],
      ["!0 + 1", 2],
      ["1 - 1 in [0]", 1],
      ["0 between 1 and 2 = 0", 0],
      ["=3 * 2", 6],
    ])("%s = %s", (text, expected) => {
      expect(run(text)).toBe(expected);
    });

    it("division or modulo by zero gives 0", () => {
      expect(run("5 / 0")).toBe(0);
      expect(run("5 % 0")).toBe(0);
      expect(run("0 / 0")).toBe(0);
      expect(run("duration / nope", ROW)).toBe(0);
      expect(run("duration % (2 - 2)", ROW)).toBe(0);
      expect(run("duration / 5", ROW)).toBe(25);
    });

    it("a missing variable gives 0", () => {
      expect(run("missing", ROW)).toBe(0);
      expect(run("missing + 2", ROW)).toBe(2);
      expect(run("missing = 0", ROW)).toBe(1);
      expect(run("data.nope", ROW)).toBe(0);
      expect(run("missing.deeper", ROW)).toBe(0);
    });

    it("booleans become 1 or 0", () => {
      expect(run("true")).toBe(1);
      expect(run("false")).toBe(0);
      expect(run("true + true")).toBe(2);
      expect(run("appointmentBooked", ROW)).toBe(1);
      expect(run("missedCall", ROW)).toBe(0);
      expect(run("data.booked", ROW)).toBe(1);
      expect(run("appointmentBooked = true", ROW)).toBe(1);
    });

    it("reads numeric strings, true/false strings and empty strings as numbers", () => {
      expect(run("amount * 2", ROW)).toBe(25);
      expect(run("transfer + 1", ROW)).toBe(2);
      expect(run("'true' + 'FALSE'")).toBe(1);
      expect(run("empty + 1", ROW)).toBe(1);
      expect(run("cnam * 2", ROW)).toBe(0);
      expect(run("nothing + 1", ROW)).toBe(1);
    });

    it("reads field names case-insensitively, preferring the exact spelling", () => {
      expect(run("DURATION", ROW)).toBe(125);
      expect(run("Direction", ROW)).toBe("inbound");
      expect(run("a", { a: 1, A: 2 })).toBe(1);
      expect(run("A", { a: 1, A: 2 })).toBe(2);
      // A field compared with a number, read in the spelling the row has, or missing.
      expect(run("Duration > 100", ROW)).toBe(1);
      expect(run("taskCompleted = true", { TaskCompleted: "true" })).toBe(1);
      expect(run("taskCompleted = true", { TaskCompleted: false })).toBe(0);
      expect(run("taskCompleted = true", { duration: 5 })).toBe(0);
      expect(run("taskCompleted != 1", { duration: 5 })).toBe(1);
      expect(run("x >= 1", { x: "1" })).toBe(1);
    });

    it("never reads names inherited from Object.prototype", () => {
      expect(run("constructor")).toBe(0);
      expect(run("toString + 1")).toBe(1);
      expect(run("__proto__ is null")).toBe(1);
      expect(run("constructor", { constructor: 5 })).toBe(5);
      expect(run("data.hasOwnProperty", ROW)).toBe(0);
    });

    it("returns strings, arrays and objects as they are", () => {
      expect(run("direction", ROW)).toBe("inbound");
      expect(run("[1, 'a', true]")).toEqual([1, "a", 1]);
      expect(run("{a: 1, b: [2]}")).toEqual({ a: 1, b: [2] });
      expect(run("{a: {b: 7}}.a.b")).toBe(7);
      expect(run("data.meta.source", ROW)).toBe("web");
      expect(run("tags", ROW)).toEqual([1, 2, 3]);
      expect(run("null")).toBeNull();
      expect(run("nothing", ROW)).toBeNull();
    });
  });

  describe("comparisons", () => {
    it("give 1 or 0", () => {
      expect(run("duration > 100", ROW)).toBe(1);
      expect(run("duration < 100", ROW)).toBe(0);
      expect(run("duration >= 125", ROW)).toBe(1);
      expect(run("duration <= 124", ROW)).toBe(0);
      expect(run("duration = 125", ROW)).toBe(1);
      expect(run("duration == 125", ROW)).toBe(1);
      expect(run("duration != 125", ROW)).toBe(0);
      expect(run("duration <> 1", ROW)).toBe(1);
    });

    it.each([
      ["<", [1, 0, 0]],
      ["<=", [1, 1, 0]],
      [">", [0, 0, 1]],
      [">=", [0, 1, 1]],
      ["=", [0, 1, 0]],
      ["!=", [1, 0, 1]],
    ])("%s against 125 below, at and above the boundary", (operator, expected) => {
      for (const [i, k] of [126, 125, 124].entries()) {
        expect(run(`duration ${operator} ${k}`, ROW)).toBe(expected[i]);
        expect(run(`duration ${operator} ${k}`, { duration: String(125) })).toBe(expected[i]);
        expect(run(`(duration + 0) ${operator} ${k}`, ROW)).toBe(expected[i]);
      }
    });

    it("compare two strings as strings (case-sensitive, code-unit order)", () => {
      expect(run("'abc' < 'abd'")).toBe(1);
      expect(run("'10' < '9'")).toBe(1);
      expect(run("'B' < 'a'")).toBe(1);
      expect(run("direction = 'inbound'", ROW)).toBe(1);
      expect(run("direction = 'Inbound'", ROW)).toBe(0);
      expect(run("direction = 'inbound'", { direction: "INBOUND" })).toBe(0);
      expect(run("direction != 'inbound'", { direction: "INBOUND" })).toBe(1);
      expect(run("direction != 'outbound'", ROW)).toBe(1);
      expect(run("direction > 'a'", ROW)).toBe(1);
    });

    it("compare a string with a number as numbers; a non-numeric string is not comparable", () => {
      expect(run("'10' > 9")).toBe(1);
      expect(run("transfer = 1", ROW)).toBe(1);
      expect(run("amount = 12.5", ROW)).toBe(1);
      expect(run("cnam = 0", ROW)).toBe(0);
      expect(run("cnam > 0", ROW)).toBe(0);
      expect(run("cnam < 0", ROW)).toBe(0);
      expect(run("cnam != 0", ROW)).toBe(1);
      expect(run("empty = 0", ROW)).toBe(1);
      expect(run("nothing = null", ROW)).toBe(1);
    });
  });

  describe("logic", () => {
    it("and, or, not, &&, ||, ! give 1 or 0", () => {
      expect(run("2 and 3")).toBe(1);
      expect(run("2 && 0")).toBe(0);
      expect(run("0 or 'x'")).toBe(1);
      expect(run("0 || ''")).toBe(0);
      expect(run("not 5")).toBe(0);
      expect(run("!''")).toBe(1);
      expect(run("!'false'")).toBe(1);
      expect(run("!'0'")).toBe(1);
      expect(run("!'no'")).toBe(0);
      expect(run("not []")).toBe(1);
      expect(run("not [0]")).toBe(0);
      expect(run("not {}")).toBe(0);
      expect(run("not null")).toBe(1);
    });
  });

  describe("predicates", () => {
    it("like: % and _ wildcards, case-insensitive, whole value", () => {
      expect(run("cnam like 'jane%'", ROW)).toBe(1);
      expect(run("cnam like '%doe'", ROW)).toBe(1);
      expect(run("cnam like 'J_NE DOE'", ROW)).toBe(1);
      expect(run("cnam like 'jane'", ROW)).toBe(0);
      expect(run("cnam like '%x%'", ROW)).toBe(0);
      expect(run("cnam like '_'", ROW)).toBe(0);
      expect(run("'' like '%'")).toBe(1);
      expect(run("'abc' like 'a%%c'")).toBe(1);
      expect(run("'a.c' like 'a.c'")).toBe(1);
      expect(run("'abc' like 'a.c'")).toBe(0);
      expect(run("duration like '12%'", ROW)).toBe(1);
      expect(run("cnam not like 'x%'", ROW)).toBe(1);
      expect(run("cnam like direction", { cnam: "InBound", direction: "inbound" })).toBe(1);
    });

    it("like is linear on hostile patterns", () => {
      const text = "a".repeat(5000);
      const pattern = `${"%a".repeat(50)}b`;
      const started = Date.now();
      expect(run(`x like '${pattern}'`, { x: text })).toBe(0);
      expect(Date.now() - started).toBeLessThan(within(2000));
    });

    it("regex: a case-sensitive search; an invalid pattern matches nothing", () => {
      expect(run("fromNumber regex '^[+]1555'", ROW)).toBe(1);
      expect(run("cnam regex 'DOE$'", ROW)).toBe(1);
      expect(run("cnam regex 'doe'", ROW)).toBe(0);
      expect(run("cnam regex 'e D'", ROW)).toBe(1);
      expect(run("cnam regex '('", ROW)).toBe(0);
      expect(run("cnam not regex 'x'", ROW)).toBe(1);
      expect(run("'a1' regex p", { p: "\\d" })).toBe(1);
    });

    it("in: equality with any list element", () => {
      expect(run("direction in ['outbound', 'inbound']", ROW)).toBe(1);
      expect(run("direction in ['outbound']", ROW)).toBe(0);
      expect(run("duration in [1, 125]", ROW)).toBe(1);
      expect(run("transfer in [1]", ROW)).toBe(1);
      expect(run("duration in [direction, 125]", ROW)).toBe(1);
      expect(run("duration in []", ROW)).toBe(0);
      expect(run("direction not in ['inbound']", ROW)).toBe(0);
    });

    it("between: inclusive on both ends, strings compared as strings", () => {
      expect(run("duration between 125 and 200", ROW)).toBe(1);
      expect(run("duration between 1 and 125", ROW)).toBe(1);
      expect(run("duration between 126 and 200", ROW)).toBe(0);
      expect(run("duration between 200 and 1", ROW)).toBe(0);
      expect(run("'b' between 'a' and 'c'")).toBe(1);
      expect(run("duration not between 1 and 2", ROW)).toBe(1);
    });

    it("is null / is not null test the stored value: null or missing", () => {
      expect(run("nothing is null", ROW)).toBe(1);
      expect(run("missing is null", ROW)).toBe(1);
      expect(run("data.nope is null", ROW)).toBe(1);
      expect(run("duration is null", ROW)).toBe(0);
      expect(run("empty is null", ROW)).toBe(0);
      expect(run("missedCall is null", ROW)).toBe(0);
      expect(run("missing is not null", ROW)).toBe(0);
      expect(run("duration is not null", ROW)).toBe(1);
      expect(run("null is null")).toBe(1);
      expect(run("0 is null")).toBe(0);
      expect(run("if(1, null) is null")).toBe(1);
    });
  });

  describe("functions", () => {
    it("are case-insensitive", () => {
      expect(run("ABS(-3)")).toBe(3);
      expect(run("Sum([1, 2])")).toBe(3);
      expect(run("D_Count([1, 1])")).toBe(1);
    });

    it("ABS", () => {
      expect(run("abs(-2.5)")).toBe(2.5);
      expect(run("abs(4)")).toBe(4);
      expect(run("abs('-7')")).toBe(7);
      expect(run("abs()")).toBe(0);
    });

    it("IF: second argument when the first is truthy, else the third, else 0", () => {
      expect(run("if(duration > 100, 'long', 'short')", ROW)).toBe("long");
      expect(run("if(duration > 200, 'long', 'short')", ROW)).toBe("short");
      expect(run("if(0, 1)")).toBe(0);
      expect(run("if(1)")).toBe(0);
      expect(run("if(1, 5)")).toBe(5);
      expect(run("IF('no', 1, 2)")).toBe(1);
      expect(run("if('', 1, 2)")).toBe(2);
    });

    it("IF evaluates only the branch it returns", () => {
      const ctx = { rows: [{ x: 1 }, { x: 2 }] };
      expect(run("if(1, 7, sum(x))", {}, ctx)).toBe(7);
      expect(run("if(0, sum(x), 8)", {}, ctx)).toBe(8);
    });

    it("NOW reads the context clock (ms epoch)", () => {
      expect(run("now()", {}, { now: 1_700_000_000_123 })).toBe(1_700_000_000_123);
      expect(run("NOW() - startedAt", ROW, { now: 1_700_000_005_000 })).toBe(5000);
    });

    it("NOW without a clock in the context reads the system clock", () => {
      const before = Date.now();
      const value = run("now()") as number;
      expect(value).toBeGreaterThanOrEqual(before);
      expect(value).toBeLessThanOrEqual(Date.now());
    });

    it("TIMESTAMP_DIFF: seconds from the first ms value to the second", () => {
      expect(run("timestamp_diff(1000, 61000)")).toBe(60);
      expect(run("timestamp_diff(61000, 1000)")).toBe(-60);
      expect(run("timestamp_diff(0, 1500)")).toBe(1.5);
      expect(run("timestamp_diff(startedAt, now())", ROW, { now: 1_700_000_090_000 })).toBe(90);
      expect(run("timestamp_diff(startedAt, endedAt)", ROW)).toBe(10);
      expect(run("timestamp_diff('1000', '3000')")).toBe(2);
    });

    it("aggregates over an array literal", () => {
      expect(run("sum([1, 2, 3.5])")).toBe(6.5);
      expect(run("avg([1, 2, 6])")).toBe(3);
      expect(run("min([4, -1, 9])")).toBe(-1);
      expect(run("max([4, -1, 9])")).toBe(9);
      expect(run("count([4, null, 'a'])")).toBe(2);
      expect(run("d_count([1, 1, '1', 2, null])")).toBe(3);
      expect(run("d_count([[1], [1], [2], {a: 1}, {a: 1}])")).toBe(3);
      expect(run("med([5, 1, 3])")).toBe(3);
      expect(run("med([4, 1, 3, 10])")).toBe(3.5);
      expect(run("variance([2, 4, 4, 4, 5, 5, 7, 9])")).toBe(4);
      expect(run("std_dev([2, 4, 4, 4, 5, 5, 7, 9])")).toBe(2);
      expect(run("variance([1, 2])")).toBe(0.25);
    });

    it("aggregates over an empty set give 0", () => {
      for (const name of ["sum", "avg", "min", "max", "count", "d_count", "med", "variance", "std_dev"]) {
        expect(run(`${name}([])`)).toBe(0);
        expect(run(`${name}()`)).toBe(0);
        expect(run(`${name}(x)`, {}, { rows: [] })).toBe(0);
      }
    });

    it("aggregates over several arguments on the current row, arrays flattened", () => {
      expect(run("max(duration, 200)", ROW)).toBe(200);
      expect(run("min(duration, 200)", ROW)).toBe(125);
      expect(run("sum(tags, 10)", ROW)).toBe(16);
      expect(run("sum(tags)", ROW)).toBe(6);
      expect(run("sum(duration)", ROW)).toBe(125);
    });

    const rows: FormulaRow[] = [
      { duration: 10, direction: "inbound", agent: "a" },
      { duration: 20, direction: "outbound", agent: "b" },
      { duration: 60, direction: "inbound", agent: "a" },
      { duration: null, direction: "inbound", agent: "c" },
    ];

    it("aggregates over the row set of the context", () => {
      const ctx = { rows };
      expect(run("sum(duration)", {}, ctx)).toBe(90);
      expect(run("avg(duration)", {}, ctx)).toBe(30);
      expect(run("min(duration)", {}, ctx)).toBe(10);
      expect(run("max(duration)", {}, ctx)).toBe(60);
      expect(run("count(duration)", {}, ctx)).toBe(3);
      expect(run("count()", {}, ctx)).toBe(4);
      expect(run("d_count(agent)", {}, ctx)).toBe(3);
      expect(run("d_count({})", {}, ctx)).toBe(1);
      expect(run("med(duration)", {}, ctx)).toBe(20);
      expect(run("variance(duration)", {}, ctx)).toBeCloseTo(466.6667, 3);
      expect(run("std_dev(duration)", {}, ctx)).toBeCloseTo(Math.sqrt(1400 / 3), 9);
      expect(run("sum(direction = 'inbound')", {}, ctx)).toBe(3);
      expect(run("sum(if(direction = 'inbound', duration, 0))", {}, ctx)).toBe(70);
      expect(run("duration / sum(duration) * 100", { duration: 45 }, ctx)).toBe(50);
    });

    it("row-set aggregates nest and follow the context they are given", () => {
      expect(run("sum(duration - avg(duration))", {}, { rows: rows.slice(0, 3) })).toBeCloseTo(0, 9);
      const compiledOrNot = (ctx: FormulaContext) => run("sum(duration)", {}, ctx);
      expect(compiledOrNot({ rows: rows.slice(0, 1) })).toBe(10);
      expect(compiledOrNot({ rows: rows.slice(0, 2) })).toBe(30);
    });
  });

  describe("errors", () => {
    const failure = (text: string, row?: FormulaRow): FormulaError => {
      try {
        run(text, row);
      } catch (error) {
        if (error instanceof FormulaError) return error;
        throw error;
      }
      throw new Error(`expected ${text} to throw`);
    };

    it("Unknown function", () => {
      expect(failure("nope(1)")).toMatchObject({
        message: "Unknown function",
        kind: "evaluation",
        detail: "nope",
      });
      expect(failure("duration(1)", ROW).message).toBe("Unknown function");
      expect(failure("constructor(1)").message).toBe("Unknown function");
    });

    it("Unexpected token: <type> <value>, expected <x>", () => {
      expect(failure("if(1, 2").message).toBe("Unexpected token: eof EOF, expected )");
      expect(failure("[1, 2").message).toBe("Unexpected token: eof EOF, expected ]");
      expect(failure("x between 1 2").message).toBe("Unexpected token: number 2, expected and");
    });
  });
});

describe("errors of hand-built trees", () => {
  const bad = {
    operator: {
      type: "binary",
      operator: "^",
      left: { type: "number", value: 1 },
      right: { type: "number", value: 2 },
    },
    unary: { type: "unary", operator: "~", operand: { type: "number", value: 1 } },
    node: { type: "bogus" },
    nested: {
      type: "function_call",
      name: "if",
      args: [{ type: "number", value: 0 }, { type: "bogus" }, { type: "number", value: 3 }],
    },
  } as unknown as Record<string, FormulaNode>;

  const thrown = (fn: () => unknown): FormulaError => {
    try {
      fn();
    } catch (error) {
      if (error instanceof FormulaError) return error;
      throw error;
    }
    throw new Error("expected a FormulaError");
  };

  it.each([
    ["operator", "Unknown operator", "^"],
    ["unary", "Unknown unary operator", "~"],
    ["node", "Unknown AST node type", "bogus"],
  ])("%s: the interpreter and the compiler throw %j", (key, message, detail) => {
    const node = bad[key] as FormulaNode;
    for (const error of [thrown(() => evaluateFormulaAst(node, {})), thrown(() => compileFormulaAst(node))]) {
      expect(error.message).toBe(message);
      expect(error.kind).toBe("evaluation");
      expect(error.detail).toBe(detail);
    }
  });

  it("the compiler reports an error anywhere in the tree at compile time; the interpreter when reached", () => {
    const node = bad.nested as FormulaNode;
    expect(thrown(() => compileFormulaAst(node)).message).toBe("Unknown AST node type");
    expect(evaluateFormulaAst(node, {})).toBe(3);
    expect(thrown(() => compileFormula("if(1, 2, nope())")).message).toBe("Unknown function");
    expect(evaluateFormula("if(1, 2, nope())")).toBe(2);
  });
});

describe("compileFormula", () => {
  it("evaluates many rows with one compilation", () => {
    const f = compileFormula("duration * 2 + (direction = 'inbound')");
    expect([{ duration: 1, direction: "inbound" }, { duration: 5 }, {}].map((row) => f(row))).toEqual([
      3, 10, 0,
    ]);
  });

  it("keeps the row-set aggregate in step with the rows of a reused context", () => {
    const f = compileFormula("count()");
    const g = compileFormula("sum(x)");
    const rows: { x: number }[] = [{ x: 1 }];
    const ctx = { rows };
    expect(f({}, ctx)).toBe(1);
    expect(g({}, ctx)).toBe(1);
    rows.push({ x: 4 });
    expect(f({}, ctx)).toBe(2);
    expect(g({}, ctx)).toBe(5);
    expect(g({}, { rows: [{ x: 10 }] })).toBe(10);
  });

  it("folds constants without changing results", () => {
    expect(compileFormula("2 * 3 + x")({ x: 1 })).toBe(7);
    expect(compileFormula("x / (1 - 1)")({ x: 1 })).toBe(0);
    expect(compileFormula("x % (3 - 3)")({ x: 1 })).toBe(0);
    expect(compileFormula("x in ['a', 1]")({ x: "1" })).toBe(1);
    expect(compileFormula("x in ['a', 'b']")({ x: "b" })).toBe(1);
    expect(compileFormula("x in ['a', 'b']")({ x: 0 })).toBe(0);
  });
});

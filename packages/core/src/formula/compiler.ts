/**
 * Compile once, evaluate many: turns a syntax tree into nested closures, so evaluating a row does no
 * parsing and no dispatch on node types. Semantics are those of the interpreter (evaluateFormulaAst),
 * which the tests hold it to; the closures only specialise common shapes:
 * - constant sub-expressions are computed once at compile time;
 * - numeric contexts (arithmetic operands) read fields straight as numbers, without boxing;
 * - conditions (and, or, not, IF, comparisons, predicates) produce booleans, not 1/0 then truthiness;
 * - `field = 'text'`, `field > 60`, ... test the field's type inline;
 * - like/regex patterns that are constants are prepared once;
 * - an aggregate over the row set is computed once per context, not once per row.
 * Errors a tree can hold (unknown function, operator or node type) are thrown at compile time.
 *
 * One file on purpose (~650 lines): each node kind's closure builder calls the others recursively and
 * shares the specialisation helpers; split, they would import each other in a cycle.
 */
import { FORMULA_EVALUATION_MESSAGES, FormulaError } from "./errors.ts";
import { FORMULA_AGGREGATES } from "./functions.ts";
import { evaluateFormulaAst } from "./interpreter.ts";
import { formulaChildren, parseFormula } from "./parser.ts";
import type {
  CompiledFormula,
  FormulaBinaryOperator,
  FormulaContext,
  FormulaNode,
  FormulaRow,
  FormulaValue,
} from "./types.ts";
import {
  collectAggregateValue,
  compareFormulaValues,
  compileFormulaRegex,
  fieldReader,
  findFieldKey,
  formulaEquals,
  formulaLike,
  isFormulaTruthy,
  isInheritedName,
  matchLikePattern,
  normalizeFormulaValue,
  ownField,
  stringToNumberOrNaN,
  toComparableNumber,
  toFormulaNumber,
  toFormulaText,
  toTimestamp,
} from "./values.ts";

type Ctx = FormulaContext | undefined;
type ValueFn = (row: FormulaRow, ctx: Ctx) => FormulaValue;
type NumberFn = (row: FormulaRow, ctx: Ctx) => number;
type BoolFn = (row: FormulaRow, ctx: Ctx) => boolean;
type RawFn = (row: FormulaRow, ctx: Ctx) => unknown;

const EMPTY_ROW: FormulaRow = {};
const COMPARISONS = new Set<string>(["<", "<=", ">", ">=", "=", "!="]);
const ARITHMETIC = new Set<string>(["+", "-", "*", "/", "%"]);

function unknownNodeType(node: FormulaNode): FormulaError {
  const type = (node as { type?: unknown }).type;
  return new FormulaError("evaluation", FORMULA_EVALUATION_MESSAGES.unknownNodeType, String(type));
}

function unknownOperator(operator: string): FormulaError {
  return new FormulaError("evaluation", FORMULA_EVALUATION_MESSAGES.unknownOperator, operator);
}

function lowerName(name: string): string {
  return name.toLowerCase();
}

const KNOWN_BINARY = new Set<string>([...COMPARISONS, ...ARITHMETIC, "and", "or", "like", "regex"]);
const KNOWN_UNARY = new Set<string>(["-", "+", "!", "not"]);
const KNOWN_FUNCTIONS = new Set<string>([
  "abs",
  "if",
  "now",
  "timestamp_diff",
  ...Object.keys(FORMULA_AGGREGATES),
]);

/** Throws the evaluation errors a tree holds (wherever they sit), before anything is compiled. */
function checkTree(root: FormulaNode): void {
  const stack: FormulaNode[] = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    switch (node.type) {
      case "number":
      case "string":
      case "boolean":
      case "null":
      case "var":
      case "array":
      case "object":
      case "property_access":
      case "in":
      case "between":
      case "isnull":
        break;
      case "binary":
        if (!KNOWN_BINARY.has(node.operator)) throw unknownOperator(String(node.operator));
        break;
      case "unary":
        if (!KNOWN_UNARY.has(node.operator)) {
          throw new FormulaError(
            "evaluation",
            FORMULA_EVALUATION_MESSAGES.unknownUnaryOperator,
            String(node.operator),
          );
        }
        break;
      case "function_call":
        if (!KNOWN_FUNCTIONS.has(lowerName(node.name))) {
          throw new FormulaError("evaluation", FORMULA_EVALUATION_MESSAGES.unknownFunction, node.name);
        }
        break;
      default:
        throw unknownNodeType(node);
    }
    for (const child of formulaChildren(node)) stack.push(child);
  }
}

/** Per-compilation memo of which nodes are constant, and their values. */
type Memo = {
  readonly constant: Map<FormulaNode, boolean>;
  readonly values: Map<FormulaNode, { value: FormulaValue }>;
};

let memo: Memo = { constant: new Map(), values: new Map() };

/** Whether a node's value depends on neither the row nor the context. */
function isConstant(node: FormulaNode): boolean {
  const known = memo.constant.get(node);
  if (known !== undefined) return known;
  const result = computeIsConstant(node);
  memo.constant.set(node, result);
  return result;
}

function computeIsConstant(node: FormulaNode): boolean {
  switch (node.type) {
    case "number":
    case "string":
    case "boolean":
    case "null":
      return true;
    case "function_call": {
      const name = lowerName(node.name);
      if (name === "now") return false;
      if (Object.hasOwn(FORMULA_AGGREGATES, name)) {
        // One non-array argument aggregates over the row set; no argument counts the rows.
        if (node.args.length === 0 || (node.args.length === 1 && node.args[0]?.type !== "array"))
          return false;
      }
      return node.args.every(isConstant);
    }
    case "var":
      return false;
    default:
      return formulaChildren(node).every(isConstant);
  }
}

/** The compile-time value of a constant node (computed once, by the reference interpreter). */
function constantOf(node: FormulaNode): { value: FormulaValue } | undefined {
  if (!isConstant(node)) return undefined;
  let known = memo.values.get(node);
  if (known === undefined) {
    known = { value: evaluateFormulaAst(node, EMPTY_ROW, undefined) };
    memo.values.set(node, known);
  }
  return known;
}

/** Reads a row field, raw (undefined when missing). */
function compileRawField(name: string): RawFn {
  const read = fieldReader(name);
  if (isInheritedName(name)) return read;
  return (row) => {
    const value = row[name];
    return value !== undefined ? value : read(row);
  };
}

function compileFieldValue(name: string): ValueFn {
  const read = fieldReader(name);
  if (isInheritedName(name)) return (row) => normalizeFormulaValue(read(row));
  return (row) => {
    const value = row[name];
    if (typeof value === "number" || typeof value === "string") return value;
    return normalizeFormulaValue(value !== undefined ? value : read(row));
  };
}

function compileFieldNumber(name: string): NumberFn {
  // Inherited names never hold numbers on Object.prototype, so the inline test is safe for them too.
  const read = fieldReader(name);
  return (row) => {
    const value = row[name];
    if (typeof value === "number" && !Number.isNaN(value)) return value;
    return toFormulaNumber(read(row));
  };
}

function compileRaw(node: FormulaNode): RawFn {
  if (node.type === "var") return compileRawField(node.name);
  if (node.type === "property_access") {
    const object = compileRaw(node.object);
    const property = node.property;
    return (row, ctx) => ownField(object(row, ctx), property);
  }
  return compileValue(node);
}

function compileArithmetic(operator: string, left: FormulaNode, right: FormulaNode): NumberFn {
  const a = compileNumber(left);
  const constant = constantOf(right);
  if (constant !== undefined) {
    const k = toFormulaNumber(constant.value);
    switch (operator) {
      case "+":
        return (row, ctx) => a(row, ctx) + k;
      case "-":
        return (row, ctx) => a(row, ctx) - k;
      case "*":
        return (row, ctx) => a(row, ctx) * k;
      case "/":
        return k === 0 ? () => 0 : (row, ctx) => a(row, ctx) / k;
      default:
        return k === 0 ? () => 0 : (row, ctx) => a(row, ctx) % k;
    }
  }
  const b = compileNumber(right);
  switch (operator) {
    case "+":
      return (row, ctx) => a(row, ctx) + b(row, ctx);
    case "-":
      return (row, ctx) => a(row, ctx) - b(row, ctx);
    case "*":
      return (row, ctx) => a(row, ctx) * b(row, ctx);
    case "/":
      return (row, ctx) => {
        const x = a(row, ctx);
        const y = b(row, ctx);
        return y === 0 ? 0 : x / y;
      };
    default:
      return (row, ctx) => {
        const x = a(row, ctx);
        const y = b(row, ctx);
        return y === 0 ? 0 : x % y;
      };
  }
}

/**
 * The field's value when the row holds no usable number, boolean, string or null under the exact name: what
 * compareFormulaValues reads against a number (missing 0, dates their ms, other spellings of the name, ...).
 * `exact` is `row[name]`, already read: for a name not inherited from Object.prototype, undefined there
 * means only the search for another spelling is left, so the exact key is not read again.
 */
function fieldComparableFallback(name: string): (row: FormulaRow, exact: unknown) => number {
  const read = fieldReader(name);
  if (isInheritedName(name)) return (row) => toComparableNumber(normalizeFormulaValue(read(row)));
  const lower = name.toLowerCase();
  return (row, exact) => {
    if (exact !== undefined) return toComparableNumber(normalizeFormulaValue(exact));
    const key = findFieldKey(row, name, lower);
    return key === undefined ? 0 : toComparableNumber(normalizeFormulaValue(row[key]));
  };
}

/**
 * A stored value read as a number for comparison, as compareFormulaValues reads it against a number:
 * numbers, booleans, strings and null here, anything else by `fallback`. Object.prototype holds no numbers,
 * booleans or strings, so reading those inline is safe for any name. One top-level function, so each
 * comparison closure inlines it instead of calling a reader shared by every formula.
 */
function comparableOf(
  value: unknown,
  row: FormulaRow,
  fallback: (row: FormulaRow, exact: unknown) => number,
): number {
  switch (typeof value) {
    case "number":
      return value;
    case "boolean":
      return value ? 1 : 0;
    case "string":
      return stringToNumberOrNaN(value);
    default:
      return value === null ? 0 : fallback(row, value);
  }
}

const JS_COMPARISONS: Readonly<Record<string, string>> = {
  "=": "===",
  "!=": "!==",
  "<": "<",
  "<=": "<=",
  ">": ">",
  ">=": ">=",
};

let codeGenerationAllowed = true;

/**
 * A hot closure made from source of its own, or undefined where code generation is not allowed (a
 * browser's Content-Security-Policy). V8 keeps type feedback per function literal: the closures one
 * literal makes share it, so a closure shape used by many formulas reads `row[name]` through the
 * megamorphic cache and calls its helpers without inlining them; each formula's own copy reads its field
 * through its own inline cache and inlines them. The source holds only fixed text and a field name as a
 * JSON string literal; every value comes in as a parameter.
 */
function ownCopy<T>(parameters: readonly string[], body: string, values: readonly unknown[]): T | undefined {
  if (!codeGenerationAllowed) return undefined;
  try {
    return new Function(...parameters, body)(...values) as T;
  } catch {
    codeGenerationAllowed = false;
    return undefined;
  }
}

/**
 * `field <op> number`: the field's number compared inline (NaN compares false, != true); as a condition,
 * or (`asValue`) as the 1/0 value of a formula, a metric's condition, in the same one function.
 */
function compileFieldVersusNumber(name: string, operator: string, k: number, asValue: true): ValueFn;
function compileFieldVersusNumber(name: string, operator: string, k: number, asValue: false): BoolFn;
function compileFieldVersusNumber(name: string, operator: string, k: number, asValue: boolean): RawFn {
  const fallback = fieldComparableFallback(name);
  const js = JS_COMPARISONS[operator] ?? ">=";
  const own = ownCopy<RawFn>(
    ["comparableOf", "fallback", "k"],
    `return (row) => (comparableOf(row[${JSON.stringify(name)}], row, fallback) ${js} k)${asValue ? " ? 1 : 0" : ""};`,
    [comparableOf, fallback, k],
  );
  if (own !== undefined) return own;
  const test = sharedFieldVersusNumber(name, operator, k, fallback);
  return asValue ? (row) => (test(row) ? 1 : 0) : test;
}

function sharedFieldVersusNumber(
  name: string,
  operator: string,
  k: number,
  fallback: (row: FormulaRow, exact: unknown) => number,
): (row: FormulaRow) => boolean {
  switch (operator) {
    case "=":
      return (row) => comparableOf(row[name], row, fallback) === k;
    case "!=":
      return (row) => comparableOf(row[name], row, fallback) !== k;
    case "<":
      return (row) => comparableOf(row[name], row, fallback) < k;
    case "<=":
      return (row) => comparableOf(row[name], row, fallback) <= k;
    case ">":
      return (row) => comparableOf(row[name], row, fallback) > k;
    default:
      return (row) => comparableOf(row[name], row, fallback) >= k;
  }
}

/** `field = 'text'` / `field != 'text'`: string equality inline; as a condition or (`asValue`) as 1/0. */
function compileFieldEqualsString(
  name: string,
  operator: "=" | "!=",
  text: string,
  asValue: boolean,
): RawFn | undefined {
  if (isInheritedName(name)) return undefined;
  const read = fieldReader(name);
  const slow = (row: FormulaRow) => formulaEquals(normalizeFormulaValue(read(row)), text);
  const equal = operator === "=";
  const test = `(typeof v === "string" ? v === text : slow(row))`;
  const result = asValue ? `${test} ? ${equal ? "1 : 0" : "0 : 1"}` : equal ? test : `!${test}`;
  const own = ownCopy<RawFn>(
    ["slow", "text"],
    `return (row) => { const v = row[${JSON.stringify(name)}]; return ${result}; };`,
    [slow, text],
  );
  if (own !== undefined) return own;
  const shared: BoolFn = equal
    ? (row) => {
        const v = row[name];
        return typeof v === "string" ? v === text : slow(row);
      }
    : (row) => {
        const v = row[name];
        return typeof v === "string" ? v !== text : !slow(row);
      };
  return asValue ? (row) => (shared(row, undefined) ? 1 : 0) : shared;
}

function compileComparison(operator: string, left: FormulaNode, right: FormulaNode): BoolFn {
  const constant = constantOf(right);
  if (left.type === "var" && constant !== undefined) {
    const k = constant.value;
    const special =
      typeof k === "number"
        ? compileFieldVersusNumber(left.name, operator, k, false)
        : typeof k === "string" && (operator === "=" || operator === "!=")
          ? compileFieldEqualsString(left.name, operator, k, false)
          : undefined;
    if (special !== undefined) return special as BoolFn;
  }
  const a = compileValue(left);
  const b = compileValue(right);
  switch (operator) {
    case "=":
      return (row, ctx) => formulaEquals(a(row, ctx), b(row, ctx));
    case "!=":
      return (row, ctx) => !formulaEquals(a(row, ctx), b(row, ctx));
    case "<":
      return (row, ctx) => compareFormulaValues(a(row, ctx), b(row, ctx)) < 0;
    case "<=":
      return (row, ctx) => compareFormulaValues(a(row, ctx), b(row, ctx)) <= 0;
    case ">":
      return (row, ctx) => compareFormulaValues(a(row, ctx), b(row, ctx)) > 0;
    default:
      return (row, ctx) => compareFormulaValues(a(row, ctx), b(row, ctx)) >= 0;
  }
}

function compileLike(left: FormulaNode, right: FormulaNode): BoolFn {
  const value = compileValue(left);
  const constant = constantOf(right);
  if (constant !== undefined) {
    const pattern = toFormulaText(constant.value).toLowerCase();
    return (row, ctx) => matchLikePattern(toFormulaText(value(row, ctx)).toLowerCase(), pattern);
  }
  const pattern = compileValue(right);
  return (row, ctx) => formulaLike(value(row, ctx), pattern(row, ctx));
}

function compileRegex(left: FormulaNode, right: FormulaNode): BoolFn {
  const value = compileValue(left);
  const constant = constantOf(right);
  if (constant !== undefined) {
    const regex = compileFormulaRegex(toFormulaText(constant.value));
    if (regex === null) return () => false;
    return (row, ctx) => regex.test(toFormulaText(value(row, ctx)));
  }
  const pattern = compileValue(right);
  let lastSource: string | undefined;
  let lastRegex: RegExp | null = null;
  return (row, ctx) => {
    const text = toFormulaText(value(row, ctx));
    const source = toFormulaText(pattern(row, ctx));
    if (source !== lastSource) {
      lastSource = source;
      lastRegex = compileFormulaRegex(source);
    }
    return lastRegex?.test(text) === true;
  };
}

/** Nodes whose value is a condition (1 or 0), compiled to a boolean function; else undefined. */
function compilePredicate(node: FormulaNode): BoolFn | undefined {
  switch (node.type) {
    case "boolean": {
      const value = node.value;
      return () => value;
    }
    case "binary": {
      const { operator, left, right } = node;
      if (COMPARISONS.has(operator)) return compileComparison(operator, left, right);
      if (operator === "and") {
        const a = compileTruthy(left);
        const b = compileTruthy(right);
        return (row, ctx) => a(row, ctx) && b(row, ctx);
      }
      if (operator === "or") {
        const a = compileTruthy(left);
        const b = compileTruthy(right);
        return (row, ctx) => a(row, ctx) || b(row, ctx);
      }
      if (operator === "like") return compileLike(left, right);
      if (operator === "regex") return compileRegex(left, right);
      return undefined;
    }
    case "unary": {
      if (node.operator !== "not" && node.operator !== "!") return undefined;
      const operand = compileTruthy(node.operand);
      return (row, ctx) => !operand(row, ctx);
    }
    case "in": {
      const value = compileValue(node.value);
      const constants = node.list.map(constantOf);
      if (constants.every((c) => c !== undefined)) {
        const options = constants.map((c) => (c as { value: FormulaValue }).value);
        const strings = options.every((option) => typeof option === "string")
          ? new Set(options as string[])
          : undefined;
        return (row, ctx) => {
          const v = value(row, ctx);
          if (strings !== undefined && typeof v === "string") return strings.has(v);
          for (const option of options) if (formulaEquals(v, option)) return true;
          return false;
        };
      }
      const list = node.list.map((element) => compileValue(element));
      return (row, ctx) => {
        const v = value(row, ctx);
        for (const element of list) if (formulaEquals(v, element(row, ctx))) return true;
        return false;
      };
    }
    case "between": {
      const value = compileValue(node.value);
      const low = compileValue(node.low);
      const high = compileValue(node.high);
      return (row, ctx) => {
        const v = value(row, ctx);
        const a = low(row, ctx);
        const b = high(row, ctx);
        return compareFormulaValues(v, a) >= 0 && compareFormulaValues(v, b) <= 0;
      };
    }
    case "isnull": {
      const value = compileRaw(node.value);
      const negated = node.negated;
      return (row, ctx) => {
        const v = value(row, ctx);
        return (v === null || v === undefined) !== negated;
      };
    }
    default:
      return undefined;
  }
}

function compileTruthy(node: FormulaNode): BoolFn {
  const constant = constantOf(node);
  if (constant !== undefined) {
    const truth = isFormulaTruthy(constant.value);
    return () => truth;
  }
  const predicate = compilePredicate(node);
  if (predicate !== undefined) return predicate;
  const value = compileValue(node);
  return (row, ctx) => isFormulaTruthy(value(row, ctx));
}

function compileNumber(node: FormulaNode): NumberFn {
  const constant = constantOf(node);
  if (constant !== undefined) {
    const k = toFormulaNumber(constant.value);
    return () => k;
  }
  switch (node.type) {
    case "var":
      return compileFieldNumber(node.name);
    case "binary":
      if (ARITHMETIC.has(node.operator)) return compileArithmetic(node.operator, node.left, node.right);
      break;
    case "unary":
      if (node.operator === "-") {
        const operand = compileNumber(node.operand);
        return (row, ctx) => -operand(row, ctx);
      }
      if (node.operator === "+") return compileNumber(node.operand);
      break;
    default:
      break;
  }
  const predicate = compilePredicate(node);
  if (predicate !== undefined) return (row, ctx) => (predicate(row, ctx) ? 1 : 0);
  const value = compileValue(node);
  return (row, ctx) => toFormulaNumber(value(row, ctx));
}

function compileAggregate(name: string, args: readonly FormulaNode[]): ValueFn {
  const aggregate = FORMULA_AGGREGATES[name];
  if (aggregate === undefined)
    throw new FormulaError("evaluation", FORMULA_EVALUATION_MESSAGES.unknownFunction, name);
  if (args.length === 0) {
    if (name !== "count") return () => 0;
    return (_row, ctx) => {
      const rows = ctx?.rows;
      return rows !== undefined ? rows.length : 0;
    };
  }
  const only = args[0] as FormulaNode;
  if (args.length === 1 && only.type !== "array") {
    const each = compileValue(only);
    let cachedCtx: Ctx;
    let cachedRows: readonly FormulaRow[] | undefined;
    let cachedLength = -1;
    let cachedValue = 0;
    return (row, ctx) => {
      const rows = ctx?.rows;
      if (rows === undefined) {
        const values: FormulaValue[] = [];
        collectAggregateValue(values, each(row, ctx));
        return aggregate(values);
      }
      if (ctx === cachedCtx && rows === cachedRows && rows.length === cachedLength) return cachedValue;
      const values: FormulaValue[] = [];
      for (const other of rows) collectAggregateValue(values, each(other, ctx));
      cachedValue = aggregate(values);
      cachedCtx = ctx;
      cachedRows = rows;
      cachedLength = rows.length;
      return cachedValue;
    };
  }
  const parts = args.map((arg) => compileValue(arg));
  return (row, ctx) => {
    const values: FormulaValue[] = [];
    for (const part of parts) collectAggregateValue(values, part(row, ctx));
    return aggregate(values);
  };
}

function compileCall(name: string, args: readonly FormulaNode[]): ValueFn {
  const lower = lowerName(name);
  const argValue = (index: number): ValueFn => {
    const node = args[index];
    return node === undefined ? () => 0 : compileValue(node);
  };
  switch (lower) {
    case "abs": {
      const operand = args[0] === undefined ? () => 0 : compileNumber(args[0]);
      return (row, ctx) => Math.abs(operand(row, ctx));
    }
    case "if": {
      const condition = args[0] === undefined ? () => false : compileTruthy(args[0]);
      const then = argValue(1);
      const otherwise = argValue(2);
      return (row, ctx) => (condition(row, ctx) ? then(row, ctx) : otherwise(row, ctx));
    }
    case "now":
      return (_row, ctx) => ctx?.now ?? Date.now();
    case "timestamp_diff": {
      const start = argValue(0);
      const end = argValue(1);
      return (row, ctx) => (toTimestamp(end(row, ctx)) - toTimestamp(start(row, ctx))) / 1000;
    }
    default:
      if (!Object.hasOwn(FORMULA_AGGREGATES, lower)) {
        throw new FormulaError("evaluation", FORMULA_EVALUATION_MESSAGES.unknownFunction, name);
      }
      return compileAggregate(lower, args);
  }
}

function compileValue(node: FormulaNode): ValueFn {
  const constant = constantOf(node);
  if (constant !== undefined) {
    const value = constant.value;
    return () => value;
  }
  switch (node.type) {
    case "number":
    case "string": {
      const value = node.value;
      return () => value;
    }
    case "boolean": {
      const value = node.value ? 1 : 0;
      return () => value;
    }
    case "null":
      return () => null;
    case "var":
      return compileFieldValue(node.name);
    case "binary": {
      const operator: FormulaBinaryOperator = node.operator;
      if (ARITHMETIC.has(operator)) return compileArithmetic(operator, node.left, node.right);
      if (COMPARISONS.has(operator) && node.left.type === "var") {
        const constant = constantOf(node.right);
        if (constant !== undefined && typeof constant.value === "number")
          return compileFieldVersusNumber(node.left.name, operator, constant.value, true);
        if (
          constant !== undefined &&
          typeof constant.value === "string" &&
          (operator === "=" || operator === "!=")
        ) {
          const equals = compileFieldEqualsString(node.left.name, operator, constant.value, true);
          if (equals !== undefined) return equals as ValueFn;
        }
      }
      const predicate = compilePredicate(node);
      if (predicate === undefined) throw unknownOperator(String(operator));
      return (row, ctx) => (predicate(row, ctx) ? 1 : 0);
    }
    case "unary": {
      if (node.operator === "-" || node.operator === "+") return compileNumber(node);
      const predicate = compilePredicate(node);
      if (predicate === undefined) {
        throw new FormulaError(
          "evaluation",
          FORMULA_EVALUATION_MESSAGES.unknownUnaryOperator,
          String(node.operator),
        );
      }
      return (row, ctx) => (predicate(row, ctx) ? 1 : 0);
    }
    case "array": {
      const elements = node.elements.map((element) => compileValue(element));
      return (row, ctx) => {
        const out: FormulaValue[] = new Array(elements.length);
        for (let i = 0; i < elements.length; i++) out[i] = (elements[i] as ValueFn)(row, ctx);
        return out;
      };
    }
    case "object": {
      const properties = node.properties.map((property) => ({
        key: property.key,
        value: compileValue(property.value),
      }));
      return (row, ctx) => {
        const object: Record<string, FormulaValue> = Object.create(null);
        for (const property of properties) object[property.key] = property.value(row, ctx);
        return object;
      };
    }
    case "property_access": {
      const raw = compileRaw(node);
      return (row, ctx) => normalizeFormulaValue(raw(row, ctx));
    }
    case "function_call":
      return compileCall(node.name, node.args);
    case "in":
    case "between":
    case "isnull": {
      const predicate = compilePredicate(node) as BoolFn;
      return (row, ctx) => (predicate(row, ctx) ? 1 : 0);
    }
    default:
      throw unknownNodeType(node);
  }
}

/**
 * Compiles a syntax tree to a function of (row, context). Throws FormulaError (kind "evaluation")
 * for an unknown operator, unary operator, function or node type anywhere in the tree.
 */
export function compileFormulaAst(ast: FormulaNode): CompiledFormula {
  checkTree(ast);
  const outer = memo;
  memo = { constant: new Map(), values: new Map() };
  try {
    return compileValue(ast);
  } finally {
    memo = outer;
  }
}

/** Parses and compiles formula text once; the result evaluates any number of rows. */
export function compileFormula(text: string): CompiledFormula {
  return compileFormulaAst(parseFormula(text));
}

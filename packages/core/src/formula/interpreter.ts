/**
 * The naive evaluator: walks the syntax tree on every evaluation. It is the reference the compiler is
 * tested against, and (with evaluateFormula re-parsing each time) the benchmark's baseline.
 */
import { FORMULA_EVALUATION_MESSAGES, FormulaError } from "./errors.ts";
import { FORMULA_AGGREGATES } from "./functions.ts";
import { parseFormula } from "./parser.ts";
import type { FormulaContext, FormulaNode, FormulaRow, FormulaValue } from "./types.ts";
import {
  collectAggregateValue,
  compareFormulaValues,
  formulaArithmetic,
  formulaEquals,
  formulaLike,
  formulaRegex,
  isFormulaTruthy,
  normalizeFormulaValue,
  ownField,
  readField,
  toFormulaNumber,
  toTimestamp,
} from "./values.ts";

const EMPTY_ROW: FormulaRow = {};

function unknownNode(node: FormulaNode): FormulaError {
  const type = (node as { type?: unknown }).type;
  return new FormulaError("evaluation", FORMULA_EVALUATION_MESSAGES.unknownNodeType, String(type));
}

/** Raw value of a field or property access (undefined when missing), for `is null`. */
function evaluateRaw(node: FormulaNode, row: FormulaRow, ctx: FormulaContext | undefined): unknown {
  if (node.type === "var") return readField(row, node.name);
  if (node.type === "property_access") {
    return ownField(evaluateRaw(node.object, row, ctx), node.property);
  }
  return evaluateFormulaAst(node, row, ctx);
}

function evaluateBinary(
  operator: string,
  left: FormulaNode,
  right: FormulaNode,
  row: FormulaRow,
  ctx: FormulaContext | undefined,
): number {
  switch (operator) {
    case "+":
    case "-":
    case "*":
    case "/":
    case "%":
      return formulaArithmetic(
        operator,
        toFormulaNumber(evaluateFormulaAst(left, row, ctx)),
        toFormulaNumber(evaluateFormulaAst(right, row, ctx)),
      );
    case "and":
      return isFormulaTruthy(evaluateFormulaAst(left, row, ctx)) &&
        isFormulaTruthy(evaluateFormulaAst(right, row, ctx))
        ? 1
        : 0;
    case "or":
      return isFormulaTruthy(evaluateFormulaAst(left, row, ctx)) ||
        isFormulaTruthy(evaluateFormulaAst(right, row, ctx))
        ? 1
        : 0;
    default:
      break;
  }
  const a = evaluateFormulaAst(left, row, ctx);
  const b = evaluateFormulaAst(right, row, ctx);
  let result: boolean;
  switch (operator) {
    case "=":
      result = formulaEquals(a, b);
      break;
    case "!=":
      result = !formulaEquals(a, b);
      break;
    case "<":
      result = compareFormulaValues(a, b) < 0;
      break;
    case "<=":
      result = compareFormulaValues(a, b) <= 0;
      break;
    case ">":
      result = compareFormulaValues(a, b) > 0;
      break;
    case ">=":
      result = compareFormulaValues(a, b) >= 0;
      break;
    case "like":
      result = formulaLike(a, b);
      break;
    case "regex":
      result = formulaRegex(a, b);
      break;
    default:
      throw new FormulaError("evaluation", FORMULA_EVALUATION_MESSAGES.unknownOperator, operator);
  }
  return result ? 1 : 0;
}

function evaluateCall(
  name: string,
  args: readonly FormulaNode[],
  row: FormulaRow,
  ctx: FormulaContext | undefined,
): FormulaValue {
  const lower = name.toLowerCase();
  const arg = (index: number): FormulaValue => {
    const node = args[index];
    return node === undefined ? 0 : evaluateFormulaAst(node, row, ctx);
  };
  switch (lower) {
    case "abs":
      return Math.abs(toFormulaNumber(arg(0)));
    case "if":
      return isFormulaTruthy(arg(0)) ? arg(1) : arg(2);
    case "now":
      return ctx?.now ?? Date.now();
    case "timestamp_diff":
      return (toTimestamp(arg(1)) - toTimestamp(arg(0))) / 1000;
    default:
      break;
  }
  const aggregate = Object.hasOwn(FORMULA_AGGREGATES, lower) ? FORMULA_AGGREGATES[lower] : undefined;
  if (aggregate === undefined) {
    throw new FormulaError("evaluation", FORMULA_EVALUATION_MESSAGES.unknownFunction, name);
  }
  const values: FormulaValue[] = [];
  const only = args[0];
  const rows = ctx?.rows;
  if (args.length === 0) {
    return lower === "count" && rows !== undefined ? rows.length : 0;
  }
  if (args.length === 1 && only !== undefined && only.type !== "array" && rows !== undefined) {
    for (const each of rows) collectAggregateValue(values, evaluateFormulaAst(only, each, ctx));
  } else {
    for (const node of args) collectAggregateValue(values, evaluateFormulaAst(node, row, ctx));
  }
  return aggregate(values);
}

/**
 * Evaluates a syntax tree against one row by walking it. Throws FormulaError (kind "evaluation"):
 * `Unknown operator`, `Unknown unary operator`, `Unknown function`, `Unknown AST node type`.
 */
export function evaluateFormulaAst(
  node: FormulaNode,
  row: FormulaRow = EMPTY_ROW,
  ctx?: FormulaContext,
): FormulaValue {
  switch (node.type) {
    case "number":
    case "string":
      return node.value;
    case "boolean":
      return node.value ? 1 : 0;
    case "null":
      return null;
    case "var":
      return normalizeFormulaValue(readField(row, node.name));
    case "property_access":
      return normalizeFormulaValue(evaluateRaw(node, row, ctx));
    case "binary":
      return evaluateBinary(node.operator, node.left, node.right, row, ctx);
    case "unary": {
      const value = evaluateFormulaAst(node.operand, row, ctx);
      switch (node.operator) {
        case "-":
          return -toFormulaNumber(value);
        case "+":
          return toFormulaNumber(value);
        case "!":
        case "not":
          return isFormulaTruthy(value) ? 0 : 1;
        default:
          throw new FormulaError(
            "evaluation",
            FORMULA_EVALUATION_MESSAGES.unknownUnaryOperator,
            String((node as { operator?: unknown }).operator),
          );
      }
    }
    case "array":
      return node.elements.map((element) => evaluateFormulaAst(element, row, ctx));
    case "object": {
      const object: Record<string, FormulaValue> = Object.create(null);
      for (const property of node.properties) {
        object[property.key] = evaluateFormulaAst(property.value, row, ctx);
      }
      return object;
    }
    case "function_call":
      return evaluateCall(node.name, node.args, row, ctx);
    case "in": {
      const value = evaluateFormulaAst(node.value, row, ctx);
      for (const element of node.list) {
        if (formulaEquals(value, evaluateFormulaAst(element, row, ctx))) return 1;
      }
      return 0;
    }
    case "between": {
      const value = evaluateFormulaAst(node.value, row, ctx);
      const low = evaluateFormulaAst(node.low, row, ctx);
      const high = evaluateFormulaAst(node.high, row, ctx);
      return compareFormulaValues(value, low) >= 0 && compareFormulaValues(value, high) <= 0 ? 1 : 0;
    }
    case "isnull": {
      const value = evaluateRaw(node.value, row, ctx);
      const isNull = value === null || value === undefined;
      return isNull !== node.negated ? 1 : 0;
    }
    default:
      throw unknownNode(node);
  }
}

/** Parses and evaluates in one go: the naive path (re-parses on every call). */
export function evaluateFormula(
  text: string,
  row: FormulaRow = EMPTY_ROW,
  ctx?: FormulaContext,
): FormulaValue {
  return evaluateFormulaAst(parseFormula(text), row, ctx);
}

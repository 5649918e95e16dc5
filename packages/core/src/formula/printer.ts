import type { FormulaNode } from "./types.ts";

/** Binding strength of each construct, loosest first (the parser's levels). */
const PRECEDENCE = {
  or: 1,
  and: 2,
  not: 3,
  predicate: 4,
  comparison: 5,
  additive: 6,
  multiplicative: 7,
  prefix: 8,
  postfix: 9,
  primary: 10,
} as const;

const BINARY_PRECEDENCE: Readonly<Record<string, number>> = {
  or: PRECEDENCE.or,
  and: PRECEDENCE.and,
  like: PRECEDENCE.predicate,
  regex: PRECEDENCE.predicate,
  "<": PRECEDENCE.comparison,
  "<=": PRECEDENCE.comparison,
  ">": PRECEDENCE.comparison,
  ">=": PRECEDENCE.comparison,
  "=": PRECEDENCE.comparison,
  "!=": PRECEDENCE.comparison,
  "+": PRECEDENCE.additive,
  "-": PRECEDENCE.additive,
  "*": PRECEDENCE.multiplicative,
  "/": PRECEDENCE.multiplicative,
  "%": PRECEDENCE.multiplicative,
};

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function precedence(node: FormulaNode): number {
  switch (node.type) {
    case "binary":
      return BINARY_PRECEDENCE[node.operator] ?? PRECEDENCE.primary;
    case "unary":
      return node.operator === "not" ? PRECEDENCE.not : PRECEDENCE.prefix;
    case "in":
    case "between":
    case "isnull":
      return PRECEDENCE.predicate;
    case "property_access":
    case "function_call":
      return PRECEDENCE.postfix;
    default:
      return PRECEDENCE.primary;
  }
}

/** Formula text of a string value: single-quoted, inner single quotes doubled. */
export function quoteFormulaString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** Prints `node`, in parentheses when it binds looser than `minimum`. */
function operand(node: FormulaNode, minimum: number): string {
  const text = printFormula(node);
  return precedence(node) < minimum ? `(${text})` : text;
}

/**
 * Formula text of a syntax tree, with the fewest parentheses that keep its shape:
 * parseFormula(printFormula(ast)) deep-equals ast for every tree the parser can produce.
 */
export function printFormula(node: FormulaNode): string {
  switch (node.type) {
    case "number":
      return String(node.value);
    case "string":
      return quoteFormulaString(node.value);
    case "boolean":
      return node.value ? "true" : "false";
    case "null":
      return "null";
    case "var":
      return node.name;
    case "binary": {
      const level = precedence(node);
      // Left-associative: the right operand needs parentheses at the same level.
      return `${operand(node.left, level)} ${node.operator} ${operand(node.right, level + 1)}`;
    }
    case "unary":
      return node.operator === "not"
        ? `not ${operand(node.operand, PRECEDENCE.not)}`
        : `${node.operator}${operand(node.operand, PRECEDENCE.prefix)}`;
    case "array":
      return `[${node.elements.map(printFormula).join(", ")}]`;
    case "object":
      return `{${node.properties
        .map((p) => `${IDENTIFIER.test(p.key) ? p.key : quoteFormulaString(p.key)}: ${printFormula(p.value)}`)
        .join(", ")}}`;
    case "property_access":
      return `${operand(node.object, PRECEDENCE.postfix)}.${node.property}`;
    case "function_call":
      return `${node.name}(${node.args.map(printFormula).join(", ")})`;
    case "in":
      return `${operand(node.value, PRECEDENCE.predicate)} in [${node.list.map(printFormula).join(", ")}]`;
    case "between":
      return `${operand(node.value, PRECEDENCE.predicate)} between ${operand(node.low, PRECEDENCE.comparison)} and ${operand(node.high, PRECEDENCE.comparison)}`;
    case "isnull":
      return `${operand(node.value, PRECEDENCE.predicate)} is ${node.negated ? "not " : ""}null`;
    default:
      return "";
  }
}

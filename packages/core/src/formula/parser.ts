// One recursive-descent parser for the formula language (~400 lines): its precedence levels call one
// another, so they stay together; tokens are in tokenizer.ts, node types in types.ts.
import { FORMULA_SYNTAX_MESSAGES, FormulaError, unexpectedTokenMessage } from "./errors.ts";
import { tokenizeFormula } from "./tokenizer.ts";
import type { FormulaBinaryOperator, FormulaNode, FormulaObjectProperty, FormulaToken } from "./types.ts";

/**
 * Words with a grammatical role; they cannot name a variable or a function (case-insensitive).
 * `true`, `false` and `null` are literals.
 */
export const FORMULA_KEYWORDS: readonly string[] = [
  "and",
  "or",
  "not",
  "in",
  "like",
  "regex",
  "between",
  "is",
  "null",
  "true",
  "false",
];
const KEYWORDS = new Set(FORMULA_KEYWORDS);

/** Deepest syntax tree the parser accepts (keeps every recursive walk far from the stack limit). */
export const FORMULA_MAX_DEPTH = 1000;
/** Deepest nesting of parentheses, brackets, calls and prefix operators the parser accepts. */
export const FORMULA_MAX_NESTING = 100;

const COMPARISON_OPERATORS: Readonly<Record<string, FormulaBinaryOperator>> = {
  "<": "<",
  "<=": "<=",
  ">": ">",
  ">=": ">=",
  "=": "=",
  "==": "=",
  "!=": "!=",
  "<>": "!=",
};

function tooDeep(position: number): FormulaError {
  return new FormulaError("syntax", FORMULA_SYNTAX_MESSAGES.tooDeep, undefined, position);
}

class Parser {
  private index = 0;
  private nesting = 0;

  constructor(private readonly tokens: readonly FormulaToken[]) {}

  private peek(offset = 0): FormulaToken {
    const token = this.tokens[this.index + offset] ?? this.tokens[this.tokens.length - 1];
    return token as FormulaToken;
  }

  private next(): FormulaToken {
    const token = this.peek();
    if (token.type !== "eof") this.index++;
    return token;
  }

  private isWord(word: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token.type === "identifier" && token.value.toLowerCase() === word;
  }

  private isOperator(value: string): boolean {
    const token = this.peek();
    return token.type === "operator" && token.value === value;
  }

  private isPunctuation(value: string): boolean {
    const token = this.peek();
    return token.type === "punctuation" && token.value === value;
  }

  /** Consumes the required punctuation, or throws `Unexpected token: <type> <value>, expected <x>`. */
  private expectPunctuation(value: string): void {
    if (!this.isPunctuation(value)) throw this.unexpected(value);
    this.index++;
  }

  private unexpected(expected: string): FormulaError {
    const token = this.peek();
    return new FormulaError(
      "syntax",
      unexpectedTokenMessage(token.type, token.value, expected),
      token.value,
      token.position,
    );
  }

  private enter(): void {
    this.nesting++;
    if (this.nesting > FORMULA_MAX_NESTING) throw tooDeep(this.peek().position);
  }

  private leave(): void {
    this.nesting--;
  }

  parseFormula(): FormulaNode {
    // A leading "=" (spreadsheet habit) is ignored.
    if (this.isOperator("=")) this.index++;
    const node = this.parseExpression();
    if (this.peek().type !== "eof") {
      const token = this.peek();
      throw new FormulaError("syntax", FORMULA_SYNTAX_MESSAGES.extraTokens, token.value, token.position);
    }
    return node;
  }

  parseExpression(): FormulaNode {
    this.enter();
    const node = this.parseOr();
    this.leave();
    return node;
  }

  private parseOr(): FormulaNode {
    let left = this.parseAnd();
    while (this.isWord("or") || this.isOperator("||")) {
      this.index++;
      left = { type: "binary", operator: "or", left, right: this.parseAnd() };
    }
    return left;
  }

  private parseAnd(): FormulaNode {
    let left = this.parseNot();
    while (this.isWord("and") || this.isOperator("&&")) {
      this.index++;
      left = { type: "binary", operator: "and", left, right: this.parseNot() };
    }
    return left;
  }

  private parseNot(): FormulaNode {
    if (this.isWord("not")) {
      this.index++;
      this.enter();
      const operand = this.parseNot();
      this.leave();
      return { type: "unary", operator: "not", operand };
    }
    return this.parsePredicate();
  }

  /** like, regex, in, between, is [not] null, and their `not` forms (`x not in [...]`). */
  private parsePredicate(): FormulaNode {
    let left = this.parseComparison();
    for (;;) {
      let negate = false;
      if (
        this.isWord("not") &&
        (this.isWord("like", 1) ||
          this.isWord("regex", 1) ||
          this.isWord("in", 1) ||
          this.isWord("between", 1))
      ) {
        negate = true;
        this.index++;
      }
      let node: FormulaNode;
      if (this.isWord("like") || this.isWord("regex")) {
        const operator = this.next().value.toLowerCase() as "like" | "regex";
        node = { type: "binary", operator, left, right: this.parseComparison() };
      } else if (this.isWord("in")) {
        this.index++;
        if (!this.isPunctuation("[")) {
          const token = this.peek();
          throw new FormulaError(
            "syntax",
            FORMULA_SYNTAX_MESSAGES.inExpectsArray,
            token.value,
            token.position,
          );
        }
        this.index++;
        node = { type: "in", value: left, list: this.parseList("]") };
      } else if (this.isWord("between")) {
        this.index++;
        const low = this.parseComparison();
        if (!this.isWord("and")) throw this.unexpected("and");
        this.index++;
        node = { type: "between", value: left, low, high: this.parseComparison() };
      } else if (this.isWord("is")) {
        this.index++;
        let negated = false;
        if (this.isWord("not")) {
          negated = true;
          this.index++;
        }
        if (!this.isWord("null")) {
          const token = this.peek();
          throw new FormulaError(
            "syntax",
            FORMULA_SYNTAX_MESSAGES.isExpectsNull,
            token.value,
            token.position,
          );
        }
        this.index++;
        node = { type: "isnull", value: left, negated };
      } else {
        return left;
      }
      left = negate ? { type: "unary", operator: "not", operand: node } : node;
    }
  }

  private parseComparison(): FormulaNode {
    let left = this.parseAdditive();
    for (;;) {
      const token = this.peek();
      const operator = token.type === "operator" ? COMPARISON_OPERATORS[token.value] : undefined;
      if (operator === undefined) return left;
      this.index++;
      left = { type: "binary", operator, left, right: this.parseAdditive() };
    }
  }

  private parseAdditive(): FormulaNode {
    let left = this.parseMultiplicative();
    while (this.isOperator("+") || this.isOperator("-")) {
      const operator = this.next().value as "+" | "-";
      left = { type: "binary", operator, left, right: this.parseMultiplicative() };
    }
    return left;
  }

  private parseMultiplicative(): FormulaNode {
    let left = this.parseUnary();
    while (this.isOperator("*") || this.isOperator("/") || this.isOperator("%")) {
      const operator = this.next().value as "*" | "/" | "%";
      left = { type: "binary", operator, left, right: this.parseUnary() };
    }
    return left;
  }

  private parseUnary(): FormulaNode {
    if (this.isOperator("-") || this.isOperator("+") || this.isOperator("!")) {
      const operator = this.next().value as "-" | "+" | "!";
      this.enter();
      const operand = this.parseUnary();
      this.leave();
      return { type: "unary", operator, operand };
    }
    return this.parsePostfix();
  }

  private parsePostfix(): FormulaNode {
    let node = this.parsePrimary();
    while (this.isPunctuation(".")) {
      this.index++;
      const token = this.peek();
      if (token.type !== "identifier") throw this.unexpected("identifier");
      this.index++;
      node = { type: "property_access", object: node, property: token.value };
    }
    return node;
  }

  private parsePrimary(): FormulaNode {
    const token = this.peek();
    switch (token.type) {
      case "number":
        this.index++;
        return { type: "number", value: Number(token.value) };
      case "string":
        this.index++;
        return { type: "string", value: token.value };
      case "identifier": {
        const word = token.value.toLowerCase();
        if (word === "true" || word === "false") {
          this.index++;
          return { type: "boolean", value: word === "true" };
        }
        if (word === "null") {
          this.index++;
          return { type: "null" };
        }
        if (KEYWORDS.has(word)) break;
        this.index++;
        if (this.isPunctuation("(")) {
          this.index++;
          return { type: "function_call", name: token.value, args: this.parseList(")") };
        }
        return { type: "var", name: token.value };
      }
      case "punctuation":
        if (token.value === "(") {
          this.index++;
          const node = this.parseExpression();
          this.expectPunctuation(")");
          return node;
        }
        if (token.value === "[") {
          this.index++;
          return { type: "array", elements: this.parseList("]") };
        }
        if (token.value === "{") {
          this.index++;
          return { type: "object", properties: this.parseProperties() };
        }
        break;
      default:
        break;
    }
    throw new FormulaError("syntax", FORMULA_SYNTAX_MESSAGES.unexpectedToken, token.value, token.position);
  }

  /** Comma-separated expressions up to `close` (the opening bracket is already consumed). */
  private parseList(close: string): FormulaNode[] {
    const items: FormulaNode[] = [];
    if (this.isPunctuation(close)) {
      this.index++;
      return items;
    }
    for (;;) {
      items.push(this.parseExpression());
      if (this.isPunctuation(",")) {
        this.index++;
        continue;
      }
      this.expectPunctuation(close);
      return items;
    }
  }

  private parseProperties(): FormulaObjectProperty[] {
    const properties: FormulaObjectProperty[] = [];
    if (this.isPunctuation("}")) {
      this.index++;
      return properties;
    }
    for (;;) {
      const token = this.peek();
      if (token.type !== "identifier" && token.type !== "string") throw this.unexpected("property name");
      this.index++;
      this.expectPunctuation(":");
      properties.push({ key: token.value, value: this.parseExpression() });
      if (this.isPunctuation(",")) {
        this.index++;
        continue;
      }
      this.expectPunctuation("}");
      return properties;
    }
  }
}

/** Children of a node, in source order. */
export function formulaChildren(node: FormulaNode): readonly FormulaNode[] {
  switch (node.type) {
    case "binary":
      return [node.left, node.right];
    case "unary":
      return [node.operand];
    case "array":
      return node.elements;
    case "object":
      return node.properties.map((property) => property.value);
    case "property_access":
      return [node.object];
    case "function_call":
      return node.args;
    case "in":
      return [node.value, ...node.list];
    case "between":
      return [node.value, node.low, node.high];
    case "isnull":
      return [node.value];
    default:
      return [];
  }
}

/** Depth of a syntax tree (a leaf has depth 1), measured without recursion. */
export function formulaDepth(root: FormulaNode): number {
  let deepest = 0;
  const stack: [FormulaNode, number][] = [[root, 1]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [node, depth] = item;
    if (depth > deepest) deepest = depth;
    for (const child of formulaChildren(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Parses tokens produced by tokenizeFormula. */
export function parseFormulaTokens(tokens: readonly FormulaToken[]): FormulaNode {
  const node = new Parser(tokens).parseFormula();
  if (formulaDepth(node) > FORMULA_MAX_DEPTH) throw tooDeep(0);
  return node;
}

/**
 * Parses formula text into a syntax tree. Throws FormulaError (kind "syntax") with one of the spec's
 * messages: `Unexpected token`, `Unexpected token: <type> <value>, expected <x>`,
 * `IN expects array like [x,y]`, `IS expects 'NULL'`, `Extra tokens after valid expression`,
 * `Unknown token`.
 */
export function parseFormula(text: string): FormulaNode {
  return parseFormulaTokens(tokenizeFormula(text));
}

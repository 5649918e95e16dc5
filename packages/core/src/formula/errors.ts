/**
 * The one error class the formula language throws, and its messages (product spec §5.1, word for word).
 */

/** Messages of the validator (returned in `errors`, never thrown). */
export const FORMULA_VALIDATION_MESSAGES = {
  empty: "Formula cannot be empty.",
  invalidCharacters: "Invalid characters: ",
  mismatchedParentheses: "Mismatched parentheses.",
  unknownField: "Unknown field: ",
} as const;

/** Messages thrown as FormulaError while tokenizing or parsing. */
export const FORMULA_SYNTAX_MESSAGES = {
  unexpectedToken: "Unexpected token",
  inExpectsArray: "IN expects array like [x,y]",
  isExpectsNull: "IS expects 'NULL'",
  extraTokens: "Extra tokens after valid expression",
  unknownToken: "Unknown token",
  /** Not in the spec: guards the call stack against absurdly nested input. */
  tooDeep: "Formula is too deeply nested.",
} as const;

/** Messages thrown as FormulaError while compiling or evaluating a syntax tree. */
export const FORMULA_EVALUATION_MESSAGES = {
  unknownOperator: "Unknown operator",
  unknownUnaryOperator: "Unknown unary operator",
  unknownFunction: "Unknown function",
  unknownNodeType: "Unknown AST node type",
} as const;

/** `Unexpected token: <type> <value>, expected <x>` (a required token is missing). */
export function unexpectedTokenMessage(type: string, value: string, expected: string): string {
  return `Unexpected token: ${type} ${value}, expected ${expected}`;
}

/**
 * "syntax": the text could not be read (tokenizer, parser); "evaluation": the tree could not be
 * compiled or evaluated (unknown operator, unknown function, unknown node type).
 */
export type FormulaErrorKind = "syntax" | "evaluation";

/**
 * The only error the tokenizer, parser, compiler and evaluators throw. `message` is the spec's text
 * exactly; `detail` names the offending token, operator, function or node type when there is one.
 */
export class FormulaError extends Error {
  override readonly name = "FormulaError";
  readonly kind: FormulaErrorKind;
  readonly detail: string | undefined;
  readonly position: number | undefined;

  constructor(kind: FormulaErrorKind, message: string, detail?: string, position?: number) {
    super(message);
    this.kind = kind;
    this.detail = detail;
    this.position = position;
  }
}

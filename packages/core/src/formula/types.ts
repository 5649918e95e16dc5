/**
 * Types of the formula language for custom dashboard metrics (product spec §5.1).
 */

/** Binary operators as they appear in the syntax tree (aliases are normalised by the parser). */
export type FormulaBinaryOperator =
  | "+"
  | "-"
  | "*"
  | "/"
  | "%"
  | "<"
  | "<="
  | ">"
  | ">="
  | "="
  | "!="
  | "like"
  | "regex"
  | "and"
  | "or";

/**
 * Unary operators. `-`, `+` and `!` bind tighter than `*`; the word `not` binds looser than the
 * comparisons and predicates (`not a = b` is `not (a = b)`), so the two spellings of "not" stay distinct.
 */
export type FormulaUnaryOperator = "-" | "+" | "!" | "not";

/** Syntax tree node kinds, exactly those of spec §5.1. */
export type FormulaNodeType =
  | "number"
  | "string"
  | "boolean"
  | "null"
  | "var"
  | "binary"
  | "unary"
  | "array"
  | "object"
  | "property_access"
  | "function_call"
  | "in"
  | "between"
  | "isnull";

export type FormulaNumberNode = { readonly type: "number"; readonly value: number };
export type FormulaStringNode = { readonly type: "string"; readonly value: string };
export type FormulaBooleanNode = { readonly type: "boolean"; readonly value: boolean };
export type FormulaNullNode = { readonly type: "null" };
export type FormulaVarNode = { readonly type: "var"; readonly name: string };
export type FormulaBinaryNode = {
  readonly type: "binary";
  readonly operator: FormulaBinaryOperator;
  readonly left: FormulaNode;
  readonly right: FormulaNode;
};
export type FormulaUnaryNode = {
  readonly type: "unary";
  readonly operator: FormulaUnaryOperator;
  readonly operand: FormulaNode;
};
export type FormulaArrayNode = { readonly type: "array"; readonly elements: readonly FormulaNode[] };
export type FormulaObjectProperty = { readonly key: string; readonly value: FormulaNode };
export type FormulaObjectNode = {
  readonly type: "object";
  readonly properties: readonly FormulaObjectProperty[];
};
export type FormulaPropertyAccessNode = {
  readonly type: "property_access";
  readonly object: FormulaNode;
  readonly property: string;
};
/** A call; `name` is kept as written (function names are case-insensitive). */
export type FormulaFunctionCallNode = {
  readonly type: "function_call";
  readonly name: string;
  readonly args: readonly FormulaNode[];
};
/** `value in [a, b, ...]`. */
export type FormulaInNode = {
  readonly type: "in";
  readonly value: FormulaNode;
  readonly list: readonly FormulaNode[];
};
/** `value between low and high` (inclusive). */
export type FormulaBetweenNode = {
  readonly type: "between";
  readonly value: FormulaNode;
  readonly low: FormulaNode;
  readonly high: FormulaNode;
};
/** `value is null` (negated: `value is not null`). */
export type FormulaIsNullNode = {
  readonly type: "isnull";
  readonly value: FormulaNode;
  readonly negated: boolean;
};

export type FormulaNode =
  | FormulaNumberNode
  | FormulaStringNode
  | FormulaBooleanNode
  | FormulaNullNode
  | FormulaVarNode
  | FormulaBinaryNode
  | FormulaUnaryNode
  | FormulaArrayNode
  | FormulaObjectNode
  | FormulaPropertyAccessNode
  | FormulaFunctionCallNode
  | FormulaInNode
  | FormulaBetweenNode
  | FormulaIsNullNode;

/**
 * A value produced by evaluation. Booleans never appear: they become 1 or 0. Arrays and objects come
 * from array/object literals or from row fields holding them.
 */
export type FormulaValue = number | string | null | readonly FormulaValue[] | FormulaObjectValue;
export type FormulaObjectValue = { readonly [key: string]: FormulaValue };

/** One row of data a formula is evaluated against (a conversation log row, for example). */
export type FormulaRow = Readonly<Record<string, unknown>>;

/** What evaluation may need besides the row. */
export type FormulaContext = {
  /** Clock for NOW(), in ms since the epoch. Without it NOW() reads Date.now(). */
  readonly now?: number;
  /** The set of rows aggregate functions (SUM(duration), ...) run over. */
  readonly rows?: readonly FormulaRow[];
};

/** A formula compiled once and evaluated per row. */
export type CompiledFormula = (row: FormulaRow, ctx?: FormulaContext) => FormulaValue;

export type FormulaTokenType = "number" | "string" | "identifier" | "operator" | "punctuation" | "eof";

export type FormulaToken = {
  readonly type: FormulaTokenType;
  /** Source text of the token; for strings, the unquoted contents. */
  readonly value: string;
  /** Offset of the token's first character in the formula text. */
  readonly position: number;
};

/**
 * The formula language of custom dashboard metrics (product spec §5.1).
 *
 * Text -> tokenizeFormula -> parseFormula (syntax tree) -> compileFormula (closures, evaluate per row)
 * or evaluateFormula / evaluateFormulaAst (the naive tree-walking interpreter); printFormula turns a
 * tree back into text; validateFormula checks text for the formula builder. Everything throws only
 * FormulaError, whose message is the spec's text.
 *
 * Precedence, loosest first: or ||; and &&; not; like, regex, in [..], between .. and .., is [not]
 * null (also `not like`, `not in`, ...); comparisons < <= > >= = == != <>; + -; * / %; prefix - + !;
 * property access `.name` and calls `name(...)`. Keywords and function names are case-insensitive;
 * field names are matched exactly first, then ignoring case. A leading `=` is ignored. Strings take
 * single or double quotes, a quote doubled inside stands for itself. Semantics: see values.ts and
 * functions.ts (division or modulo by zero 0, missing fields 0, booleans 1/0, comparisons 1/0).
 */
export { compileFormula, compileFormulaAst } from "./compiler.ts";
export {
  FORMULA_EVALUATION_MESSAGES,
  FORMULA_SYNTAX_MESSAGES,
  FORMULA_VALIDATION_MESSAGES,
  FormulaError,
  type FormulaErrorKind,
  unexpectedTokenMessage,
} from "./errors.ts";
export { FORMULA_AGGREGATES, FORMULA_FUNCTIONS, type FormulaAggregate } from "./functions.ts";
export { evaluateFormula, evaluateFormulaAst } from "./interpreter.ts";
export {
  FORMULA_KEYWORDS,
  FORMULA_MAX_DEPTH,
  FORMULA_MAX_NESTING,
  formulaChildren,
  formulaDepth,
  parseFormula,
  parseFormulaTokens,
} from "./parser.ts";
export { printFormula, quoteFormulaString } from "./printer.ts";
export { tokenizeFormula } from "./tokenizer.ts";
export type * from "./types.ts";
export {
  FORMULA_ALLOWED_NAMES,
  FORMULA_LOG_FIELDS,
  type FormulaValidation,
  validateFormula,
} from "./validator.ts";
export {
  compareFormulaValues,
  formulaEquals,
  isFormulaTruthy,
  normalizeFormulaValue,
  toFormulaNumber,
} from "./values.ts";

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

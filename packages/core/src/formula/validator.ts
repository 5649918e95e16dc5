/**
 * Live validation of formula text (spec §5.1), for the metric formula builder.
 */

import { LOG_FIXED_FIELDS } from "../logs/log-fields.ts";
import { compileFormula } from "./compiler.ts";
import { FORMULA_VALIDATION_MESSAGES, FormulaError } from "./errors.ts";
import { FORMULA_FUNCTIONS } from "./functions.ts";
import {
  isFormulaDigit,
  isFormulaIdentifierPart,
  isFormulaIdentifierStart,
  isFormulaWhitespace,
  scanFormulaNumber,
  scanFormulaString,
} from "./tokenizer.ts";

/** Fixed fields of a conversation log row (spec §3); dynamic fields come on top of these. */
export const FORMULA_LOG_FIELDS: readonly string[] = LOG_FIXED_FIELDS;

/**
 * Names a formula may use besides fields (spec §5.1): the functions and operator words, plus the
 * booleans `true`/`false` and `is` (for `is null`).
 */
export const FORMULA_ALLOWED_NAMES: readonly string[] = [
  ...FORMULA_FUNCTIONS,
  "and",
  "or",
  "not",
  "between",
  "in",
  "like",
  "regex",
  "null",
  "true",
  "false",
  "is",
];

export type FormulaValidation = { valid: boolean; errors: string[] };

const ALLOWED_SYMBOLS = new Set([
  "+",
  "-",
  "*",
  "/",
  "(",
  ")",
  ".",
  "<",
  ">",
  "=",
  "!",
  "&",
  "|",
  "%",
  ",",
  "[",
  "]",
  "'",
  '"',
]);

function isAllowedCharacter(char: string): boolean {
  const code = char.charCodeAt(0);
  return isFormulaIdentifierPart(code) || ALLOWED_SYMBOLS.has(char) || isFormulaWhitespace(char);
}

/** Characters outside the language's alphabet, each once, in order of appearance. */
function invalidCharacters(text: string): string[] {
  const found: string[] = [];
  for (const char of text) {
    if (!isAllowedCharacter(char) && !found.includes(char)) found.push(char);
  }
  return found;
}

/** Parentheses, quoted strings left out. */
function parenthesesBalanced(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "'" || char === '"') {
      i = (scanFormulaString(text, i)?.end ?? text.length) - 1;
    } else if (char === "(") {
      depth++;
    } else if (char === ")") {
      depth--;
      if (depth < 0) return false;
    }
  }
  return depth === 0;
}

/**
 * Identifiers that are neither a known field nor an allowed name (case-insensitive), each once,
 * as first written. Quoted strings, numbers (with their exponent) and property names after a dot
 * are not identifiers.
 */
function unknownIdentifiers(text: string, fields: readonly string[]): string[] {
  const known = new Set<string>();
  for (const name of FORMULA_ALLOWED_NAMES) known.add(name);
  for (const field of fields) known.add(field.toLowerCase());
  const unknown: string[] = [];
  const reported = new Set<string>();
  let previous = "";
  let i = 0;
  while (i < text.length) {
    const char = text[i] as string;
    const code = text.charCodeAt(i);
    if (char === "'" || char === '"') {
      i = scanFormulaString(text, i)?.end ?? text.length;
      previous = char;
    } else if (isFormulaDigit(code)) {
      i = scanFormulaNumber(text, i);
      previous = "0";
    } else if (isFormulaIdentifierStart(code)) {
      let end = i + 1;
      while (end < text.length && isFormulaIdentifierPart(text.charCodeAt(end))) end++;
      const name = text.slice(i, end);
      const lower = name.toLowerCase();
      if (previous !== "." && !known.has(lower) && !reported.has(lower)) {
        reported.add(lower);
        unknown.push(name);
      }
      i = end;
      previous = "a";
    } else {
      if (!isFormulaWhitespace(char)) previous = char;
      i++;
    }
  }
  return unknown;
}

/**
 * Validates formula text. The checks and messages of spec §5.1, in this order:
 * `Formula cannot be empty.` (alone); `Invalid characters: <each offending character once, joined
 * with ", ">`; `Mismatched parentheses.`; `Unknown field: <name>` for each unknown identifier.
 * The alphabet check covers the whole text, quoted strings included (as the spec states it), so a
 * regex pattern is written with the same characters (`[+]1` rather than `^\+1`); the parenthesis and
 * field checks skip quoted strings. A leading `=` is ignored. When those pass, the formula must also
 * parse and compile: a parse or compile failure adds its FormulaError message (for example
 * `Unexpected token`).
 *
 * @param fields the known field names (log row fields plus dynamic fields); matched case-insensitively.
 */
export function validateFormula(
  text: string,
  fields: readonly string[] = FORMULA_LOG_FIELDS,
): FormulaValidation {
  const body = text.replace(/^\s*=(?!=)/, "");
  if (body.trim() === "") {
    return { valid: false, errors: [FORMULA_VALIDATION_MESSAGES.empty] };
  }
  const errors: string[] = [];
  const invalid = invalidCharacters(body);
  if (invalid.length > 0)
    errors.push(`${FORMULA_VALIDATION_MESSAGES.invalidCharacters}${invalid.join(", ")}`);
  if (!parenthesesBalanced(body)) errors.push(FORMULA_VALIDATION_MESSAGES.mismatchedParentheses);
  for (const name of unknownIdentifiers(body, fields)) {
    errors.push(`${FORMULA_VALIDATION_MESSAGES.unknownField}${name}`);
  }
  if (errors.length === 0) {
    try {
      compileFormula(body);
    } catch (error) {
      if (!(error instanceof FormulaError)) throw error;
      errors.push(error.message);
    }
  }
  return { valid: errors.length === 0, errors };
}

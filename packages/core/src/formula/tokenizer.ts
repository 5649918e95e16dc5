import { FORMULA_SYNTAX_MESSAGES, FormulaError } from "./errors.ts";
import type { FormulaToken, FormulaTokenType } from "./types.ts";

const TWO_CHAR_OPERATORS = new Set(["<=", ">=", "<>", "!=", "==", "&&", "||"]);
const ONE_CHAR_OPERATORS = new Set(["<", ">", "=", "!", "+", "-", "*", "/", "%"]);
const PUNCTUATION = new Set(["(", ")", "[", "]", "{", "}", ",", ":", "."]);

export function isFormulaDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

export function isFormulaIdentifierStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

export function isFormulaIdentifierPart(code: number): boolean {
  return isFormulaIdentifierStart(code) || isFormulaDigit(code);
}

/** Whitespace exactly as a regular expression's `\s` understands it. */
export function isFormulaWhitespace(char: string): boolean {
  const code = char.charCodeAt(0);
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return /^\s$/u.test(char);
}

/**
 * End offset of the number starting at `start`: digits, an optional fraction (a dot followed by at
 * least one digit) and an optional exponent (e or E, optional sign, at least one digit).
 */
export function scanFormulaNumber(text: string, start: number): number {
  let i = start;
  while (i < text.length && isFormulaDigit(text.charCodeAt(i))) i++;
  if (text[i] === "." && isFormulaDigit(text.charCodeAt(i + 1))) {
    i += 2;
    while (i < text.length && isFormulaDigit(text.charCodeAt(i))) i++;
  }
  if (text[i] === "e" || text[i] === "E") {
    let j = i + 1;
    if (text[j] === "+" || text[j] === "-") j++;
    if (isFormulaDigit(text.charCodeAt(j))) {
      i = j;
      while (i < text.length && isFormulaDigit(text.charCodeAt(i))) i++;
    }
  }
  return i;
}

/**
 * Reads the quoted string whose opening quote is at `start`. A quote character is written inside a
 * string of the same quote by doubling it (`'it''s'`); backslashes have no special meaning, so regex
 * patterns are written as they are. Returns null when the string is not terminated.
 */
export function scanFormulaString(text: string, start: number): { value: string; end: number } | null {
  const quote = text[start];
  let value = "";
  let i = start + 1;
  while (i < text.length) {
    const char = text[i];
    if (char === quote) {
      if (text[i + 1] === quote) {
        value += quote;
        i += 2;
        continue;
      }
      return { value, end: i + 1 };
    }
    value += char;
    i++;
  }
  return null;
}

/**
 * Splits formula text into tokens, ending with an `eof` token whose value is "EOF".
 * Throws FormulaError `Unknown token` on a character that starts no token (or an unterminated string).
 */
export function tokenizeFormula(text: string): FormulaToken[] {
  const tokens: FormulaToken[] = [];
  const push = (type: FormulaTokenType, value: string, position: number) => {
    tokens.push({ type, value, position });
  };
  let i = 0;
  while (i < text.length) {
    const char = text[i] as string;
    const code = text.charCodeAt(i);
    if (isFormulaWhitespace(char)) {
      i++;
      continue;
    }
    if (isFormulaDigit(code)) {
      const end = scanFormulaNumber(text, i);
      push("number", text.slice(i, end), i);
      i = end;
      continue;
    }
    if (isFormulaIdentifierStart(code)) {
      let end = i + 1;
      while (end < text.length && isFormulaIdentifierPart(text.charCodeAt(end))) end++;
      push("identifier", text.slice(i, end), i);
      i = end;
      continue;
    }
    if (char === "'" || char === '"') {
      const scanned = scanFormulaString(text, i);
      if (scanned === null) {
        throw new FormulaError("syntax", FORMULA_SYNTAX_MESSAGES.unknownToken, char, i);
      }
      push("string", scanned.value, i);
      i = scanned.end;
      continue;
    }
    const pair = text.slice(i, i + 2);
    if (TWO_CHAR_OPERATORS.has(pair)) {
      push("operator", pair, i);
      i += 2;
      continue;
    }
    if (ONE_CHAR_OPERATORS.has(char)) {
      push("operator", char, i);
      i++;
      continue;
    }
    if (PUNCTUATION.has(char)) {
      push("punctuation", char, i);
      i++;
      continue;
    }
    throw new FormulaError("syntax", FORMULA_SYNTAX_MESSAGES.unknownToken, char, i);
  }
  push("eof", "EOF", text.length);
  return tokens;
}

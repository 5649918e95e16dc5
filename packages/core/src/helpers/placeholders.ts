/**
 * An agent's `{key}` variables filled in: the one way every surface that shows an agent's words (the test
 * chat, the public page and widget, calls, texts, tasks, voicemail messages) turns its instructions,
 * greeting and messages into text. Keys are compared without case and trimmed (`{ First Name }` reaches a
 * "first name" value). A key is letters, digits, `_`, `.`, `-` and inner spaces, so `{"a": 1}` is no
 * variable.
 */
const PLACEHOLDER = /\{\s*([\p{L}\p{N}_](?:[\p{L}\p{N}_ .-]{0,98}[\p{L}\p{N}_])?)\s*\}/gu;
const TERMINAL = /[.!?]+$/;
const CLAUSE_BREAK = /([,;]\s+)/;
/** A clause opening with one of these leans on the next one: left alone, it says nothing. */
const LEANING =
  /^(?:if|when|whenever|where|for|because|unless|while|after|before|although|though|as|since|once|until|with|without|to|and|or|but|so)\b/i;

export type FillOptions = {
  /**
   * Leave a variable with no value as written (`{clinicName}`), for text its owner still edits (a drafted
   * agent's instructions). By default such a variable is left out with the clause or sentence that needs
   * it, so what a person reads or hears never shows `{…}`.
   */
  keepMissing?: boolean;
};

/** The value of `key` among `values` (exact key first, then without case); undefined when empty or absent. */
export function variableValue(values: Readonly<Record<string, string>>, key: string): string | undefined {
  const wanted = key.trim();
  let value = Object.hasOwn(values, wanted) ? values[wanted] : undefined;
  if (value === undefined) {
    const lower = wanted.toLowerCase();
    for (const [name, candidate] of Object.entries(values))
      if (name.trim().toLowerCase() === lower) {
        value = candidate;
        break;
      }
  }
  return typeof value === "string" && value.trim() ? value.trim() : undefined;
}

/**
 * `text` with its variables filled from `values`. A variable without a value is left out gracefully: the
 * clause holding it (between commas or semicolons) is dropped when the rest of its sentence still stands
 * on its own (it does not open with "if", "for", "when", ...), else the whole sentence; a line left empty
 * goes too. "Thank you for calling {clinicName}, how
 * can I help you today?" without a clinic name reads "How can I help you today?".
 */
export function fillVariables(
  text: string,
  values: Readonly<Record<string, string>>,
  options: FillOptions = {},
): string {
  const fill = (part: string) =>
    part.replace(PLACEHOLDER, (whole, key: string) => variableValue(values, key) ?? whole);
  if (options.keepMissing) return fill(text);
  const missing = (part: string) =>
    [...part.matchAll(PLACEHOLDER)].some((match) => variableValue(values, match[1] ?? "") === undefined);
  const lines: string[] = [];
  for (const line of text.split("\n")) {
    if (!missing(line)) {
      lines.push(fill(line));
      continue;
    }
    const indent = /^\s*/.exec(line)?.[0] ?? "";
    const kept = sentencesOf(line)
      .map((sentence) => (missing(sentence) ? withoutMissing(sentence, missing) : sentence))
      .join("")
      .trim();
    if (kept) lines.push(indent + fill(kept));
  }
  return lines.join("\n");
}

/** The sentences of one line, each with the space after it: a sentence ends at `.`, `!` or `?` before a space. */
function sentencesOf(line: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  let depth = 0;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (char === "{") depth++;
    else if (char === "}") depth = Math.max(0, depth - 1);
    else if (depth === 0 && (char === "." || char === "!" || char === "?")) {
      let end = i + 1;
      while (end < line.length && ".!?".includes(line[end] ?? "")) end++;
      if (end < line.length && !/\s/.test(line[end] ?? "")) continue;
      while (end < line.length && /\s/.test(line[end] ?? "")) end++;
      sentences.push(line.slice(start, end));
      start = end;
      i = end - 1;
    }
  }
  if (start < line.length) sentences.push(line.slice(start));
  return sentences;
}

/** A sentence without the clauses whose variables have no value; "" when nothing worth saying is left. */
function withoutMissing(sentence: string, missing: (part: string) => boolean): string {
  const trailing = /\s*$/.exec(sentence)?.[0] ?? "";
  const body = sentence.trim();
  const terminal = TERMINAL.exec(body)?.[0] ?? "";
  const parts = body.slice(0, body.length - terminal.length).split(CLAUSE_BREAK);
  let kept = "";
  for (let i = 0; i < parts.length; i += 2) {
    const clause = parts[i] ?? "";
    if (missing(clause) || !/[\p{L}\p{N}]/u.test(clause)) continue;
    kept += kept ? `${parts[i - 1] ?? ", "}${clause}` : clause;
  }
  if (!kept || LEANING.test(kept)) return "";
  // A sentence that lost its first clause starts with a capital as it did.
  const opened = /^\p{Lu}/u.test(body) ? kept.charAt(0).toUpperCase() + kept.slice(1) : kept;
  return `${opened}${terminal}${trailing}`;
}

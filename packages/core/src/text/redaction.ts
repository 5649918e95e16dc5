/**
 * Personal data in what people say or write, replaced by what it was (`[card number]`) before anything is
 * stored: card numbers (13-19 digits passing the Luhn check), social-security-style numbers (3-2-4 digits,
 * or nine digits after "social security" / "SSN"), dates of birth (a date after "born", "birth", "DOB" or
 * "birthday" — other dates, such as an appointment's, stay), e-mail addresses (also spoken: "jane at example
 * dot com") and phone numbers (10 to 15 digits). Digits may be written or spoken ("four one one one"), and
 * grouped with spaces, dashes, dots or brackets. Each kind is switched on by the organisation.
 */

export const REDACTION_KINDS = ["cardNumbers", "ssn", "datesOfBirth", "emails", "phoneNumbers"] as const;
export type RedactionKind = (typeof REDACTION_KINDS)[number];
export type RedactionSettings = Record<RedactionKind, boolean>;

/** What each kind is replaced with. */
export const REDACTION_LABELS: Record<RedactionKind, string> = {
  cardNumbers: "[card number]",
  ssn: "[social security number]",
  datesOfBirth: "[date of birth]",
  emails: "[email address]",
  phoneNumbers: "[phone number]",
};

/** What the settings page calls each kind. */
export const REDACTION_KIND_NAMES: Record<RedactionKind, string> = {
  cardNumbers: "Card numbers",
  ssn: "Social security numbers",
  datesOfBirth: "Dates of birth",
  emails: "E-mail addresses",
  phoneNumbers: "Phone numbers",
};

export const REDACTION_OFF: RedactionSettings = {
  cardNumbers: false,
  ssn: false,
  datesOfBirth: false,
  emails: false,
  phoneNumbers: false,
};

/** The settings stored under an organisation's `settings.redaction` (anything else reads as off). */
export function redactionSettingsOf(value: unknown): RedactionSettings {
  const stored = value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  const settings = { ...REDACTION_OFF };
  for (const kind of REDACTION_KINDS) settings[kind] = stored[kind] === true;
  return settings;
}

export function redactionEnabled(settings: RedactionSettings): boolean {
  return REDACTION_KINDS.some((kind) => settings[kind]);
}

const DIGIT_WORDS: Record<string, string> = {
  zero: "0",
  oh: "0",
  o: "0",
  one: "1",
  two: "2",
  three: "3",
  four: "4",
  five: "5",
  six: "6",
  seven: "7",
  eight: "8",
  nine: "9",
};
const DIGIT_WORD = "(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)";
/** A run of digits and spoken digits, grouped by single separators (space, dash, dot, brackets). */
const DIGIT_RUN = new RegExp(
  `\\+?(?:\\d+|\\(\\d+\\)|${DIGIT_WORD}\\b)(?:[ .\\-]{0,2}(?:\\d+|\\(\\d+\\)|${DIGIT_WORD}\\b))*`,
  "gi",
);

function digitsOf(run: string): string {
  let digits = "";
  for (const token of run.toLowerCase().match(/\d|[a-z]+/g) ?? []) {
    if (/^\d$/.test(token)) digits += token;
    else digits += DIGIT_WORDS[token] ?? "";
  }
  return digits;
}

/** The Luhn check of a card number's digits. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

const SSN_CONTEXT = /(social security|\bssn\b|\bsocial\b)[^.?!]{0,30}$/i;
const BIRTH_CONTEXT = /(born|birth|\bdob\b|d\.o\.b\.?|birthday)[^.?!]{0,30}$/i;
const MONTHS =
  "(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
const DAY = "(?:[0-3]?\\d(?:st|nd|rd|th)?)";
const YEAR = "(?:(?:19|20)\\d{2})";
const DATE = new RegExp(
  [
    `\\b[0-3]?\\d[/.\\-][0-3]?\\d[/.\\-](?:${YEAR}|\\d{2})\\b`,
    `\\b${YEAR}-[01]\\d-[0-3]\\d\\b`,
    `\\b${MONTHS}\\.? ${DAY}(?:,? ${YEAR})?\\b`,
    `\\b(?:the )?${DAY} (?:of )?${MONTHS}(?:,? ${YEAR})?\\b`,
  ].join("|"),
  "gi",
);
const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.[\p{L}]{2,}/gu;
const SPOKEN_EMAIL =
  /\b[\p{L}\p{N}._-]+ at [\p{L}\p{N}-]+(?: dot [\p{L}\p{N}-]+)*? dot (?:com|org|net|edu|gov|io|co|uk|de|fr|ca|au|us|info|biz|me)\b/giu;

type Span = { start: number; end: number; label: string };

function overlaps(spans: Span[], start: number, end: number): boolean {
  return spans.some((span) => start < span.end && end > span.start);
}

/** The spans of `text` each enabled kind finds, in the order card, SSN, date of birth, e-mail, phone. */
function findSpans(text: string, settings: RedactionSettings): Span[] {
  const spans: Span[] = [];
  const add = (start: number, end: number, kind: RedactionKind) => {
    if (!overlaps(spans, start, end)) spans.push({ start, end, label: REDACTION_LABELS[kind] });
  };
  if (settings.emails) {
    for (const match of text.matchAll(EMAIL)) add(match.index, match.index + match[0].length, "emails");
    for (const match of text.matchAll(SPOKEN_EMAIL))
      add(match.index, match.index + match[0].length, "emails");
  }
  if (settings.datesOfBirth) {
    for (const match of text.matchAll(DATE)) {
      if (BIRTH_CONTEXT.test(text.slice(Math.max(0, match.index - 60), match.index)))
        add(match.index, match.index + match[0].length, "datesOfBirth");
    }
  }
  const runs = [...text.matchAll(DIGIT_RUN)].map((match) => {
    // A run ends with a separator or a bracket it did not need.
    const raw = match[0].replace(/[ .\-(]+$/, "");
    return { start: match.index, end: match.index + raw.length, digits: digitsOf(raw) };
  });
  for (const run of runs) {
    if (overlaps(spans, run.start, run.end)) continue;
    const n = run.digits.length;
    if (settings.cardNumbers && n >= 13 && n <= 19 && luhnValid(run.digits)) {
      add(run.start, run.end, "cardNumbers");
      continue;
    }
    if (settings.ssn && n === 9) {
      const grouped = /^\d{3}[ -]\d{2}[ -]\d{4}$/.test(text.slice(run.start, run.end));
      const said = SSN_CONTEXT.test(text.slice(Math.max(0, run.start - 60), run.start));
      if (grouped || said) {
        add(run.start, run.end, "ssn");
        continue;
      }
    }
    if (settings.phoneNumbers && n >= 10 && n <= 15) add(run.start, run.end, "phoneNumbers");
  }
  return spans.sort((a, b) => a.start - b.start);
}

/** `text` with the enabled kinds of personal data replaced; the same string when there is none. */
export function redactText(text: string, settings: RedactionSettings): string {
  if (!text || !redactionEnabled(settings)) return text;
  const spans = findSpans(text, settings);
  if (spans.length === 0) return text;
  let out = "";
  let at = 0;
  for (const span of spans) {
    out += text.slice(at, span.start) + span.label;
    at = span.end;
  }
  return out + text.slice(at);
}

/**
 * Every string inside `value` (objects and arrays, any depth) redacted; keys named like identifiers or
 * addresses of files (`id`, `…Id`, `uuid`, `…Url`) are left as they are. Answers the same object when
 * nothing changed.
 */
export function redactDeep<T>(value: T, settings: RedactionSettings): T {
  if (!redactionEnabled(settings)) return value;
  const walk = (item: unknown, key: string | null): unknown => {
    if (typeof item === "string")
      return key !== null && KEPT_KEY.test(key) ? item : redactText(item, settings);
    if (Array.isArray(item)) {
      const next = item.map((entry) => walk(entry, key));
      return next.some((entry, i) => entry !== item[i]) ? next : item;
    }
    if (item && typeof item === "object") {
      let changed = false;
      const next: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(item)) {
        const w = walk(v, k);
        if (w !== v) changed = true;
        next[k] = w;
      }
      return changed ? next : item;
    }
    return item;
  };
  return walk(value, null) as T;
}

const KEPT_KEY = /^(id|uuid|url)$|(Id|Uuid|Url|Ids)$/;

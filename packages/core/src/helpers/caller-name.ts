/**
 * Caller-name (CNAM) heuristic of product spec §5: does a caller-ID name look like a person's name?
 */

/** Placeholder names carriers put in caller ID instead of a person's name, lower case. */
export const PLACEHOLDER_CALLER_NAMES = [
  "wireless caller",
  "unknown",
  "restricted",
  "unavailable",
  "out of area",
  "anonymous",
  "private",
  "blocked",
  "spam",
  "scam likely",
  "toll free",
  "toll free call",
] as const;

/** Two-letter codes of the 50 US states and the District of Columbia. */
export const US_STATE_CODES = [
  "AL",
  "AK",
  "AZ",
  "AR",
  "CA",
  "CO",
  "CT",
  "DE",
  "FL",
  "GA",
  "HI",
  "ID",
  "IL",
  "IN",
  "IA",
  "KS",
  "KY",
  "LA",
  "ME",
  "MD",
  "MA",
  "MI",
  "MN",
  "MS",
  "MO",
  "MT",
  "NE",
  "NV",
  "NH",
  "NJ",
  "NM",
  "NY",
  "NC",
  "ND",
  "OH",
  "OK",
  "OR",
  "PA",
  "RI",
  "SC",
  "SD",
  "TN",
  "TX",
  "UT",
  "VT",
  "VA",
  "WA",
  "WV",
  "WI",
  "WY",
  "DC",
] as const;

const PLACEHOLDERS: ReadonlySet<string> = new Set(PLACEHOLDER_CALLER_NAMES);
const STATE_CODES: ReadonlySet<string> = new Set(US_STATE_CODES);

/** Words of letters (any script, with combining marks) separated by single spaces. */
const LETTER_WORDS = /^[\p{L}\p{M}]+(?: [\p{L}\p{M}]+)*$/u;

/**
 * A caller name is a person's name when, after trimming and collapsing runs of spaces, it is letters only
 * (spaces allowed between words), is not one of {@link PLACEHOLDER_CALLER_NAMES} (case-insensitive), and its
 * last word is not a US state code (case-insensitive) — carriers show places as `CITY ST`. The state-code rule
 * applies only to names of two or more words, so a lone first name such as `Al` still counts as a name.
 */
export function isPersonName(value: string | null | undefined): boolean {
  if (typeof value !== "string") return false;
  const name = value.trim().replace(/ {2,}/g, " ");
  if (!LETTER_WORDS.test(name)) return false;
  if (PLACEHOLDERS.has(name.toLowerCase())) return false;
  const words = name.split(" ");
  const last = words[words.length - 1] ?? "";
  return !(words.length > 1 && STATE_CODES.has(last.toUpperCase()));
}

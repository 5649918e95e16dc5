/** Any number of leading `scheme://` prefixes, e.g. `https://http://`. */
const LEADING_PROTOCOLS = /^(?:[a-z][a-z\d+.-]*:\/\/)+/i;

/**
 * Normalises a user-typed URL (product spec §5): repeated leading protocol prefixes are stripped and
 * `https://` is prepended. Surrounding whitespace is trimmed; an empty input stays empty.
 */
export function normalizeUrl(value: string): string {
  const rest = value.trim().replace(LEADING_PROTOCOLS, "");
  return rest === "" ? "" : `https://${rest}`;
}

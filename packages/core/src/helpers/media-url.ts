/** `https://` with a host, then a path, query or fragment (or nothing); no whitespace or controls. */
const HTTPS_URL = /^https:\/\/[^\s/?#\\]+(?:[/?#][^\s\\]*)?$/i;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * May a message's media URL be stored and shown as a link? Only https URLs, and the server's own file
 * URLs (`<own origin>/files/...`, which is http on a local install). Everything else — `javascript:`,
 * `data:`, `vbscript:`, plain http elsewhere, relative or malformed values — is refused: such a URL as a
 * link or picture source runs script or leaks the viewer's address.
 */
export function isSafeMediaUrl(url: string, ownOrigin?: string): boolean {
  if (CONTROL.test(url)) return false;
  if (HTTPS_URL.test(url)) return true;
  if (!ownOrigin) return false;
  const origin = ownOrigin.replace(/\/+$/, "");
  return (
    /^https?:\/\/[^\s/?#\\]+$/i.test(origin) &&
    url.toLowerCase().startsWith(`${origin.toLowerCase()}/files/`) &&
    !/\s|\\/.test(url)
  );
}

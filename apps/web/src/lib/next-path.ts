/**
 * Where to go after signing in: the `next` query value when it is a path of this site, otherwise /app.
 * Absolute URLs and protocol-relative paths (`//evil.example`) are refused, so a link cannot send a
 * freshly signed-in user elsewhere.
 */
export function safeNextPath(next: string | null | undefined, fallback = "/app"): string {
  if (!next) return fallback;
  const value = next.trim();
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  try {
    const url = new URL(value, "http://same-origin.invalid");
    if (url.origin !== "http://same-origin.invalid") return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}

/** `/signin?next=<where the user was going>`. */
export function signInPath(next: string, page: "signin" | "signup" = "signin"): string {
  return next && next !== "/app" ? `/${page}?next=${encodeURIComponent(next)}` : `/${page}`;
}

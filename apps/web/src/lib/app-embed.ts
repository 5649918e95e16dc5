const EMBED_VALUES = new Set(["true", "1", "yes", "y", ""]);

/** `appEmbed` asks for the embedded view when it is true, 1, yes, y or present with no value (spec §2.2). */
export function isAppEmbedQuery(search: string | URLSearchParams): boolean {
  const params = typeof search === "string" ? new URLSearchParams(search) : search;
  const value = params.get("appEmbed");
  return value !== null && EMBED_VALUES.has(value.trim().toLowerCase());
}

/** True when the page sits in a frame of another origin (reading the parent's location then throws). */
export function isInCrossOriginFrame(win: Window): boolean {
  try {
    if (win.self === win.top) return false;
    return win.top?.location.origin !== win.location.origin;
  } catch {
    return true;
  }
}

/** The app chrome (sidebar and header) is hidden when the query asks for it or a foreign page frames us. */
export function isEmbedded(search: string | URLSearchParams, win: Window | undefined): boolean {
  return isAppEmbedQuery(search) || (win !== undefined && isInCrossOriginFrame(win));
}

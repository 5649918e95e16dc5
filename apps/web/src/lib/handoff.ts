/**
 * Signing in from a link (spec §8 "Login handoff"): `?oneTimeToken=` on any /app URL (invitation links,
 * another device) is exchanged through GET /api/v1/oneTimeAuth; inside the mobile app, the native app may
 * hand over a session as `token`, `cloudId` and `username`.
 */

export const HANDOFF_MESSAGES = {
  /** One-time token login lacks username or token. */
  couldNotAuthenticate: "Could not authenticate with token",
  /** No token given. */
  noToken: "No auth token provided",
  /** Mobile hand-off lacks token, cloudId or username. */
  unableToAuthenticate: "Unable to authenticate user",
} as const;

/** Query parameters a hand-off uses; they are removed from the address once it is handled. */
export const HANDOFF_PARAMS = ["oneTimeToken", "token", "cloudId", "username"] as const;

export type Handoff =
  | { kind: "none" }
  | { kind: "oneTime"; oneTimeToken: string }
  | { kind: "session"; token: string; id: number; username: string }
  | { kind: "error"; message: string };

/** What the address asks for. */
export function resolveHandoff(search: string | URLSearchParams, isMobileApp: boolean): Handoff {
  const params = typeof search === "string" ? new URLSearchParams(search) : search;
  if (params.has("oneTimeToken")) {
    const oneTimeToken = params.get("oneTimeToken")?.trim() ?? "";
    return oneTimeToken
      ? { kind: "oneTime", oneTimeToken }
      : { kind: "error", message: HANDOFF_MESSAGES.noToken };
  }
  if (isMobileApp && (params.has("token") || params.has("cloudId") || params.has("username"))) {
    const token = params.get("token")?.trim() ?? "";
    const cloudId = Number(params.get("cloudId")?.trim() || Number.NaN);
    const username = params.get("username")?.trim() ?? "";
    if (!token || !username || !Number.isSafeInteger(cloudId) || cloudId <= 0) {
      return { kind: "error", message: HANDOFF_MESSAGES.unableToAuthenticate };
    }
    return { kind: "session", token, id: cloudId, username };
  }
  return { kind: "none" };
}

/** The one-time-token answer must carry a token and a username (spec §8). */
export function checkOneTimeAnswer(
  answer: { token?: unknown; username?: unknown; id?: unknown } | null | undefined,
): { token: string; username: string; id: number } {
  if (
    !answer ||
    typeof answer.token !== "string" ||
    !answer.token ||
    typeof answer.username !== "string" ||
    !answer.username
  ) {
    throw new Error(HANDOFF_MESSAGES.couldNotAuthenticate);
  }
  return {
    token: answer.token,
    username: answer.username,
    id: typeof answer.id === "number" ? answer.id : 0,
  };
}

/** The search string without the hand-off parameters. */
export function searchWithoutHandoff(search: string): string {
  const params = new URLSearchParams(search);
  for (const key of HANDOFF_PARAMS) params.delete(key);
  const text = params.toString();
  return text ? `?${text}` : "";
}

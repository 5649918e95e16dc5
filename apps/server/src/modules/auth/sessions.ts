import { hashToken, newToken } from "../../access/secrets.ts";
import type { Database } from "../../db/client.ts";
import { authTokens } from "../../db/schema/index.ts";

export const SESSION_TTL_MS = 30 * 24 * 60 * 60_000;

/** Issues a session token for a user on an account (seeding, tests, hand-offs). */
export async function issueSessionToken(
  db: Database,
  userId: number,
  accountId: number | null,
  ttlMs = SESSION_TTL_MS,
): Promise<string> {
  const token = newToken();
  await db.insert(authTokens).values({
    userId,
    accountId,
    kind: "session",
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + ttlMs),
  });
  return token;
}

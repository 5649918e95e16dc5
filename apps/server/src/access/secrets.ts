import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { appSettings } from "../db/schema/index.ts";

/** A bearer token: 256 random bits, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Tokens are random and long, so a plain SHA-256 is enough to keep them unusable if the table leaks. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A six-digit code, uniformly random. */
export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

/**
 * Six digits are easy to brute-force from a plain hash, so codes are keyed with the server's secret
 * and bound to the address they were sent to.
 */
export function hashCode(secret: string, address: string, code: string): string {
  return createHmac("sha256", secret).update(`${address}\n${code}`).digest("hex");
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}

/** SECRET_KEY when configured; otherwise one generated key shared by every instance through the database. */
export async function resolveSecretKey(db: Database, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  await db
    .insert(appSettings)
    .values({ key: "secret_key", value: randomBytes(32).toString("hex") })
    .onConflictDoNothing();
  const [row] = await db.select().from(appSettings).where(eq(appSettings.key, "secret_key"));
  if (!row) throw new Error("could not read the generated secret key");
  return row.value;
}

import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/**
 * API keys at rest: AES-256-GCM under a key derived from the server's SECRET_KEY (or the generated one).
 * Stored as `v1:<base64 iv|tag|ciphertext>`. A key changed SECRET_KEY cannot decrypt fails loudly.
 */

const deriveKey = (secret: string) =>
  createHash("sha256").update(`switchboard:llm-api-key\n${secret}`).digest();

export function encryptSecret(secret: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", deriveKey(secret), iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `v1:${Buffer.concat([iv, cipher.getAuthTag(), data]).toString("base64")}`;
}

export function decryptSecret(secret: string, stored: string): string {
  if (!stored.startsWith("v1:")) throw new Error("unknown encrypted key format");
  const raw = Buffer.from(stored.slice(3), "base64");
  const decipher = createDecipheriv("aes-256-gcm", deriveKey(secret), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}

/** What the browser may see of a key: a few leading characters and the last four (`sk-…a1b2`). */
export function maskSecret(plain: string): string {
  if (plain.length <= 8) return "••••";
  return `${plain.slice(0, 3)}…${plain.slice(-4)}`;
}

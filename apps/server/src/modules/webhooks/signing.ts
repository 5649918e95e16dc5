import { createHmac, randomBytes } from "node:crypto";

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` + base64 of random
 * bytes; the signature of a delivery is `v1,` + base64 HMAC-SHA256, under those bytes, of
 * `<webhook-id>.<webhook-timestamp>.<body>`. Several signatures (a rotated secret's beside the new one) are
 * separated by spaces.
 */

const PREFIX = "whsec_";

export function newWebhookSecret(): string {
  return `${PREFIX}${randomBytes(24).toString("base64")}`;
}

/** A `webhook-id`: unique per event and endpoint, the same on every attempt. */
export function newMessageId(): string {
  return `msg_${randomBytes(16).toString("base64url")}`;
}

export function signPayload(secret: string, messageId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64");
  const signature = createHmac("sha256", key).update(`${messageId}.${timestamp}.${body}`).digest("base64");
  return `v1,${signature}`;
}

/** The three headers of a delivery, signed with every secret given. */
export function signatureHeaders(
  secrets: string[],
  messageId: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": secrets.map((secret) => signPayload(secret, messageId, timestamp, body)).join(" "),
  };
}

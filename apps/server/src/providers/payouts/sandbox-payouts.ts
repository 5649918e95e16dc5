import { randomBytes } from "node:crypto";
import type { PayoutsProvider } from "./payouts-provider.ts";

/** How long a sandbox payout stays pending before it succeeds (PayPal's take seconds to minutes). */
export const SANDBOX_PAYOUT_SECONDS = 3;

/**
 * Receivers the sandbox cannot pay, like PayPal's sandbox for an account that does not exist: addresses at
 * the reserved `.invalid` domain (RFC 2606) fail with RECEIVER_UNREGISTERED once the payout is processed.
 */
export const SANDBOX_FAILING_DOMAIN = ".invalid";
export const SANDBOX_PAYOUT_FAILURE = "RECEIVER_UNREGISTERED: the receiver has no PayPal or Venmo account.";

/**
 * The offline payouts sandbox (PAYOUTS=sandbox): accepts a payout batch like PayPal's sandbox (an
 * unguessable batch id, shown on /sandbox/payouts/{batchId}), keeps it pending for a few seconds, then
 * reports it paid, or failed for a receiver at `.invalid`. Nothing leaves the machine.
 */
export function sandboxPayouts(now: () => number = Date.now): PayoutsProvider {
  return {
    name: "sandbox",
    checkAfterMs: SANDBOX_PAYOUT_SECONDS * 1000,
    async send() {
      return { status: "sent", batchId: `SBX${randomBytes(12).toString("hex").toUpperCase()}` };
    },
    async check({ receiver, sentAt }) {
      if (now() < sentAt.getTime() + SANDBOX_PAYOUT_SECONDS * 1000) return { status: "pending" };
      if (receiver.toLowerCase().endsWith(SANDBOX_FAILING_DOMAIN))
        return { status: "failed", reason: SANDBOX_PAYOUT_FAILURE };
      return { status: "success" };
    },
  };
}

import { LOAD_MESSAGES } from "@switchboard/api";
import type { FastifyRequest } from "fastify";
import { LRUCache } from "lru-cache";
import type { Access } from "../access/access.ts";
import { ApiError } from "../api-error.ts";
import { clientNetworkKey } from "./client-network.ts";

/** A refusal that asks the caller to come back: 429 (too many from you) or 503 (busy), with Retry-After. */
export class RetryLater extends ApiError {
  constructor(
    statusCode: 429 | 503,
    message: string,
    /** Whole seconds, at least 1 (the Retry-After header). */
    readonly retryAfterSeconds: number,
  ) {
    super(statusCode, message);
    this.name = "RetryLater";
  }
}

export type Allowance = {
  /** Calls at once (the bucket's size). */
  burst: number;
  /** Calls a second once the burst is spent (the bucket's refill). */
  perSecond: number;
};

/**
 * Calls per key as a token bucket: `burst` at once, then `perSecond`. The most recently used keys are
 * kept (`maxKeys`); a key forgotten starts again with a full bucket.
 */
export function createRateLimit(
  allowance: Allowance,
  options: { maxKeys?: number; now?: () => number } = {},
) {
  // Read at each call, not captured: a test that stills the clock (vi.useFakeTimers) reaches it.
  const now = options.now ?? (() => Date.now());
  const buckets = new LRUCache<string, { tokens: number; at: number }>({ max: options.maxKeys ?? 10_000 });
  return {
    /** Takes one call from the key's allowance: null when allowed, else the seconds until one is. */
    take(key: string): number | null {
      const at = now();
      const bucket = buckets.get(key);
      const tokens = bucket
        ? Math.min(allowance.burst, bucket.tokens + ((at - bucket.at) / 1000) * allowance.perSecond)
        : allowance.burst;
      if (tokens < 1) {
        buckets.set(key, { tokens, at });
        return Math.max(1, Math.ceil((1 - tokens) / allowance.perSecond));
      }
      buckets.set(key, { tokens: tokens - 1, at });
      return null;
    },
  };
}

export type RateLimit = ReturnType<typeof createRateLimit>;

/**
 * One kind of call limited per token and per client network (an IPv6 client by its /64): a call counts
 * against both, and either refuses it with 429 and Retry-After. A call without a token counts per network.
 */
export function createCallerLimit(limits: { perToken: Allowance; perNetwork: Allowance }) {
  const tokens = createRateLimit(limits.perToken);
  const networks = createRateLimit(limits.perNetwork);
  return {
    check(request: FastifyRequest, access: Access | undefined): void {
      const wait =
        networks.take(clientNetworkKey(request.ip)) ??
        (access ? tokens.take(String(access.caller.tokenId)) : null);
      if (wait !== null) throw new RetryLater(429, LOAD_MESSAGES.tooManyRequests, wait);
    },
  };
}

export type CallerLimit = ReturnType<typeof createCallerLimit>;

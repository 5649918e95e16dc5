import { USAGE_BUCKETS, type UsageBucket, type UsageBuckets } from "@switchboard/core";
import type { ProductItem } from "../../db/schema/index.ts";

/**
 * Usage pricing (issue 21): the one function that turns a billing period's usage into money, used both by
 * `GET /api/v2/stats/usage` (what is shown) and by the usage debits (what is charged).
 *
 * Each bucket is priced by the organisation's plan — its `productItems[bucket].tiers` — graduated: unit k
 * of the period (k = 1, 2, ...) costs the price of the tier whose range holds it, a tier running from its
 * quantityMin up to its quantityMax (or up to the next tier's quantityMin - 1; the last one has no end), so a
 * Free plan's voice tiers 0–30 at 0 and 31+ at 20 cents make the 31st minute the first one paid. An item's
 * unit may count a block ("1,000 tokens"): its tiers are in blocks and the price is per block, so a
 * partial block costs its share. A bucket the plan does not price, or an organisation without a plan, pays
 * the deployment's list prices (`LIST_PRICES_USD`, per unit, no tiers).
 *
 * Money is exact: prices are kept in millionths of a cent per base unit (minute, message, token, number)
 * and usage is whole base units, so costs are whole millionths of a cent; callers round only when they
 * debit whole cents (and carry the rest).
 */

/** List prices of this deployment in USD per unit: a number per day, a token, a minute, a message. */
export const LIST_PRICES_USD: UsageBuckets = {
  number: 1.15 / 30,
  tokens: 0.000002,
  voice: 0.08,
  advancedVoice: 0.15,
  "outbound-message": 0.0079,
  "inbound-message": 0.0079,
};

/** Millionths of a cent in a cent, and in a dollar. */
export const MICROS_PER_CENT = 1_000_000;
const MICROS_PER_USD = 100 * MICROS_PER_CENT;

/** One tier in base units: units up to `upTo` (cumulative, inclusive; null: no end) cost `micros` each. */
export type PriceTier = { upTo: number | null; micros: number };

export type BucketPricing = {
  /** Base units (minutes, messages, tokens) in the plan's unit ("1,000 tokens": 1000). */
  unitSize: number;
  /** The plan's unit as written ("minute"), or the list price's. */
  unit: string;
  tiers: PriceTier[];
  /** Priced by the plan's item (false: the list price). */
  fromPlan: boolean;
};

export type UsagePricing = {
  /** The plan whose tiers apply; null: list prices only. */
  planName: string | null;
  buckets: Record<UsageBucket, BucketPricing>;
};

const LIST_UNITS: Record<UsageBucket, string> = {
  number: "number per day",
  tokens: "token",
  voice: "minute",
  advancedVoice: "minute",
  "outbound-message": "message",
  "inbound-message": "message",
};

function listPricing(bucket: UsageBucket): BucketPricing {
  return {
    unitSize: 1,
    unit: LIST_UNITS[bucket],
    tiers: [{ upTo: null, micros: Math.round(LIST_PRICES_USD[bucket] * MICROS_PER_USD) }],
    fromPlan: false,
  };
}

/** "1,000 tokens" -> 1000; "minute" -> 1. */
export function unitSizeOf(unit: string): number {
  const match = /^\s*([\d,]+)\s/.exec(unit);
  const size = match?.[1] ? Number(match[1].replaceAll(",", "")) : 1;
  return Number.isSafeInteger(size) && size > 0 ? size : 1;
}

/** A plan item's tiers in base units (sorted by quantityMin; each ends where it says or the next begins). */
export function bucketPricingOf(item: ProductItem): BucketPricing | null {
  const sorted = [...(item.tiers ?? [])]
    .filter(
      (t) => Number.isFinite(t.quantityMin) && Number.isFinite(t.unitPriceCents) && t.unitPriceCents >= 0,
    )
    .sort((a, b) => a.quantityMin - b.quantityMin);
  if (sorted.length === 0) return null;
  const size = unitSizeOf(item.unit ?? "");
  const tiers: PriceTier[] = sorted.map((tier, i) => {
    const next = sorted[i + 1];
    const end = tier.quantityMax ?? (next ? next.quantityMin - 1 : null);
    return {
      upTo: end === null ? null : Math.max(0, end) * size,
      micros: (tier.unitPriceCents * MICROS_PER_CENT) / size,
    };
  });
  // Beyond the last tier's end, its price goes on.
  const last = tiers[tiers.length - 1];
  if (last) last.upTo = null;
  return { unitSize: size, unit: item.unit ?? "", tiers, fromPlan: true };
}

/** The pricing of a plan's items (null plan: list prices for every bucket). */
export function pricingOf(
  plan: { name: string; productItems: Record<string, ProductItem> } | null,
): UsagePricing {
  const buckets = {} as Record<UsageBucket, BucketPricing>;
  for (const bucket of USAGE_BUCKETS) {
    const item = plan?.productItems[bucket];
    buckets[bucket] = (item ? bucketPricingOf(item) : null) ?? listPricing(bucket);
  }
  return { planName: plan?.name ?? null, buckets };
}

/** The cost of the period's first `quantity` base units, in millionths of a cent (a whole number). */
export function priceBucket(pricing: BucketPricing, quantity: number): number {
  const units = Math.max(0, quantity);
  let cost = 0;
  let from = 0;
  for (const tier of pricing.tiers) {
    const to = tier.upTo === null ? units : Math.min(units, tier.upTo);
    if (to > from) cost += (to - from) * tier.micros;
    if (tier.upTo !== null) from = Math.max(from, tier.upTo);
    if (from >= units) break;
  }
  return Math.round(cost);
}

/** What the next base unit costs after `quantity`, in USD (the price shown beside the usage). */
export function unitPriceUsd(pricing: BucketPricing, quantity: number): number {
  const tier = pricing.tiers.find((t) => t.upTo === null || t.upTo > quantity) ?? pricing.tiers.at(-1);
  return (tier?.micros ?? 0) / MICROS_PER_USD;
}

export type PricedUsage = { costs: Record<UsageBucket, number>; total: number };

/** Every bucket's cost of the period's usage so far, and their total, in millionths of a cent. */
export function priceUsage(pricing: UsagePricing, usage: UsageBuckets): PricedUsage {
  const costs = {} as Record<UsageBucket, number>;
  let total = 0;
  for (const bucket of USAGE_BUCKETS) {
    costs[bucket] = priceBucket(pricing.buckets[bucket], usage[bucket]);
    total += costs[bucket];
  }
  return { costs, total };
}

/** Millionths of a cent as USD (for the API's costs). */
export const microsToUsd = (micros: number) => micros / MICROS_PER_USD;

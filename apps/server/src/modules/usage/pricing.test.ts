import { describe, expect, it } from "vitest";
import type { ProductItem } from "../../db/schema/index.ts";
import {
  bucketPricingOf,
  MICROS_PER_CENT,
  priceBucket,
  priceUsage,
  pricingOf,
  unitPriceUsd,
  unitSizeOf,
} from "./pricing.ts";

// The seeded catalogue's items (migration 0024).
const FREE: Record<string, ProductItem> = {
  voice: {
    type: "metered",
    unit: "minute",
    tiers: [
      { quantityMin: 0, quantityMax: 30, unitPriceCents: 0 },
      { quantityMin: 31, unitPriceCents: 20 },
    ],
  },
  "outbound-message": {
    type: "metered",
    unit: "message",
    tiers: [
      { quantityMin: 0, quantityMax: 50, unitPriceCents: 0 },
      { quantityMin: 51, unitPriceCents: 3 },
    ],
  },
  tokens: {
    type: "metered",
    unit: "1,000 tokens",
    tiers: [
      { quantityMin: 0, quantityMax: 200, unitPriceCents: 0 },
      { quantityMin: 201, unitPriceCents: 1 },
    ],
  },
  number: {
    type: "feature",
    unit: "phone number",
    tiers: [{ quantityMin: 0, quantityMax: 0, unitPriceCents: 0 }],
  },
};
const PRO_VOICE: ProductItem = {
  type: "metered",
  unit: "minute",
  tiers: [
    { quantityMin: 0, quantityMax: 500, unitPriceCents: 0 },
    { quantityMin: 501, quantityMax: 5000, unitPriceCents: 12 },
    { quantityMin: 5001, unitPriceCents: 9 },
  ],
};
const cents = (n: number) => n * MICROS_PER_CENT;

describe("usage pricing", () => {
  it("prices graduated tiers unit by unit at their boundaries", () => {
    const voice = pricingOf({ name: "Free", productItems: FREE }).buckets.voice;
    expect(priceBucket(voice, 0)).toBe(0);
    expect(priceBucket(voice, 30)).toBe(0);
    expect(priceBucket(voice, 31)).toBe(cents(20));
    expect(priceBucket(voice, 35)).toBe(cents(100));
    const pro = bucketPricingOf(PRO_VOICE);
    if (!pro) throw new Error("no tiers");
    expect(priceBucket(pro, 500)).toBe(0);
    expect(priceBucket(pro, 501)).toBe(cents(12));
    expect(priceBucket(pro, 5000)).toBe(cents(4500 * 12));
    expect(priceBucket(pro, 5001)).toBe(cents(4500 * 12 + 9));
    expect(priceBucket(pro, 5010)).toBe(cents(4500 * 12 + 10 * 9));
  });

  it("prices a block unit ('1,000 tokens') per token, so a part of a block costs its share", () => {
    expect(unitSizeOf("1,000 tokens")).toBe(1000);
    expect(unitSizeOf("minute")).toBe(1);
    const tokens = pricingOf({ name: "Free", productItems: FREE }).buckets.tokens;
    expect(priceBucket(tokens, 200_000)).toBe(0);
    expect(priceBucket(tokens, 200_001)).toBe(1000); // a thousandth of a cent
    expect(priceBucket(tokens, 200_500)).toBe(cents(0.5));
    expect(priceBucket(tokens, 201_000)).toBe(cents(1));
  });

  it("keeps the last tier's price beyond its end; buckets the plan does not price pay list prices", () => {
    const pricing = pricingOf({ name: "Free", productItems: FREE });
    expect(priceBucket(pricing.buckets.number, 3)).toBe(0);
    expect(pricing.buckets.advancedVoice.fromPlan).toBe(false);
    expect(priceBucket(pricing.buckets.advancedVoice, 2)).toBe(cents(30));
    expect(priceBucket(pricing.buckets["inbound-message"], 10)).toBe(cents(7.9));
  });

  it("prices everything at list prices without a plan, and says what the next unit costs", () => {
    const list = pricingOf(null);
    expect(list.planName).toBeNull();
    const priced = priceUsage(list, {
      number: 0,
      tokens: 1500,
      voice: 2,
      advancedVoice: 1,
      "outbound-message": 3,
      "inbound-message": 2,
    });
    expect(priced.costs.tokens).toBe(cents(0.3));
    expect(priced.costs.voice).toBe(cents(16));
    expect(priced.total).toBe(cents(0.3 + 16 + 15 + 5 * 0.79));
    const free = pricingOf({ name: "Free", productItems: FREE });
    expect(unitPriceUsd(free.buckets.voice, 29)).toBe(0);
    expect(unitPriceUsd(free.buckets.voice, 30)).toBe(0.2);
    expect(unitPriceUsd(free.buckets.tokens, 200_000)).toBeCloseTo(0.00001, 12);
  });
});

import type { ProductItem } from "../../db/schema/index.ts";

/**
 * Whether an organisation's plan lets it hold one more phone number, and what that number costs a month.
 *
 * The plan's `number` item is a feature: its tiers say how many numbers the plan allows and what each costs
 * (Free: 0–0 at $0, i.e. none; Pro: 0–1 at $0, 2+ at $3.00). The n-th number the organisation holds (every
 * number it holds counts, marketplace or its own) falls in the tier whose range holds n; a tier's
 * quantityMax is its end, so when no tier holds n the plan does not allow it.
 */
export type NumberTerms =
  | { allowed: true; planName: string; ordinal: number; monthlyCents: number }
  | { allowed: false; planName: string | null; reason: "noNumbers" | "limit"; limit: number };

export function termsForNumber(
  plan: { name: string; productItems: Record<string, ProductItem> } | null,
  held: number,
): NumberTerms {
  const ordinal = held + 1;
  const tiers = [...(plan?.productItems.number?.tiers ?? [])].sort((a, b) => a.quantityMin - b.quantityMin);
  const tier = tiers.find(
    (t) => ordinal >= t.quantityMin && ordinal <= (t.quantityMax ?? Number.POSITIVE_INFINITY),
  );
  if (plan && tier)
    return { allowed: true, planName: plan.name, ordinal, monthlyCents: Math.max(0, tier.unitPriceCents) };
  const limit = Math.max(0, ...tiers.map((t) => t.quantityMax ?? 0));
  return { allowed: false, planName: plan?.name ?? null, reason: limit > 0 ? "limit" : "noNumbers", limit };
}

/** `months` calendar months after `anchor` (UTC), on the same day or the month's last when it has fewer. */
export function monthsAfter(anchor: Date, months: number): Date {
  const year = anchor.getUTCFullYear();
  const month = anchor.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const at = new Date(anchor.getTime());
  at.setUTCFullYear(year, month, Math.min(anchor.getUTCDate(), lastDay));
  return at;
}

/** The renewal after `paidThrough` of a number taken at `takenAt`: always on the day it was taken. */
export function nextRenewal(takenAt: Date, paidThrough: Date): Date {
  const months =
    (paidThrough.getUTCFullYear() - takenAt.getUTCFullYear()) * 12 +
    paidThrough.getUTCMonth() -
    takenAt.getUTCMonth();
  return monthsAfter(takenAt, Math.max(0, months) + 1);
}

/** How long a number whose renewal was not paid is kept (past due) before it is released. */
export const NUMBER_GRACE_DAYS = 7;

/** When a number past due since `since` is released. */
export const releaseDateOf = (since: Date) => new Date(since.getTime() + NUMBER_GRACE_DAYS * 86_400_000);

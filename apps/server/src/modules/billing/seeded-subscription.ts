import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { accounts, productPlans, subscriptionCheckouts, subscriptions } from "../../db/schema/index.ts";
import { periodEnd } from "./billing.service.ts";

/**
 * Puts an organisation on a plan without a checkout page: a completed sandbox checkout and its active
 * monthly subscription since `since`, in its current period, premium following the plan. For the demo
 * organisation (on Pro since it was created) and for tests whose organisation needs what a plan offers
 * (phone numbers); a customer's plan starts only through a paid checkout (billing.service.ts).
 */
export async function startSeededSubscription(
  db: Database,
  orgId: number,
  options: { planName?: string; since?: Date; now?: number } = {},
) {
  const planName = options.planName ?? "Pro";
  const now = options.now ?? Date.now();
  const since = options.since ?? new Date(now);
  const [plan] = await db
    .select()
    .from(productPlans)
    .where(and(eq(productPlans.name, planName), eq(productPlans.active, true)));
  if (!plan) throw new Error(`no active plan named ${planName}`);
  let start = since;
  let end = periodEnd(start, "month");
  while (end.getTime() <= now) {
    start = end;
    end = periodEnd(start, "month");
  }
  const checkoutId = `sub_cs_seeded_${orgId}_${since.getTime()}`;
  return db.transaction(async (tx) => {
    await tx.insert(subscriptionCheckouts).values({
      id: checkoutId,
      provider: "sandbox",
      orgId,
      productPlanId: plan.id,
      term: "month",
      amountCents: plan.monthCents,
      url: "",
      successUrl: "",
      cancelUrl: "",
      status: "complete",
      createdAt: since,
      completedAt: since,
    });
    const [row] = await tx
      .insert(subscriptions)
      .values({
        orgId,
        productPlanId: plan.id,
        term: "month",
        status: "active",
        amountCents: plan.monthCents,
        provider: "sandbox",
        checkoutId,
        currentPeriodStart: start,
        currentPeriodEnd: end,
        createdAt: since,
      })
      .returning();
    await tx.update(accounts).set({ premium: plan.premium }).where(eq(accounts.id, orgId));
    if (!row) throw new Error("subscription not inserted");
    return row;
  });
}

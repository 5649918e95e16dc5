import { and, asc, desc, eq, gt, inArray, lte, ne, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import {
  accounts,
  billingPortalSessions,
  planOffers,
  productPlans,
  subscriptionCheckouts,
  subscriptions,
} from "../../db/schema/index.ts";

export type PlanRow = typeof productPlans.$inferSelect;
export type OfferRow = typeof planOffers.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type SubscriptionCheckoutRow = typeof subscriptionCheckouts.$inferSelect;
export type PortalSessionRow = typeof billingPortalSessions.$inferSelect;

/** Namespace of the organisations' subscription locks (pg_advisory_xact_lock(namespace, organisation)). */
const SUBSCRIPTION_LOCK = 74_172;

export function createBillingRepository(db: Database) {
  return {
    async plans(): Promise<PlanRow[]> {
      return db
        .select()
        .from(productPlans)
        .where(eq(productPlans.active, true))
        .orderBy(asc(productPlans.sortOrder), asc(productPlans.id));
    },

    async plan(id: number): Promise<PlanRow | null> {
      const [row] = await db
        .select()
        .from(productPlans)
        .where(and(eq(productPlans.id, id), eq(productPlans.active, true)));
      return row ?? null;
    },

    /** The offers of these partners/resellers. */
    async offers(ownerIds: number[]): Promise<OfferRow[]> {
      if (ownerIds.length === 0) return [];
      return db.select().from(planOffers).where(inArray(planOffers.ownerAccountId, ownerIds));
    },

    async setOffer(
      owner: number,
      offer: { productPlanId: number; monthCents: number | null; yearCents: number | null },
    ) {
      await db
        .insert(planOffers)
        .values({ ownerAccountId: owner, ...offer })
        .onConflictDoUpdate({ target: planOffers.ownerAccountId, set: { ...offer, updatedAt: new Date() } });
    },

    async removeOffer(owner: number) {
      await db.delete(planOffers).where(eq(planOffers.ownerAccountId, owner));
    },

    /** The organisation's active subscription; `on` a transaction to read what its lock now lets it see. */
    async activeSubscription(orgId: number, on: Database = db): Promise<SubscriptionRow | null> {
      const [row] = await on
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.orgId, orgId), eq(subscriptions.status, "active")));
      return row ?? null;
    },

    async lastSubscription(orgId: number): Promise<SubscriptionRow | null> {
      const [row] = await db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.orgId, orgId))
        .orderBy(desc(subscriptions.id))
        .limit(1);
      return row ?? null;
    },

    async subscriptionByProviderId(providerSubscriptionId: string): Promise<SubscriptionRow | null> {
      const [row] = await db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.providerSubscriptionId, providerSubscriptionId));
      return row ?? null;
    },

    async insertCheckout(row: typeof subscriptionCheckouts.$inferInsert): Promise<SubscriptionCheckoutRow> {
      const [inserted] = await db.insert(subscriptionCheckouts).values(row).returning();
      if (!inserted) throw new Error("subscription checkout not inserted");
      return inserted;
    },

    async checkout(id: string, on: Database = db): Promise<SubscriptionCheckoutRow | null> {
      const [row] = await on.select().from(subscriptionCheckouts).where(eq(subscriptionCheckouts.id, id));
      return row ?? null;
    },

    async setCheckoutProvider(id: string, providerSessionId: string | null, url: string) {
      await db
        .update(subscriptionCheckouts)
        .set({ providerSessionId, url })
        .where(eq(subscriptionCheckouts.id, id));
    },

    async setCheckoutError(id: string, lastError: string) {
      await db.update(subscriptionCheckouts).set({ lastError }).where(eq(subscriptionCheckouts.id, id));
    },

    async expireCheckout(id: string) {
      await db
        .update(subscriptionCheckouts)
        .set({ status: "expired" })
        .where(and(eq(subscriptionCheckouts.id, id), eq(subscriptionCheckouts.status, "open")));
    },

    /**
     * Holds the organisation's subscription lock until the transaction ends: whoever starts a plan checks
     * for an active one under it, so two checkouts paid at once start one plan.
     */
    async lockOrganisation(tx: Database, orgId: number): Promise<void> {
      await tx.execute(sql`select pg_advisory_xact_lock(${SUBSCRIPTION_LOCK}, ${orgId})`);
    },

    /** A checkout paid after another of its organisation: its payment went back (Stripe refunded it). */
    async refundCheckout(id: string, message: string) {
      await db
        .update(subscriptionCheckouts)
        .set({ status: "refunded", lastError: message })
        .where(and(eq(subscriptionCheckouts.id, id), ne(subscriptionCheckouts.status, "complete")));
    },

    /**
     * In the payment's ledger transaction, under the organisation's lock with no other plan active: the
     * checkout turns complete, the subscription starts, and the organisation's premium flag follows its plan.
     */
    async activate(
      tx: Database,
      checkout: SubscriptionCheckoutRow,
      plan: PlanRow,
      detail: {
        providerSessionId: string | null;
        providerSubscriptionId: string | null;
        providerCustomerId: string | null;
        periodStart: Date;
        periodEnd: Date;
      },
    ): Promise<SubscriptionRow> {
      await tx
        .update(subscriptionCheckouts)
        .set({
          status: "complete",
          completedAt: detail.periodStart,
          lastError: null,
          ...(detail.providerSessionId ? { providerSessionId: detail.providerSessionId } : {}),
        })
        .where(and(eq(subscriptionCheckouts.id, checkout.id), ne(subscriptionCheckouts.status, "complete")));
      const [row] = await tx
        .insert(subscriptions)
        .values({
          orgId: checkout.orgId,
          productPlanId: plan.id,
          term: checkout.term,
          status: "active",
          amountCents: checkout.amountCents,
          provider: checkout.provider,
          providerSubscriptionId: detail.providerSubscriptionId,
          providerCustomerId: detail.providerCustomerId,
          checkoutId: checkout.id,
          currentPeriodStart: detail.periodStart,
          currentPeriodEnd: detail.periodEnd,
        })
        .returning();
      if (!row) throw new Error("subscription not inserted");
      await tx.update(accounts).set({ premium: plan.premium }).where(eq(accounts.id, checkout.orgId));
      return row;
    },

    /** Ends the active subscription now and turns premium off; null when none was active. */
    async cancel(orgId: number, reason: string, details: string): Promise<SubscriptionRow | null> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(subscriptions)
          .set({ status: "canceled", canceledAt: new Date(), cancelReason: reason, cancelDetails: details })
          .where(and(eq(subscriptions.orgId, orgId), eq(subscriptions.status, "active")))
          .returning();
        if (!row) return null;
        await tx.update(accounts).set({ premium: false }).where(eq(accounts.id, orgId));
        return row;
      });
    },

    /** Active sandbox subscriptions whose period has ended (the sandbox renews them with the card on file). */
    async dueSandboxRenewals(now: Date): Promise<SubscriptionRow[]> {
      return db
        .select()
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.status, "active"),
            eq(subscriptions.provider, "sandbox"),
            lte(subscriptions.currentPeriodEnd, now),
          ),
        )
        .limit(500);
    },

    /** Moves an active subscription to its next period, if it is still in the period that was paid. */
    async renew(tx: Database, id: number, from: Date, start: Date, end: Date): Promise<boolean> {
      const rows = await tx
        .update(subscriptions)
        .set({ currentPeriodStart: start, currentPeriodEnd: end })
        .where(
          and(
            eq(subscriptions.id, id),
            eq(subscriptions.status, "active"),
            eq(subscriptions.currentPeriodEnd, from),
          ),
        )
        .returning({ id: subscriptions.id });
      return rows.length > 0;
    },

    async insertPortalSession(row: typeof billingPortalSessions.$inferInsert) {
      await db.insert(billingPortalSessions).values(row);
    },

    async portalSession(id: string, now: Date): Promise<PortalSessionRow | null> {
      const [row] = await db
        .select()
        .from(billingPortalSessions)
        .where(and(eq(billingPortalSessions.id, id), gt(billingPortalSessions.expiresAt, now)));
      return row ?? null;
    },

    async account(id: number) {
      const [row] = await db.select().from(accounts).where(eq(accounts.id, id));
      return row ?? null;
    },
  };
}

export type BillingRepository = ReturnType<typeof createBillingRepository>;

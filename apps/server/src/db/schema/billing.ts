import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/** A pricing tier of a product item: the unit price from quantityMin up to quantityMax (open when absent). */
export type PricingTier = { quantityMin: number; quantityMax?: number; unitPriceCents: number };
/** A product item of a plan, keyed by item (voice, outbound-message, ...): its type and pricing tiers. */
export type ProductItem = { type: "included" | "metered" | "feature"; unit: string; tiers: PricingTier[] };

/**
 * Billing plans (issue 21): the product catalogue. A plan has a monthly and a yearly price in cents and
 * `productItems` keyed by item with a type and pricing tiers; `premium` plans turn on the organisation's
 * premium flag while subscribed. The plans are seeded by the migration.
 */
export const productPlans = pgTable("product_plans", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  monthCents: bigint("month_cents", { mode: "number" }).notNull(),
  yearCents: bigint("year_cents", { mode: "number" }).notNull(),
  premium: boolean("premium").notNull().default(false),
  productItems: jsonb("product_items").$type<Record<string, ProductItem>>().notNull().default({}),
  sortOrder: integer("sort_order").notNull().default(0),
  active: boolean("active").notNull().default(true),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * White-label rebilling: the plan a partner or reseller offers the organisations below it, at its own
 * prices (null: the catalogue's). The nearest offer above an organisation (reseller, then partner) wins.
 */
export const planOffers = pgTable("plan_offers", {
  ownerAccountId: integer("owner_account_id").primaryKey(),
  productPlanId: integer("product_plan_id")
    .notNull()
    .references(() => productPlans.id),
  monthCents: bigint("month_cents", { mode: "number" }),
  yearCents: bigint("year_cents", { mode: "number" }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** An organisation's subscription to a plan. At most one is active per organisation. */
export const subscriptions = pgTable(
  "subscriptions",
  {
    id: serial("id").primaryKey(),
    orgId: integer("org_id").notNull(),
    productPlanId: integer("product_plan_id")
      .notNull()
      .references(() => productPlans.id),
    term: text("term").$type<"month" | "year">().notNull(),
    status: text("status").$type<"active" | "canceled">().notNull(),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    provider: text("provider").$type<"sandbox" | "stripe">().notNull(),
    /** Stripe's sub_... and cus_... (null for the sandbox). */
    providerSubscriptionId: text("provider_subscription_id"),
    providerCustomerId: text("provider_customer_id"),
    /** The checkout that started it (one subscription per checkout). */
    checkoutId: text("checkout_id").notNull(),
    currentPeriodStart: timestamp("current_period_start", { withTimezone: true }).notNull(),
    currentPeriodEnd: timestamp("current_period_end", { withTimezone: true }).notNull(),
    canceledAt: timestamp("canceled_at", { withTimezone: true }),
    cancelReason: text("cancel_reason"),
    cancelDetails: text("cancel_details"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("subscriptions_org_idx").on(t.orgId, t.id),
    uniqueIndex("subscriptions_active_key").on(t.orgId).where(sql`${t.status} = 'active'`),
    uniqueIndex("subscriptions_checkout_key").on(t.checkoutId),
  ],
);

/** A subscription checkout (the sandbox's hosted test-card page, or a Stripe Checkout Session in subscription mode). */
export const subscriptionCheckouts = pgTable(
  "subscription_checkouts",
  {
    id: text("id").primaryKey(),
    provider: text("provider").$type<"sandbox" | "stripe">().notNull(),
    providerSessionId: text("provider_session_id"),
    orgId: integer("org_id").notNull(),
    productPlanId: integer("product_plan_id")
      .notNull()
      .references(() => productPlans.id),
    term: text("term").$type<"month" | "year">().notNull(),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    url: text("url").notNull(),
    successUrl: text("success_url").notNull(),
    cancelUrl: text("cancel_url").notNull(),
    status: text("status").$type<"open" | "complete" | "expired" | "refunded">().notNull().default("open"),
    lastError: text("last_error"),
    createdByUserId: integer("created_by_user_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [index("subscription_checkouts_org_idx").on(t.orgId, t.createdAt)],
);

/** A customer portal session of the sandbox (Stripe's Billing Portal keeps its own). */
export const billingPortalSessions = pgTable(
  "billing_portal_sessions",
  {
    id: text("id").primaryKey(),
    orgId: integer("org_id").notNull(),
    returnUrl: text("return_url").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("billing_portal_sessions_org_idx").on(t.orgId)],
);

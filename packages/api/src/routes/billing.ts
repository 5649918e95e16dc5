import { z } from "zod";
import { idSchema } from "../fields.ts";
import { defineRoute } from "../route.ts";
import { PRODUCT, sandboxCardFormSchema } from "./wallet.ts";

/**
 * Plans and subscriptions (call catalogue "Billing, plans, payments"): the product catalogue, the plan an
 * organisation is on and the one its partner or reseller offers it, subscribing through a checkout (the
 * sandbox's hosted test-card page, or Stripe Checkout in subscription mode), cancelling, and the customer
 * portal. An organisation's premium flag follows its subscription: on while a premium plan is active, off
 * when it is cancelled (at once: the sandbox and Stripe subscriptions end when cancelled, no refund).
 */

export const BILLING_MESSAGES = {
  planNotFound: "This plan does not exist.",
  organizationsOnly: "Plans are chosen by organisations: open an organisation to subscribe.",
  offersOnly: "Only partners and resellers offer plans to their organisations.",
  freePlan: "The Free plan needs no subscription: cancel the current plan to return to it.",
  alreadySubscribed: "This organisation already has an active plan. Cancel it before choosing another.",
  paidElsewhere:
    "Another checkout of this organisation was paid first, so this card was not charged. Cancel that plan before choosing another.",
  refundedElsewhere:
    "Another checkout of this organisation was paid first, so this payment was refunded in full.",
  noSubscription: "This organisation has no active plan to cancel.",
  returnUrl: "successUrl, cancelUrl and redirectUrl must be addresses on this server.",
  checkoutNotFound: "This checkout does not exist.",
  paymentsUnavailable: "The payment provider did not answer. Try again in a minute.",
  portalNotFound: "This billing portal session has expired. Open it again from Billing.",
  price: "Enter a price from $0 to $100,000 with at most two decimals.",
} as const;

export const pricingTierSchema = z.object({
  quantityMin: z.number().int(),
  quantityMax: z.number().int().optional(),
  unitPriceCents: z.number().int(),
});

export const productItemSchema = z.object({
  type: z.enum(["included", "metered", "feature"]),
  unit: z.string(),
  tiers: z.array(pricingTierSchema),
});

export const productPlanSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  /** The price this organisation pays (its partner's or reseller's when they offer the plan). */
  monthCents: z.number().int(),
  yearCents: z.number().int(),
  /** The catalogue's own prices. */
  listMonthCents: z.number().int(),
  listYearCents: z.number().int(),
  premium: z.boolean(),
  /** Keyed by item: voice, outbound-message, inbound-message, tokens, number. */
  productItems: z.record(z.string(), productItemSchema),
});
export type ProductPlan = z.infer<typeof productPlanSchema>;

export const subscriptionSchema = z.object({
  id: z.number().int(),
  productPlanId: z.number().int(),
  term: z.enum(["month", "year"]),
  status: z.enum(["active", "canceled"]),
  amountCents: z.number().int(),
  provider: z.enum(["sandbox", "stripe"]),
  currentPeriodStart: z.number().describe("ms since the epoch"),
  currentPeriodEnd: z.number().describe("ms since the epoch"),
  canceledAt: z.number().nullable(),
  createdAt: z.number(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const subscriptionCheckoutSchema = z.object({
  id: z.string(),
  /** refunded: paid after another checkout of the organisation had started a plan; the payment went back. */
  status: z.enum(["open", "complete", "expired", "refunded"]),
  productPlanId: z.number().int(),
  term: z.enum(["month", "year"]),
  amountCents: z.number().int(),
  provider: z.enum(["sandbox", "stripe"]),
});

const returnUrl = z.string().trim().min(1, BILLING_MESSAGES.returnUrl).max(2000, BILLING_MESSAGES.returnUrl);

const tag = "Billing";

export const getProductCatalog = defineRoute({
  id: "getProductCatalog",
  method: "GET",
  path: "/api/v2/product/productCatalog",
  summary:
    "The product catalogue: every plan with its productItems (type and pricing tiers), at the prices the account in view pays.",
  tag,
  auth: "token",
  permission: "canViewBilling",
  response: z.object({ success: z.literal(true), productCatalog: z.array(productPlanSchema) }),
});

export const getProductCatalogPlan = defineRoute({
  id: "getProductCatalogPlan",
  method: "GET",
  path: "/api/v2/product/productCatalog/{id}",
  summary: "One plan of the catalogue.",
  tag,
  auth: "token",
  permission: "canViewBilling",
  params: z.object({ id: idSchema }),
  response: z.object({ success: z.literal(true), productPlan: productPlanSchema }),
});

export const getCurrentPlan = defineRoute({
  id: "getCurrentPlan",
  method: "GET",
  path: "/api/v2/product/currentPlan",
  summary:
    "The plan the organisation is on (the Free plan without an active subscription), its subscription and its premium flag.",
  tag,
  auth: "token",
  permission: "canViewBilling",
  response: z.object({
    success: z.literal(true),
    productPlan: productPlanSchema.nullable(),
    subscription: subscriptionSchema.nullable(),
    premium: z.boolean(),
  }),
});

export const getOfferedPlan = defineRoute({
  id: "getOfferedPlan",
  method: "GET",
  path: "/api/v2/product/offeredPlan",
  summary:
    "The plan the partner or reseller above offers this organisation, at its prices (for a partner or reseller: the plan it offers); null when none is offered.",
  tag,
  auth: "token",
  permission: "canViewBilling",
  response: z.object({
    success: z.literal(true),
    productPlan: productPlanSchema.nullable(),
    offeredBy: z
      .object({ accountId: z.number().int(), accountType: z.enum(["partner", "reseller"]) })
      .nullable(),
  }),
});

const price = z.coerce
  .number({ message: BILLING_MESSAGES.price })
  .refine(
    (v) => Number.isFinite(v) && v >= 0 && v <= 100_000 && Math.abs(Math.round(v * 100) - v * 100) < 1e-6,
    BILLING_MESSAGES.price,
  );

export const setOfferedPlan = defineRoute({
  id: "setOfferedPlan",
  method: "PUT",
  path: "/api/v2/product/offeredPlan",
  summary:
    "A partner or reseller sets the plan it offers the organisations below it and its own prices in dollars (white-label rebilling); productPlanId null withdraws the offer.",
  tag,
  auth: "token",
  permission: "canManageBilling",
  body: z.object({
    productPlanId: idSchema.nullable(),
    monthPrice: price.optional(),
    yearPrice: price.optional(),
  }),
  response: z.object({ success: z.literal(true), productPlan: productPlanSchema.nullable() }),
});

export const getAllAvailablePlans = defineRoute({
  id: "getAllAvailablePlans",
  method: "GET",
  path: "/api/v2/product/allAvailablePlans",
  summary:
    "The plans this organisation may choose: the offered plan first when its partner or reseller offers one, then the rest of the catalogue.",
  tag,
  auth: "token",
  permission: "canViewBilling",
  response: z.object({
    success: z.literal(true),
    plans: z.array(productPlanSchema),
    offeredPlanId: z.number().int().nullable(),
  }),
});

export const subscribe = defineRoute({
  id: "subscribe",
  method: "POST",
  path: "/api/v2/product/subscribe",
  summary:
    "Subscribe the organisation to a plan: makes a checkout (the sandbox's test-card page, or Stripe Checkout in subscription mode) and answers its url. The subscription becomes active once, when the payment completes.",
  tag,
  auth: "token",
  permission: "canManageBilling",
  body: z.object({
    productPlanId: idSchema,
    term: z.enum(["month", "year"]).default("month"),
    cancelUrl: returnUrl,
    successUrl: returnUrl,
  }),
  response: z.object({
    success: z.literal(true),
    url: z.string(),
    cancelUrl: z.string(),
    successUrl: z.string(),
    checkout: subscriptionCheckoutSchema,
  }),
});

export const getSubscriptionCheckout = defineRoute({
  id: "getSubscriptionCheckout",
  method: "GET",
  path: "/api/v2/product/subscribe/{checkoutId}",
  summary: "A subscription checkout of the organisation (the return page asks whether it completed).",
  tag,
  auth: "token",
  permission: "canViewBilling",
  params: z.object({ checkoutId: z.string().max(200) }),
  response: z.object({ success: z.literal(true), checkout: subscriptionCheckoutSchema }),
});

export const cancelSubscription = defineRoute({
  id: "cancelSubscription",
  method: "DELETE",
  path: `/api/v1/${PRODUCT}Pro/cancel`,
  summary:
    "Cancel the organisation's plan at once: the subscription ends now (no refund of the period paid) and premium turns off.",
  tag,
  auth: "token",
  permission: "canManageBilling",
  body: z.object({
    reason: z.string().trim().max(200).default(""),
    details: z.string().trim().max(2000).default(""),
  }),
  response: z.object({ success: z.literal(true), subscription: subscriptionSchema }),
});

export const getBillingCustomerPortalLink = defineRoute({
  id: "getBillingCustomerPortalLink",
  method: "POST",
  path: "/api/v1/getBillingCustomerPortalLink",
  summary:
    "A link to the customer portal (Stripe's Billing Portal, or the sandbox's portal page on this server) that returns to redirectUrl.",
  tag,
  auth: "token",
  permission: "canManageBilling",
  body: z.object({ redirectUrl: returnUrl }),
  response: z.object({ success: z.literal(true), url: z.string() }),
});

export const sandboxSubscribePage = defineRoute({
  id: "sandboxSubscribePage",
  method: "GET",
  path: "/sandbox/subscribe/{checkoutId}",
  summary:
    "The sandbox's hosted checkout page of a subscription (PAYMENTS=sandbox): pay with a test card (4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined) or cancel.",
  tag,
  auth: "none",
  params: z.object({ checkoutId: z.string().max(200) }),
  produces: "text/html",
});

export const sandboxSubscribePay = defineRoute({
  id: "sandboxSubscribePay",
  method: "POST",
  path: "/sandbox/subscribe/{checkoutId}",
  summary:
    "The sandbox subscription page's form: pays (the subscription turns active once, then redirects to successUrl) or shows the card's error; `action=cancel` redirects to cancelUrl.",
  tag,
  auth: "none",
  params: z.object({ checkoutId: z.string().max(200) }),
  body: sandboxCardFormSchema,
  produces: "text/html",
});

export const sandboxBillingPortalPage = defineRoute({
  id: "sandboxBillingPortalPage",
  method: "GET",
  path: "/sandbox/billingPortal/{sessionId}",
  summary: "The sandbox's customer portal: the plan, its period and price, cancel, and the way back.",
  tag,
  auth: "none",
  params: z.object({ sessionId: z.string().max(200) }),
  produces: "text/html",
});

export const sandboxBillingPortalCancel = defineRoute({
  id: "sandboxBillingPortalCancel",
  method: "POST",
  path: "/sandbox/billingPortal/{sessionId}",
  summary: "The sandbox portal's cancel button: cancels the plan at once, then shows the portal again.",
  tag,
  auth: "none",
  params: z.object({ sessionId: z.string().max(200) }),
  body: z.object({ action: z.enum(["cancel"]).default("cancel") }),
  produces: "text/html",
});

export const stripeBillingWebhook = defineRoute({
  id: "stripeBillingWebhook",
  method: "POST",
  path: "/api/v1/payments/stripe/billingWebhook",
  summary:
    "Stripe's webhook for subscriptions (PAYMENTS=stripe; its own endpoint beside the wallet's): signature checked with STRIPE_WEBHOOK_SECRET; checkout.session.completed activates the subscription once, customer.subscription.deleted cancels it.",
  tag,
  auth: "none",
  response: z.object({ received: z.literal(true) }),
});

export const billingRoutes = [
  getProductCatalog,
  getProductCatalogPlan,
  getCurrentPlan,
  getOfferedPlan,
  setOfferedPlan,
  getAllAvailablePlans,
  subscribe,
  getSubscriptionCheckout,
  cancelSubscription,
  getBillingCustomerPortalLink,
  sandboxSubscribePage,
  sandboxSubscribePay,
  sandboxBillingPortalPage,
  sandboxBillingPortalCancel,
  stripeBillingWebhook,
] as const;

import { z } from "zod";
import { defineRoute } from "../route.ts";
import { TOP_UP_MAX_USD, TOP_UP_MIN_USD } from "./wallet.ts";

/**
 * Payment links (call catalogue "Billing, plans, payments"): an organisation's owner makes a link (a slug,
 * a title, a fixed amount or "payer chooses"); anyone opens the spec's "Pay invoice: slug" page, sees what
 * `fetchPaymentSlug` answers, and pays by card through `POST /api/v1/checkout/{product}Credit` without a
 * token and with `slug`: the organisation's wallet is credited once when the checkout completes.
 */

export const PAYMENT_LINK_MESSAGES = {
  slug: "slug: use lowercase letters, digits and dashes (3 to 40).",
  slugTaken: "This slug is already used by another payment link.",
  title: "Enter a title (at most 120 characters).",
  linkNotFound: "This payment link does not exist.",
  linkDisabled: "This payment link is no longer accepting payments.",
  fixedAmount: "This payment link's amount is fixed.",
} as const;

export const paymentSlugSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9-]{2,39}$/, PAYMENT_LINK_MESSAGES.slug);

export const paymentLinkSchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  title: z.string(),
  /** Fixed amount in cents; null when the payer chooses. */
  amountCents: z.number().int().nullable(),
  status: z.enum(["active", "disabled"]),
  /** The public page that pays it (the web app's pay page). */
  url: z.string(),
  /** What it has brought in: completed checkouts. */
  paidCount: z.number().int(),
  paidCents: z.number().int(),
  createdAt: z.number().describe("ms since the epoch"),
});
export type PaymentLink = z.infer<typeof paymentLinkSchema>;

/** The web app's public page of a link (spec: "Pay invoice: slug"). */
export const payPagePath = (slug: string) => `/pay?slug=${encodeURIComponent(slug)}`;

export const listPaymentLinks = defineRoute({
  id: "listPaymentLinks",
  method: "GET",
  path: "/api/v1/paymentLinks",
  summary: "The payment links of the account in view (its wallet's), newest first.",
  tag: "Wallet",
  auth: "token",
  permission: "canViewBilling",
  response: z.object({ success: z.literal(true), links: z.array(paymentLinkSchema) }),
});

export const createPaymentLink = defineRoute({
  id: "createPaymentLink",
  method: "POST",
  path: "/api/v1/paymentLinks",
  summary:
    "Make a payment link to the wallet of the account in view: its slug (unique), a title, and a fixed amount in dollars, or none when the payer chooses.",
  tag: "Wallet",
  auth: "token",
  permission: "canManageBilling",
  body: z.object({
    slug: paymentSlugSchema,
    title: z.string().trim().min(1, PAYMENT_LINK_MESSAGES.title).max(120, PAYMENT_LINK_MESSAGES.title),
    amount: z
      .union([
        z.null(),
        z.literal("").transform(() => null),
        z.coerce
          .number()
          .refine(
            (v) =>
              Number.isFinite(v) &&
              v >= TOP_UP_MIN_USD &&
              v <= TOP_UP_MAX_USD &&
              Math.abs(Math.round(v * 100) - v * 100) < 1e-6,
            `Enter an amount from $${TOP_UP_MIN_USD} to $${TOP_UP_MAX_USD.toLocaleString("en-US")}, or none.`,
          ),
      ])
      .default(null),
  }),
  response: z.object({ success: z.literal(true), link: paymentLinkSchema }),
});

export const updatePaymentLink = defineRoute({
  id: "updatePaymentLink",
  method: "PUT",
  path: "/api/v1/paymentLinks/{linkId}",
  summary: "Disable a payment link (payments through it are refused) or enable it again.",
  tag: "Wallet",
  auth: "token",
  permission: "canManageBilling",
  params: z.object({ linkId: z.coerce.number().int().positive().max(2_147_483_647) }),
  body: z.object({ status: z.enum(["active", "disabled"]) }),
  response: z.object({ success: z.literal(true), link: paymentLinkSchema }),
});

export const fetchPaymentSlug = defineRoute({
  id: "fetchPaymentSlug",
  method: "POST",
  path: "/api/v1/fetchPaymentSlug",
  summary:
    "What a payment link shows to whoever opens it (no token): the organisation's display name, the title, the fixed amount (or null: the payer chooses), and whether it accepts payments.",
  tag: "Wallet",
  auth: "none",
  body: z.object({ slug: z.string().trim().toLowerCase().min(1).max(60) }),
  response: z.object({
    success: z.literal(true),
    slug: z.string(),
    displayName: z.string(),
    title: z.string(),
    amountCents: z.number().int().nullable(),
    currency: z.literal("usd"),
    active: z.boolean(),
  }),
});

export const paymentLinkRoutes = [
  listPaymentLinks,
  createPaymentLink,
  updatePaymentLink,
  fetchPaymentSlug,
] as const;

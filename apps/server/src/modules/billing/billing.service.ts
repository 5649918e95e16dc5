import { randomBytes } from "node:crypto";
import { BILLING_MESSAGES, type ProductPlan, type Subscription } from "@switchboard/api";
import type { FastifyBaseLogger } from "fastify";
import type { Access, AccountRow } from "../../access/access.ts";
import { ApiError, badRequest, conflict, notFound } from "../../api-error.ts";
import type { Database } from "../../db/client.ts";
import type { KeyedGate } from "../../http/keyed-gate.ts";
import type {
  CompletedSubscription,
  RenewedSubscription,
  SubscriptionPayments,
} from "../../providers/payments/subscription-payments.ts";
import { type CardInput, chargeTestCard } from "../../providers/payments/test-cards.ts";
import type { LedgerService } from "../ledger/index.ts";
import {
  createBillingRepository,
  type OfferRow,
  type PlanRow,
  type SubscriptionCheckoutRow,
  type SubscriptionRow,
} from "./billing.repository.ts";

/** A renewal whose subscription moved on (or ended) meanwhile: nothing is charged. */
class StaleRenewal extends Error {}

/** Another checkout of the organisation started its plan first (or this one's payment went back already). */
class PlanStartedElsewhere extends Error {}

/** What a checkout's payment came to: its plan started, it had started already, or another plan was first. */
type Activation = "activated" | "replayed" | "lost";

type PaymentDetail = {
  label: string;
  providerSessionId: string | null;
  providerSubscriptionId: string | null;
  providerCustomerId: string | null;
  providerInvoiceId: string | null;
};

/** How long a sandbox portal link works. */
const PORTAL_TTL_MS = 60 * 60 * 1000;

export type BillingDeps = {
  db: Database;
  ledger: LedgerService;
  payments: SubscriptionPayments;
  publicUrl: string;
  log: FastifyBaseLogger;
  /** An organisation's money movements one at a time (load-limits.ts). */
  money: KeyedGate;
  now?: () => number;
};

export type SandboxSubscribeOutcome =
  | { kind: "paid"; redirect: string }
  | { kind: "cancelled"; redirect: string }
  | {
      kind: "error";
      /** 402: the card was refused; 409: the organisation has a plan already. */
      status: 402 | 409;
      checkout: SubscriptionCheckoutRow;
      plan: PlanRow;
      message: string;
    };

/** The organisation a call acts on: an agent account's organisation, an organisation itself; else null. */
export function organizationOf(target: AccountRow): number | null {
  if (target.accountType === "organization") return target.id;
  if (target.accountType === "agent") return target.organizationId;
  return null;
}

/**
 * The end of a term that starts at `start`: a calendar month or year later, on the same day of the month or
 * the month's last day when it has fewer (Jan 31 -> Feb 28), as Stripe's billing anchor does.
 */
export function periodEnd(start: Date, term: "month" | "year"): Date {
  const end = new Date(start);
  const day = start.getUTCDate();
  end.setUTCDate(1);
  if (term === "year") end.setUTCFullYear(end.getUTCFullYear() + 1);
  else end.setUTCMonth(end.getUTCMonth() + 1);
  const last = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(day, last));
  return end;
}

export function createBillingService(deps: BillingDeps) {
  const repo = createBillingRepository(deps.db);
  const { ledger } = deps;
  const now = deps.now ?? Date.now;

  // --- catalogue and offers ---------------------------------------------------------------------------

  /** The offer that applies to the target: its own (partner/reseller), else the reseller's, else the partner's. */
  async function offerFor(target: AccountRow): Promise<OfferRow | null> {
    const chain =
      target.accountType === "partner" || target.accountType === "reseller"
        ? [target.id]
        : [target.resellerId, target.partnerId].filter((id): id is number => typeof id === "number");
    const offers = await repo.offers(chain);
    for (const id of chain) {
      const offer = offers.find((o) => o.ownerAccountId === id);
      if (offer) return offer;
    }
    return null;
  }

  function view(plan: PlanRow, offer: OfferRow | null): ProductPlan {
    const offered = offer?.productPlanId === plan.id ? offer : null;
    return {
      id: plan.id,
      name: plan.name,
      description: plan.description,
      monthCents: offered?.monthCents ?? plan.monthCents,
      yearCents: offered?.yearCents ?? plan.yearCents,
      listMonthCents: plan.monthCents,
      listYearCents: plan.yearCents,
      premium: plan.premium,
      productItems: plan.productItems,
    };
  }

  const subscriptionOf = (row: SubscriptionRow): Subscription => ({
    id: row.id,
    productPlanId: row.productPlanId,
    term: row.term,
    status: row.status,
    amountCents: row.amountCents,
    provider: row.provider,
    currentPeriodStart: row.currentPeriodStart.getTime(),
    currentPeriodEnd: row.currentPeriodEnd.getTime(),
    canceledAt: row.canceledAt?.getTime() ?? null,
    createdAt: row.createdAt.getTime(),
  });

  const checkoutOf = (row: SubscriptionCheckoutRow) => ({
    id: row.id,
    status: row.status,
    productPlanId: row.productPlanId,
    term: row.term,
    amountCents: row.amountCents,
    provider: row.provider,
  });

  async function catalogue(access: Access) {
    const offer = await offerFor(access.target);
    const plans = await repo.plans();
    return { success: true as const, productCatalog: plans.map((p) => view(p, offer)) };
  }

  async function plan(access: Access, id: number) {
    const row = await repo.plan(id);
    if (!row) throw notFound(BILLING_MESSAGES.planNotFound);
    return { success: true as const, productPlan: view(row, await offerFor(access.target)) };
  }

  async function currentPlan(access: Access) {
    const orgId = organizationOf(access.target);
    if (orgId === null)
      return { success: true as const, productPlan: null, subscription: null, premium: false };
    const org = access.target.accountType === "organization" ? access.target : await repo.account(orgId);
    const offer = await offerFor(access.target);
    const active = await repo.activeSubscription(orgId);
    const plans = await repo.plans();
    const planRow = active
      ? (plans.find((p) => p.id === active.productPlanId) ?? (await repo.plan(active.productPlanId)))
      : (plans.find((p) => p.monthCents === 0 && p.yearCents === 0) ?? null);
    return {
      success: true as const,
      productPlan: planRow ? view(planRow, offer) : null,
      subscription: active ? subscriptionOf(active) : null,
      premium: org?.premium ?? false,
    };
  }

  async function offeredPlan(access: Access) {
    const offer = await offerFor(access.target);
    if (!offer) return { success: true as const, productPlan: null, offeredBy: null };
    const row = await repo.plan(offer.productPlanId);
    const by = await repo.account(offer.ownerAccountId);
    return {
      success: true as const,
      productPlan: row ? view(row, offer) : null,
      offeredBy:
        by && (by.accountType === "partner" || by.accountType === "reseller")
          ? { accountId: by.id, accountType: by.accountType }
          : null,
    };
  }

  async function setOfferedPlan(
    access: Access,
    body: { productPlanId: number | null; monthPrice?: number | undefined; yearPrice?: number | undefined },
  ) {
    const target = access.target;
    if (target.accountType !== "partner" && target.accountType !== "reseller")
      throw badRequest(BILLING_MESSAGES.offersOnly);
    if (body.productPlanId === null) {
      await repo.removeOffer(target.id);
      return { success: true as const, productPlan: null };
    }
    const row = await repo.plan(body.productPlanId);
    if (!row) throw notFound(BILLING_MESSAGES.planNotFound);
    const cents = (v: number | undefined) => (v === undefined ? null : Math.round(v * 100));
    await repo.setOffer(target.id, {
      productPlanId: row.id,
      monthCents: cents(body.monthPrice),
      yearCents: cents(body.yearPrice),
    });
    const offer = await offerFor(target);
    return { success: true as const, productPlan: view(row, offer) };
  }

  async function allAvailablePlans(access: Access) {
    const offer = await offerFor(access.target);
    const plans = (await repo.plans()).map((p) => view(p, offer));
    const offeredId = offer?.productPlanId ?? null;
    plans.sort((a, b) => Number(b.id === offeredId) - Number(a.id === offeredId));
    return { success: true as const, plans, offeredPlanId: offeredId };
  }

  // --- subscribing ------------------------------------------------------------------------------------

  /** A return url on this server (its public address or the host the call came to), made absolute. */
  function returnUrl(value: string, requestOrigin: string): string {
    let url: URL;
    try {
      url = new URL(value, requestOrigin);
    } catch {
      throw badRequest(BILLING_MESSAGES.returnUrl);
    }
    const allowed = new Set([new URL(deps.publicUrl).origin, new URL(requestOrigin).origin]);
    if (!/^https?:$/.test(url.protocol) || !allowed.has(url.origin))
      throw badRequest(BILLING_MESSAGES.returnUrl);
    return url.toString().replaceAll("%7BCHECKOUT_SESSION_ID%7D", "{CHECKOUT_SESSION_ID}");
  }

  const fillCheckoutId = (url: string, id: string) =>
    url.replaceAll("{CHECKOUT_SESSION_ID}", encodeURIComponent(id));

  function orgOrRefuse(access: Access): number {
    const orgId = organizationOf(access.target);
    if (orgId === null) throw badRequest(BILLING_MESSAGES.organizationsOnly);
    return orgId;
  }

  async function subscribe(
    access: Access,
    body: { productPlanId: number; term: "month" | "year"; cancelUrl: string; successUrl: string },
    requestOrigin: string,
  ) {
    const orgId = orgOrRefuse(access);
    const row = await repo.plan(body.productPlanId);
    if (!row) throw notFound(BILLING_MESSAGES.planNotFound);
    const priced = view(row, await offerFor(access.target));
    const amountCents = body.term === "year" ? priced.yearCents : priced.monthCents;
    if (amountCents <= 0) throw badRequest(BILLING_MESSAGES.freePlan);
    if (await repo.activeSubscription(orgId)) throw conflict(BILLING_MESSAGES.alreadySubscribed);
    const successUrl = returnUrl(body.successUrl, requestOrigin);
    const cancelUrl = returnUrl(body.cancelUrl, requestOrigin);
    const id = `sub_cs_${deps.payments.name === "sandbox" ? "sandbox" : "live"}_${randomBytes(18).toString("base64url")}`;
    const checkout = await repo.insertCheckout({
      id,
      provider: deps.payments.name,
      orgId,
      productPlanId: row.id,
      term: body.term,
      amountCents,
      url: "",
      successUrl,
      cancelUrl,
      createdByUserId: access.caller.user.id,
    });
    let created: { providerSessionId: string | null; url: string };
    try {
      created = await deps.payments.createSubscriptionCheckout({
        checkoutId: id,
        planName: row.name,
        amountCents,
        interval: body.term,
        successUrl: fillCheckoutId(successUrl, id),
        cancelUrl,
        customerEmail: access.caller.user.email ?? undefined,
      });
    } catch (error) {
      deps.log.error({ err: error }, "subscription checkout not created by the payment provider");
      await repo.expireCheckout(id);
      throw new ApiError(502, BILLING_MESSAGES.paymentsUnavailable);
    }
    await repo.setCheckoutProvider(id, created.providerSessionId, created.url);
    return {
      success: true as const,
      url: created.url,
      cancelUrl,
      successUrl,
      checkout: checkoutOf(checkout),
    };
  }

  async function checkoutFor(access: Access, checkoutId: string) {
    const row = await repo.checkout(checkoutId);
    if (!row || row.orgId !== organizationOf(access.target))
      throw notFound(BILLING_MESSAGES.checkoutNotFound);
    return { success: true as const, checkout: checkoutOf(row) };
  }

  /**
   * The payment of a checkout: one ledger transaction (card cash to subscription revenue) whose idempotency
   * key is the checkout id; in it, under the organisation's lock, the subscription starts and premium
   * follows, unless another plan of the organisation is active (a second checkout paid at the same time):
   * then nothing is posted. A replay changes nothing.
   */
  async function activate(checkout: SubscriptionCheckoutRow, detail: PaymentDetail): Promise<Activation> {
    const planRow = await repo.plan(checkout.productPlanId);
    if (!planRow) throw notFound(BILLING_MESSAGES.planNotFound);
    const start = new Date(now());
    try {
      const result = await ledger.post({
        idempotencyKey: `subscription:${checkout.id}`,
        kind: "subscription",
        ownerAccountId: checkout.orgId,
        description: `${planRow.name} plan, 1 ${checkout.term} (${detail.label})`,
        metadata: {
          // Paid by card, not from the wallet: the wallet's list shows it (wallet.service recent).
          paidByCardCents: checkout.amountCents,
          checkoutId: checkout.id,
          productPlanId: planRow.id,
          term: checkout.term,
          provider: checkout.provider,
          providerSessionId: detail.providerSessionId,
        },
        postings: [
          { account: ledger.platform("cash:card"), amount: -checkout.amountCents },
          { account: ledger.platform("revenue:subscription"), amount: checkout.amountCents },
        ],
        within: async (tx) => {
          await repo.lockOrganisation(tx, checkout.orgId);
          const current = await repo.checkout(checkout.id, tx);
          if (current?.status === "refunded" || (await repo.activeSubscription(checkout.orgId, tx)))
            throw new PlanStartedElsewhere();
          await repo.activate(tx, checkout, planRow, {
            providerSessionId: detail.providerSessionId,
            providerSubscriptionId: detail.providerSubscriptionId,
            providerCustomerId: detail.providerCustomerId,
            periodStart: start,
            periodEnd: periodEnd(start, checkout.term),
          });
        },
        payment: { payerAccountId: checkout.orgId, amountCents: checkout.amountCents },
      });
      return result.replayed ? "replayed" : "activated";
    } catch (error) {
      if (error instanceof PlanStartedElsewhere) return "lost";
      throw error;
    }
  }

  /**
   * A checkout paid after another plan of its organisation started: the provider gives its payment back and
   * ends its subscription; the checkout says so. Throws (502) when the provider did not answer: Stripe then
   * sends its webhook again.
   */
  async function giveBack(checkout: SubscriptionCheckoutRow, detail: PaymentDetail): Promise<string> {
    let refunded: boolean;
    try {
      ({ refunded } = await deps.payments.refundCheckout({
        checkoutId: checkout.id,
        providerSessionId: detail.providerSessionId,
        providerSubscriptionId: detail.providerSubscriptionId,
        providerInvoiceId: detail.providerInvoiceId,
      }));
    } catch (error) {
      deps.log.error({ err: error, checkout: checkout.id }, "payment of a second plan not refunded");
      throw new ApiError(502, BILLING_MESSAGES.paymentsUnavailable);
    }
    const message = refunded ? BILLING_MESSAGES.refundedElsewhere : BILLING_MESSAGES.paidElsewhere;
    if (refunded) await repo.refundCheckout(checkout.id, message);
    else await repo.setCheckoutError(checkout.id, message);
    deps.log.warn(
      { checkout: checkout.id, orgId: checkout.orgId, refunded },
      "a second plan's payment given back",
    );
    return message;
  }

  async function sandboxCheckoutPage(checkoutId: string) {
    const row = await repo.checkout(checkoutId);
    if (row?.provider !== "sandbox") throw notFound(BILLING_MESSAGES.checkoutNotFound);
    const planRow = await repo.plan(row.productPlanId);
    if (!planRow) throw notFound(BILLING_MESSAGES.planNotFound);
    return { checkout: row, plan: planRow };
  }

  /** The sandbox checkout page's form: charge the test card (then the subscription starts once), or cancel. */
  async function sandboxPay(
    checkoutId: string,
    form: CardInput & { action: "pay" | "cancel" },
  ): Promise<SandboxSubscribeOutcome> {
    const { checkout, plan: planRow } = await sandboxCheckoutPage(checkoutId);
    const paid = (): SandboxSubscribeOutcome => ({
      kind: "paid",
      redirect: fillCheckoutId(checkout.successUrl, checkout.id),
    });
    if (checkout.status === "complete") return paid();
    if (form.action === "cancel" || checkout.status !== "open") {
      await repo.expireCheckout(checkout.id);
      return { kind: "cancelled", redirect: checkout.cancelUrl };
    }
    const error = (status: 402 | 409, message: string): SandboxSubscribeOutcome => ({
      kind: "error",
      status,
      checkout: { ...checkout, lastError: message },
      plan: planRow,
      message,
    });
    // Another checkout of the organisation was paid meanwhile: no second plan, nothing charged. (The check
    // that counts is activate's, under the organisation's lock.)
    const active = await repo.activeSubscription(checkout.orgId);
    if (active?.checkoutId === checkout.id) return paid();
    if (active) return error(409, BILLING_MESSAGES.alreadySubscribed);
    const outcome = chargeTestCard(form, new Date(now()));
    if (!outcome.ok) {
      await repo.setCheckoutError(checkout.id, outcome.message);
      return error(402, outcome.message);
    }
    const brand =
      outcome.brand === "card" ? "Card" : outcome.brand[0]?.toUpperCase() + outcome.brand.slice(1);
    const detail: PaymentDetail = {
      label: `${brand} •••• ${outcome.last4}`,
      providerSessionId: null,
      providerSubscriptionId: null,
      providerCustomerId: null,
      providerInvoiceId: null,
    };
    const activation = await deps.money.run(checkout.orgId, () => activate(checkout, detail));
    if (activation === "lost") return error(409, await giveBack(checkout, detail));
    return paid();
  }

  /** A subscription checkout Stripe reports paid (verified webhook): activates it once. */
  async function providerCompleted(payment: CompletedSubscription): Promise<boolean> {
    const row = await repo.checkout(payment.checkoutId);
    if (!row) {
      deps.log.warn({ checkoutId: payment.checkoutId }, "subscription payment for an unknown checkout");
      return false;
    }
    if (payment.amountCents !== row.amountCents || payment.currency.toLowerCase() !== "usd") {
      deps.log.error(
        { payment, checkout: row.id },
        "subscription payment differs from the checkout: ignored",
      );
      return false;
    }
    const detail: PaymentDetail = {
      label: "Stripe",
      providerSessionId: payment.providerSessionId,
      providerSubscriptionId: payment.providerSubscriptionId,
      providerCustomerId: payment.providerCustomerId,
      providerInvoiceId: payment.providerInvoiceId,
    };
    const activation = await deps.money.run(row.orgId, () => activate(row, detail));
    if (activation === "lost") await giveBack(row, detail);
    return activation === "activated";
  }

  /** Stripe ended a subscription (its portal, or unpaid): ours ends and premium turns off. */
  async function providerEnded(providerSubscriptionId: string): Promise<boolean> {
    const row = await repo.subscriptionByProviderId(providerSubscriptionId);
    if (row?.status !== "active") return false;
    return (await repo.cancel(row.orgId, "ended at the payment provider", "")) !== null;
  }

  // --- renewals ---------------------------------------------------------------------------------------

  /**
   * One paid period more: a ledger posting keyed by the period (or Stripe's invoice), in whose transaction
   * the subscription moves to the next period. A replay changes nothing.
   */
  async function renewOnce(
    row: SubscriptionRow,
    period: { key: string; label: string; amountCents: number; start: Date; end: Date },
  ): Promise<boolean> {
    if (period.amountCents <= 0) return false;
    const result = await ledger
      .post({
        idempotencyKey: period.key,
        kind: "subscription",
        ownerAccountId: row.orgId,
        description: `Plan renewal, 1 ${row.term} (${period.label})`,
        metadata: {
          paidByCardCents: period.amountCents,
          subscriptionId: row.id,
          periodStart: period.start.toISOString(),
          provider: row.provider,
        },
        postings: [
          { account: ledger.platform("cash:card"), amount: -period.amountCents },
          { account: ledger.platform("revenue:subscription"), amount: period.amountCents },
        ],
        within: async (tx) => {
          if (!(await repo.renew(tx, row.id, row.currentPeriodEnd, period.start, period.end)))
            throw new StaleRenewal();
        },
        payment: { payerAccountId: row.orgId, amountCents: period.amountCents },
      })
      .catch((error: unknown) => {
        if (error instanceof StaleRenewal) return { replayed: true };
        throw error;
      });
    return !result.replayed;
  }

  /**
   * The sandbox renews its subscriptions at the end of each period, like Stripe's test mode charging the
   * test card on file (4242 always pays). Answers how many periods were charged.
   */
  async function renewDue(): Promise<number> {
    const at = new Date(now());
    let renewed = 0;
    for (let row of await repo.dueSandboxRenewals(at)) {
      while (row.currentPeriodEnd.getTime() <= at.getTime()) {
        const start = row.currentPeriodEnd;
        const end = periodEnd(start, row.term);
        const ok = await renewOnce(row, {
          key: `subscription:${row.id}:renewal:${start.toISOString()}`,
          label: "sandbox card on file",
          amountCents: row.amountCents,
          start,
          end,
        });
        if (!ok) break;
        renewed += 1;
        row = { ...row, currentPeriodStart: start, currentPeriodEnd: end };
      }
    }
    return renewed;
  }

  /** Stripe charged the next period (invoice.paid). */
  async function providerRenewed(event: RenewedSubscription): Promise<boolean> {
    const row = await repo.subscriptionByProviderId(event.providerSubscriptionId);
    if (row?.status !== "active") return false;
    return renewOnce(row, {
      key: `stripe-invoice:${event.invoiceId}`,
      label: "Stripe",
      amountCents: event.amountCents,
      start: event.periodStart,
      end: event.periodEnd,
    });
  }

  // --- cancelling and the portal ----------------------------------------------------------------------

  async function cancelOrg(orgId: number, reason: string, details: string) {
    const active = await repo.activeSubscription(orgId);
    if (!active) throw notFound(BILLING_MESSAGES.noSubscription);
    try {
      await deps.payments.cancelSubscription(active.providerSubscriptionId);
    } catch (error) {
      deps.log.error({ err: error }, "subscription not cancelled at the payment provider");
      throw new ApiError(502, BILLING_MESSAGES.paymentsUnavailable);
    }
    const row = await repo.cancel(orgId, reason, details);
    if (!row) throw notFound(BILLING_MESSAGES.noSubscription);
    return row;
  }

  async function cancel(access: Access, body: { reason: string; details: string }) {
    const row = await cancelOrg(orgOrRefuse(access), body.reason, body.details);
    return { success: true as const, subscription: subscriptionOf(row) };
  }

  async function portalLink(access: Access, body: { redirectUrl: string }, requestOrigin: string) {
    const orgId = orgOrRefuse(access);
    const redirect = returnUrl(body.redirectUrl, requestOrigin);
    if (deps.payments.name === "stripe") {
      const last = await repo.lastSubscription(orgId);
      let url: string | null;
      try {
        url = await deps.payments.portalUrl(last?.providerCustomerId ?? null, redirect);
      } catch (error) {
        deps.log.error({ err: error }, "billing portal not created by the payment provider");
        throw new ApiError(502, BILLING_MESSAGES.paymentsUnavailable);
      }
      if (!url) throw notFound(BILLING_MESSAGES.noSubscription);
      return { success: true as const, url };
    }
    const id = `bps_${randomBytes(18).toString("base64url")}`;
    await repo.insertPortalSession({
      id,
      orgId,
      returnUrl: redirect,
      expiresAt: new Date(now() + PORTAL_TTL_MS),
    });
    return { success: true as const, url: `${deps.publicUrl}/sandbox/billingPortal/${id}` };
  }

  async function portalPage(sessionId: string) {
    if (deps.payments.name !== "sandbox") throw notFound(BILLING_MESSAGES.portalNotFound);
    const session = await repo.portalSession(sessionId, new Date(now()));
    if (!session) throw notFound(BILLING_MESSAGES.portalNotFound);
    const org = await repo.account(session.orgId);
    const active = await repo.activeSubscription(session.orgId);
    const planRow = active ? await repo.plan(active.productPlanId) : null;
    return {
      returnUrl: session.returnUrl,
      orgName: String(org?.details.orgName ?? org?.details.displayName ?? org?.username ?? ""),
      subscription: active,
      plan: planRow,
    };
  }

  async function portalCancel(sessionId: string) {
    const page = await portalPage(sessionId);
    if (page.subscription) await cancelOrg(page.subscription.orgId, "cancelled in the billing portal", "");
    return portalPage(sessionId);
  }

  return {
    catalogue,
    plan,
    currentPlan,
    offeredPlan,
    setOfferedPlan,
    allAvailablePlans,
    subscribe,
    checkoutFor,
    sandboxCheckoutPage,
    sandboxPay,
    providerCompleted,
    providerEnded,
    providerRenewed,
    renewDue,
    cancel,
    portalLink,
    portalPage,
    portalCancel,
  };
}

export type BillingService = ReturnType<typeof createBillingService>;

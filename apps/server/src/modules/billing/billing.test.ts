import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { BILLING_MESSAGES, type ProductPlan, WALLET_MESSAGES } from "@switchboard/api";
import { and, eq, like, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { moneyCaller } from "../../../test/money-call.ts";
import { waitFor } from "../../../test/wait-for.ts";
import { executeRows } from "../../db/client.ts";
import { accounts, ledgerTransactions, subscriptions } from "../../db/schema/index.ts";
import { escapeHtml } from "../../http/html.ts";
import { JOB_SCHEMA } from "../../jobs/schema.ts";
import { sandboxSubscriptionPayments } from "../../providers/payments/subscription-payments.ts";
import { CARD_MESSAGES } from "../../providers/payments/test-cards.ts";
import { createBillingService, periodEnd } from "./billing.service.ts";
import { sandboxRenewalsJob } from "./jobs.ts";

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
const ORIGIN = "http://127.0.0.1:3000";

beforeAll(async () => {
  app = await buildTestApp({ PUBLIC_URL: ORIGIN });
  world = await buildHierarchy(app);
});
afterAll(async () => {
  await app.close();
});

const owner = () => world.members.o1Owner.token;

const call = moneyCaller(
  () => app,
  () => owner(),
);

const db = () => app.context.database.db;
const premiumOf = async (id: number) =>
  (await db().select().from(accounts).where(eq(accounts.id, id)))[0]?.premium;
const plans = async (token = owner()) =>
  (await call("GET", "/api/v2/product/productCatalog", { token })).json().productCatalog as ProductPlan[];
const planNamed = async (name: string, token = owner()) => {
  const plan = (await plans(token)).find((p) => p.name === name);
  if (!plan) throw new Error(`no plan ${name}`);
  return plan;
};
const pathOf = (url: string) => new URL(url).pathname;
const GOOD_CARD = { cardNumber: "4242 4242 4242 4242", expiry: "12 / 40", cvc: "123", name: "O Owner" };

async function startCheckout(productPlanId: number, token = owner(), term = "month") {
  return call("POST", "/api/v2/product/subscribe", {
    token,
    payload: {
      productPlanId,
      term,
      successUrl: "/app/paymentSuccess?checkout={CHECKOUT_SESSION_ID}",
      cancelUrl: "/app/paymentCancel",
    },
  });
}

describe("periods", () => {
  it("a month or a year later, on the month's last day when it is shorter", () => {
    expect(periodEnd(new Date("2026-01-15T10:00:00Z"), "month").toISOString()).toBe(
      "2026-02-15T10:00:00.000Z",
    );
    expect(periodEnd(new Date("2026-01-31T10:00:00Z"), "month").toISOString()).toBe(
      "2026-02-28T10:00:00.000Z",
    );
    expect(periodEnd(new Date("2026-12-31T00:00:00Z"), "month").toISOString()).toBe(
      "2027-01-31T00:00:00.000Z",
    );
    expect(periodEnd(new Date("2028-02-29T00:00:00Z"), "year").toISOString()).toBe(
      "2029-02-28T00:00:00.000Z",
    );
  });
});

describe("the product catalogue", () => {
  it("lists the seeded plans with productItems carrying type and pricing tiers", async () => {
    const res = await call("GET", "/api/v2/product/productCatalog");
    expect(res.statusCode).toBe(200);
    const catalogue = res.json().productCatalog as ProductPlan[];
    expect(catalogue.map((p) => p.name)).toEqual(["Free", "Pro", "Business"]);
    const pro = catalogue[1] as ProductPlan;
    expect(pro).toMatchObject({ monthCents: 4900, yearCents: 49000, premium: true });
    const voice = pro.productItems.voice;
    expect(voice?.type).toBe("metered");
    expect(voice?.tiers[0]).toEqual({ quantityMin: 0, quantityMax: 500, unitPriceCents: 0 });
    // The last tier is open-ended: no quantityMax.
    expect(voice?.tiers.at(-1)).toEqual({ quantityMin: 5001, unitPriceCents: 9 });
  });

  it("answers one plan by id, and 404 for one that does not exist", async () => {
    const pro = await planNamed("Pro");
    const one = await call("GET", `/api/v2/product/productCatalog/${pro.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().productPlan).toEqual(pro);
    const missing = await call("GET", "/api/v2/product/productCatalog/999999");
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(BILLING_MESSAGES.planNotFound);
    expect((await call("GET", "/api/v2/product/productCatalog/abc")).statusCode).toBe(400);
  });

  it("an organisation without a subscription is on the Free plan, not premium", async () => {
    const res = await call("GET", "/api/v2/product/currentPlan");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, subscription: null, premium: false });
    expect(res.json().productPlan.name).toBe("Free");
  });

  it("billing is the owner's: an organisation admin is refused, and so is a call without a token", async () => {
    expect(
      (await call("GET", "/api/v2/product/currentPlan", { token: world.members.o1Admin.token })).statusCode,
    ).toBe(403);
    expect((await call("GET", "/api/v2/product/currentPlan", { token: null })).statusCode).toBe(401);
    expect((await startCheckout(1, world.members.o1Admin.token)).statusCode).toBe(403);
  });
});

describe("offers of partners and resellers (white-label rebilling)", () => {
  it("nothing is offered until the reseller sets an offer; then its organisations see its price", async () => {
    expect((await call("GET", "/api/v2/product/offeredPlan")).json()).toEqual({
      success: true,
      productPlan: null,
      offeredBy: null,
    });
    const business = await planNamed("Business");
    const set = await call("PUT", "/api/v2/product/offeredPlan", {
      token: world.members.r1Owner.token,
      payload: { productPlanId: business.id, monthPrice: 149.5 },
    });
    expect(set.statusCode).toBe(200);
    const offered = (await call("GET", "/api/v2/product/offeredPlan")).json();
    expect(offered.offeredBy).toEqual({ accountId: world.accounts.R1.id, accountType: "reseller" });
    expect(offered.productPlan).toMatchObject({
      name: "Business",
      monthCents: 14950,
      listMonthCents: 19900,
      yearCents: 199000,
    });
    const all = (await call("GET", "/api/v2/product/allAvailablePlans")).json();
    expect(all.offeredPlanId).toBe(business.id);
    expect(all.plans[0].name).toBe("Business");
    // Another reseller's organisation sees the catalogue's price.
    const other = await planNamed("Business", world.members.o2Owner.token);
    expect(other.monthCents).toBe(19900);
  });

  it("an organisation cannot set an offer; a bad price is refused; null withdraws it", async () => {
    const pro = await planNamed("Pro");
    const org = await call("PUT", "/api/v2/product/offeredPlan", { payload: { productPlanId: pro.id } });
    expect(org.statusCode).toBe(400);
    expect(org.json().message).toBe(BILLING_MESSAGES.offersOnly);
    const bad = await call("PUT", "/api/v2/product/offeredPlan", {
      token: world.members.p1Owner.token,
      payload: { productPlanId: pro.id, monthPrice: 1.234 },
    });
    expect(bad.statusCode).toBe(400);
    // The partner's offer is below the reseller's: the reseller's still wins for O1.
    await call("PUT", "/api/v2/product/offeredPlan", {
      token: world.members.p1Owner.token,
      payload: { productPlanId: pro.id, monthPrice: 39 },
    });
    expect((await call("GET", "/api/v2/product/offeredPlan")).json().productPlan.name).toBe("Business");
    await call("PUT", "/api/v2/product/offeredPlan", {
      token: world.members.r1Owner.token,
      payload: { productPlanId: null },
    });
    const now = (await call("GET", "/api/v2/product/offeredPlan")).json();
    expect(now.productPlan).toMatchObject({ name: "Pro", monthCents: 3900 });
    expect(now.offeredBy.accountType).toBe("partner");
    await call("PUT", "/api/v2/product/offeredPlan", {
      token: world.members.p1Owner.token,
      payload: { productPlanId: null },
    });
  });
});

describe("subscribing through the sandbox checkout", () => {
  it("refuses the Free plan, an unknown plan, a foreign return url, and a reseller", async () => {
    const free = await planNamed("Free");
    const f = await startCheckout(free.id);
    expect(f.statusCode).toBe(400);
    expect(f.json().message).toBe(BILLING_MESSAGES.freePlan);
    expect((await startCheckout(999999)).statusCode).toBe(404);
    const foreign = await call("POST", "/api/v2/product/subscribe", {
      payload: { productPlanId: free.id + 1, successUrl: "https://evil.example/x", cancelUrl: "/app" },
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe(BILLING_MESSAGES.returnUrl);
    const reseller = await startCheckout(free.id + 1, world.members.r1Owner.token);
    expect(reseller.statusCode).toBe(400);
    expect(reseller.json().message).toBe(BILLING_MESSAGES.organizationsOnly);
  });

  it("a declined card starts nothing; 4242 activates the plan once, premium on, a ledger posting", async () => {
    // Created 20 days ago: its usage periods ran from that day until the plan started.
    await db()
      .update(accounts)
      .set({ createdAt: new Date(Date.now() - 20 * 86_400_000) })
      .where(eq(accounts.id, world.accounts.O1.id));
    const pro = await planNamed("Pro");
    const res = await startCheckout(pro.id);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.checkout).toMatchObject({
      status: "open",
      amountCents: 4900,
      term: "month",
      provider: "sandbox",
    });
    const page = pathOf(body.url);
    expect(page).toBe(`/sandbox/subscribe/${body.checkout.id}`);
    const shown = await call("GET", page, { token: null });
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain("$49.00");

    const declined = await call("POST", page, {
      token: null,
      form: { ...GOOD_CARD, cardNumber: "4000 0000 0000 0002", action: "pay" },
    });
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain(CARD_MESSAGES.declined);
    expect(await premiumOf(world.accounts.O1.id)).toBe(false);

    const paid = await call("POST", page, { token: null, form: { ...GOOD_CARD, action: "pay" } });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`${ORIGIN}/app/paymentSuccess?checkout=${body.checkout.id}`);
    expect(await premiumOf(world.accounts.O1.id)).toBe(true);

    // The same form again (a double submit) changes nothing.
    const again = await call("POST", page, { token: null, form: { ...GOOD_CARD, action: "pay" } });
    expect(again.statusCode).toBe(303);
    const subs = await db().select().from(subscriptions).where(eq(subscriptions.orgId, world.accounts.O1.id));
    expect(subs).toHaveLength(1);
    const postings = await db()
      .select()
      .from(ledgerTransactions)
      .where(like(ledgerTransactions.idempotencyKey, `subscription:${body.checkout.id}`));
    expect(postings).toHaveLength(1);
    expect(postings[0]?.kind).toBe("subscription");
    const audit = await app.wallet.ledger.audit();
    expect(audit.sums.usd ?? 0).toBe(0);
    expect(audit.drifted).toEqual([]);

    const current = (await call("GET", "/api/v2/product/currentPlan")).json();
    expect(current.premium).toBe(true);
    expect(current.productPlan.name).toBe("Pro");
    expect(current.subscription).toMatchObject({ status: "active", term: "month", amountCents: 4900 });
    expect(current.subscription.currentPeriodEnd).toBe(
      periodEnd(new Date(current.subscription.currentPeriodStart), "month").getTime(),
    );
    // One period everywhere: the usage period is the plan's (from the day it started, to the day before
    // it renews), whatever day the organisation was created.
    const usage = (await call("GET", "/api/v2/stats/usage?billingPeriod=current&giveCosts=true")).json();
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    expect(usage.startDate).toBe(day(current.subscription.currentPeriodStart));
    expect(usage.endDate).toBe(day(current.subscription.currentPeriodEnd - 86_400_000));
    expect(usage).toMatchObject({ debitedCents: 0, notChargedCents: 0, pendingCents: 0 });
    // The wallet lists the plan at its price, paid by card (the wallet's balance did not change).
    const wallet = (await call("GET", "/api/v1/recentTransactions")).json();
    const paidPlan = wallet.transactions.find((tx: { kind: string }) => tx.kind === "subscription");
    expect(paidPlan).toMatchObject({ amountCents: 0, paidByCardCents: 4900 });
    const checkout = await call("GET", `/api/v2/product/subscribe/${body.checkout.id}`);
    expect(checkout.json().checkout.status).toBe("complete");
    // Another organisation does not see it.
    const foreign = await call("GET", `/api/v2/product/subscribe/${body.checkout.id}`, {
      token: world.members.o2Owner.token,
    });
    expect(foreign.statusCode).toBe(404);
  });

  it("an organisation with an active plan cannot start a second one", async () => {
    const business = await planNamed("Business");
    const res = await startCheckout(business.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(BILLING_MESSAGES.alreadySubscribed);
  });

  it("concurrent payments of one checkout activate it once", async () => {
    const pro = await planNamed("Pro", world.members.o2Owner.token);
    const res = await startCheckout(pro.id, world.members.o2Owner.token, "year");
    const page = pathOf(res.json().url);
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        call("POST", page, { token: null, form: { ...GOOD_CARD, action: "pay" } }),
      ),
    );
    expect(results.every((r) => r.statusCode === 303)).toBe(true);
    const subs = await db().select().from(subscriptions).where(eq(subscriptions.orgId, world.accounts.O2.id));
    expect(subs).toHaveLength(1);
    expect(subs[0]).toMatchObject({ term: "year", amountCents: 49000, status: "active" });
  });

  it("two checkouts of one organisation paid at once: one is charged, the other refused with 409", async () => {
    const w = await buildHierarchy(app);
    const token = w.members.o1Owner.token;
    const org = w.accounts.O1.id;
    const pages = [
      pathOf((await startCheckout((await planNamed("Pro", token)).id, token)).json().url),
      pathOf((await startCheckout((await planNamed("Business", token)).id, token)).json().url),
    ];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call("POST", pages[i % 2] as string, { token: null, form: { ...GOOD_CARD, action: "pay" } }),
      ),
    );
    const subs = await db().select().from(subscriptions).where(eq(subscriptions.orgId, org));
    expect(subs).toHaveLength(1);
    expect(subs[0]?.status).toBe("active");
    const charges = await db()
      .select()
      .from(ledgerTransactions)
      .where(and(eq(ledgerTransactions.ownerAccountId, org), eq(ledgerTransactions.kind, "subscription")));
    expect(charges).toHaveLength(1);
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s !== 303 && s !== 409)).toEqual([]);
    const winners = new Set(results.filter((r) => r.statusCode === 303).map((r) => r.headers.location));
    expect(winners.size).toBe(1);
    // Refused before the card (a plan was active already) or after it (the other checkout won the lock).
    const refusals = [BILLING_MESSAGES.alreadySubscribed, BILLING_MESSAGES.paidElsewhere].map(escapeHtml);
    for (const lost of results.filter((r) => r.statusCode === 409))
      expect(refusals.some((message) => lost.body.includes(message))).toBe(true);

    expect(await premiumOf(org)).toBe(true);
    const audit = await app.wallet.ledger.audit();
    expect(audit.sums.usd ?? 0).toBe(0);
    expect(audit.drifted).toEqual([]);
  });

  it("one pay each of two checkouts at once: one 303, the other 409 (never 500)", async () => {
    const w = await buildHierarchy(app);
    const token = w.members.o1Owner.token;
    const pages = [
      pathOf((await startCheckout((await planNamed("Pro", token)).id, token, "year")).json().url),
      pathOf((await startCheckout((await planNamed("Business", token)).id, token, "year")).json().url),
    ];
    const results = await Promise.all(
      pages.map((page) => call("POST", page, { token: null, form: { ...GOOD_CARD, action: "pay" } })),
    );
    const subs = await db().select().from(subscriptions).where(eq(subscriptions.orgId, w.accounts.O1.id));
    expect(subs).toHaveLength(1);
    expect(results.map((r) => r.statusCode).sort()).toEqual([303, 409]);
  });

  it("cancel on the checkout page returns to cancelUrl and expires it", async () => {
    const pro = await planNamed("Pro", world.members.uOwner.token);
    const res = await startCheckout(pro.id, world.members.uOwner.token);
    const page = pathOf(res.json().url);
    const cancelled = await call("POST", page, { token: null, form: { action: "cancel" } });
    expect(cancelled.statusCode).toBe(303);
    expect(cancelled.headers.location).toBe(`${ORIGIN}/app/paymentCancel`);
    const after = await call("POST", page, { token: null, form: { ...GOOD_CARD, action: "pay" } });
    expect(after.headers.location).toBe(`${ORIGIN}/app/paymentCancel`);
    expect(await premiumOf(world.accounts.U.id)).toBe(false);
    expect((await call("GET", "/sandbox/subscribe/nope", { token: null })).statusCode).toBe(404);
  });
});

describe("sandbox renewals (the test card on file, like Stripe's test mode)", () => {
  it("charges each ended period once, catching up, and moves the period on", async () => {
    const w = await buildHierarchy(app);
    const token = w.members.o1Owner.token;
    const pro = await planNamed("Pro", token);
    const res = await startCheckout(pro.id, token);
    await call("POST", pathOf(res.json().url), { token: null, form: { ...GOOD_CARD, action: "pay" } });
    const [sub] = await db().select().from(subscriptions).where(eq(subscriptions.orgId, w.accounts.O1.id));
    if (!sub) throw new Error("not subscribed");
    const later = (at: number) =>
      createBillingService({
        db: db(),
        ledger: app.wallet.ledger,
        payments: sandboxSubscriptionPayments(ORIGIN),
        publicUrl: ORIGIN,
        log: app.log,
        money: app.context.limits.money,
        now: () => at,
      });
    const renewals = async () =>
      (
        await db()
          .select()
          .from(ledgerTransactions)
          .where(like(ledgerTransactions.idempotencyKey, `subscription:${sub.id}:renewal:%`))
      ).length;
    // Before the period ends nothing is due.
    await later(sub.currentPeriodEnd.getTime() - 1000).renewDue();
    expect(await renewals()).toBe(0);
    // Two periods and a day later: two renewals, the period is the third.
    const secondEnd = periodEnd(sub.currentPeriodEnd, "month");
    const at = secondEnd.getTime() + 86_400_000;
    await later(at).renewDue();
    expect(await renewals()).toBe(2);
    await Promise.all([later(at).renewDue(), later(at).renewDue()]);
    expect(await renewals()).toBe(2);
    const [after] = await db().select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(after?.currentPeriodStart.getTime()).toBe(secondEnd.getTime());
    expect(after?.currentPeriodEnd.getTime()).toBe(periodEnd(secondEnd, "month").getTime());
    expect(await premiumOf(w.accounts.O1.id)).toBe(true);
    const audit = await app.wallet.ledger.audit();
    expect(audit.sums.usd ?? 0).toBe(0);
    await call("DELETE", "/api/v1/switchboardPro/cancel", { token, payload: {} });
  });

  it("run on the job runner: an ended period is renewed by the job, which queues its next check", async () => {
    const w = await buildHierarchy(app);
    const token = w.members.o2Owner.token;
    const pro = await planNamed("Pro", token);
    const res = await startCheckout(pro.id, token);
    await call("POST", pathOf(res.json().url), { token: null, form: { ...GOOD_CARD, action: "pay" } });
    const [sub] = await db().select().from(subscriptions).where(eq(subscriptions.orgId, w.accounts.O2.id));
    if (!sub) throw new Error("not subscribed");
    // The period ended an hour ago.
    const ended = new Date(Date.now() - 3_600_000);
    await db()
      .update(subscriptions)
      .set({ currentPeriodStart: new Date(ended.getTime() - 30 * 86_400_000), currentPeriodEnd: ended })
      .where(eq(subscriptions.id, sub.id));
    // The check queued at start comes due (as it would a quarter of an hour after start).
    await executeRows(
      db(),
      sql`update ${sql.raw(JOB_SCHEMA)}.job set start_after = now()
        where name = ${sandboxRenewalsJob.name} and state = 'created'`,
    );
    const renewed = await waitFor(
      () =>
        db()
          .select()
          .from(ledgerTransactions)
          .where(like(ledgerTransactions.idempotencyKey, `subscription:${sub.id}:renewal:%`)),
      (rows) => rows.length > 0,
    );
    expect(renewed).toHaveLength(1);
    // The job queued its next check, a quarter of an hour on.
    const next = await waitFor(
      () =>
        executeRows<{ after: Date }>(
          db(),
          sql`select start_after as after from ${sql.raw(JOB_SCHEMA)}.job
            where name = ${sandboxRenewalsJob.name} and state = 'created'`,
        ),
      (rows) => rows.length > 0,
    );
    expect(next.map((row) => new Date(row.after).getTime() - Date.now())).toEqual([
      expect.toSatisfy((ms: number) => ms > 14 * 60_000 && ms <= 15 * 60_000),
    ]);
    const [after] = await db().select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(after?.currentPeriodStart.getTime()).toBe(ended.getTime());
    await call("DELETE", "/api/v1/switchboardPro/cancel", { token, payload: {} });
  });
});

describe("the customer portal and cancelling", () => {
  it("the portal link opens the sandbox portal showing the plan", async () => {
    const res = await call("POST", "/api/v1/getBillingCustomerPortalLink", {
      payload: { redirectUrl: "/app/billing" },
    });
    expect(res.statusCode).toBe(200);
    const page = await call("GET", pathOf(res.json().url), { token: null });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Pro");
    expect(page.body).toContain("$49.00 per month");
    expect(page.body).toContain(`${ORIGIN}/app/billing`);
    expect((await call("GET", "/sandbox/billingPortal/bps_unknown", { token: null })).statusCode).toBe(404);
    const bad = await call("POST", "/api/v1/getBillingCustomerPortalLink", {
      payload: { redirectUrl: "https://evil.example/" },
    });
    expect(bad.statusCode).toBe(400);
  });

  it("cancel ends the plan at once and turns premium off; a second cancel is 404", async () => {
    const res = await call("DELETE", "/api/v1/switchboardPro/cancel", {
      payload: { reason: "too expensive", details: "trying it later" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().subscription).toMatchObject({ status: "canceled" });
    expect(await premiumOf(world.accounts.O1.id)).toBe(false);
    const current = (await call("GET", "/api/v2/product/currentPlan")).json();
    expect(current).toMatchObject({ subscription: null, premium: false });
    expect(current.productPlan.name).toBe("Free");
    const again = await call("DELETE", "/api/v1/switchboardPro/cancel", { payload: {} });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(BILLING_MESSAGES.noSubscription);
  });

  it("the portal's cancel button ends O2's plan", async () => {
    const link = await call("POST", "/api/v1/getBillingCustomerPortalLink", {
      token: world.members.o2Owner.token,
      payload: { redirectUrl: "/app/billing" },
    });
    const path = pathOf(link.json().url);
    const res = await call("POST", path, { token: null, form: { action: "cancel" } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("No active plan");
    expect(await premiumOf(world.accounts.O2.id)).toBe(false);
  });
});

describe("Stripe (PAYMENTS=stripe): subscription mode, signed webhooks, portal, cancel", () => {
  let stripeApp: FastifyInstance;
  let fakeStripe: Server;
  const secret = "whsec_test_secret";
  const sent: Record<string, string>[] = [];

  beforeAll(async () => {
    // Stripe's API as far as these calls go: Checkout Sessions, subscriptions' cancel, portal sessions.
    fakeStripe = createServer((req, res) => {
      let text = "";
      req.on("data", (c) => {
        text += c;
      });
      req.on("end", () => {
        sent.push({
          method: req.method ?? "",
          path: req.url ?? "",
          idempotencyKey: String(req.headers["idempotency-key"] ?? ""),
          ...Object.fromEntries(new URLSearchParams(text)),
        });
        res.setHeader("content-type", "application/json");
        if (req.url?.startsWith("/v1/checkout/sessions"))
          res.end(
            JSON.stringify({
              id: "cs_test_sub",
              object: "checkout.session",
              url: "https://checkout.stripe.com/c/pay/cs_test_sub",
            }),
          );
        else if (req.url?.startsWith("/v1/billing_portal/sessions"))
          res.end(
            JSON.stringify({
              id: "bps_1",
              object: "billing_portal.session",
              url: "https://billing.stripe.com/p/session/test_1",
            }),
          );
        else if (req.url?.startsWith("/v1/subscriptions/"))
          res.end(
            JSON.stringify({
              id: req.url.split("/").at(-1),
              object: "subscription",
              status: req.method === "GET" ? "active" : "canceled",
            }),
          );
        else if (req.url?.startsWith("/v1/invoice_payments")) {
          // One paid payment per invoice: in_x was paid by pi_x.
          const invoice = new URL(req.url, "http://stripe").searchParams.get("invoice") ?? "";
          res.end(
            JSON.stringify({
              object: "list",
              has_more: false,
              data: [
                {
                  id: `inpay_${invoice}`,
                  object: "invoice_payment",
                  status: "paid",
                  payment: { type: "payment_intent", payment_intent: invoice.replace(/^in_/, "pi_") },
                },
              ],
            }),
          );
        } else if (req.url?.startsWith("/v1/refunds"))
          res.end(JSON.stringify({ id: `re_${text.length}`, object: "refund", status: "succeeded" }));
        else {
          res.statusCode = 404;
          res.end(JSON.stringify({ error: { message: "no such route" } }));
        }
      });
    });
    await new Promise<void>((resolve) => fakeStripe.listen(0, "127.0.0.1", resolve));
    stripeApp = await buildTestApp({
      PUBLIC_URL: ORIGIN,
      PAYMENTS: "stripe",
      STRIPE_SECRET_KEY: "sk_test_123",
      STRIPE_WEBHOOK_SECRET: secret,
      STRIPE_API_URL: `http://127.0.0.1:${(fakeStripe.address() as AddressInfo).port}`,
    });
  });
  afterAll(async () => {
    await stripeApp?.close();
    fakeStripe?.close();
  });

  const webhook = (event: object, key = secret) => {
    const payload = JSON.stringify(event);
    return stripeApp.inject({
      method: "POST",
      url: "/api/v1/payments/stripe/billingWebhook",
      headers: {
        "content-type": "application/json",
        "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload, secret: key }),
      },
      payload,
    });
  };

  it("subscribes through a Checkout Session in subscription mode, activates once on the signed webhook, cancels", async () => {
    const w = await buildHierarchy(stripeApp);
    const token = w.members.o1Owner.token;
    const org = w.accounts.O1.id;
    const inject = (method: "GET" | "POST" | "DELETE", url: string, payload?: object) =>
      stripeApp.inject({
        method,
        url: `${url}?token=${token}`,
        headers: { host: "127.0.0.1:3000" },
        ...(payload ? { payload } : {}),
      });
    const catalogue = (await inject("GET", "/api/v2/product/productCatalog")).json()
      .productCatalog as ProductPlan[];
    const pro = catalogue.find((p) => p.name === "Pro") as ProductPlan;
    const made = await inject("POST", "/api/v2/product/subscribe", {
      productPlanId: pro.id,
      successUrl: "/app/paymentSuccess?planCheckout={CHECKOUT_SESSION_ID}",
      cancelUrl: "/app/paymentCancel",
    });
    expect(made.statusCode).toBe(200);
    expect(made.json().url).toBe("https://checkout.stripe.com/c/pay/cs_test_sub");
    const ours = made.json().checkout.id as string;
    const request = sent.find((r) => r.path === "/v1/checkout/sessions") as Record<string, string>;
    expect(request.mode).toBe("subscription");
    expect(request["line_items[0][price_data][unit_amount]"]).toBe("4900");
    expect(request["line_items[0][price_data][recurring][interval]"]).toBe("month");
    expect(request.client_reference_id).toBe(ours);
    expect(request.success_url).toBe(`${ORIGIN}/app/paymentSuccess?planCheckout=${ours}`);

    const completed = {
      id: "evt_1",
      object: "event",
      type: "checkout.session.completed",
      data: {
        object: {
          id: "cs_test_sub",
          object: "checkout.session",
          mode: "subscription",
          client_reference_id: ours,
          payment_status: "paid",
          amount_total: 4900,
          currency: "usd",
          subscription: "sub_test_1",
          customer: "cus_test_1",
        },
      },
    };
    const forged = await webhook(completed, "whsec_other");
    expect(forged.statusCode).toBe(400);
    expect(forged.json().message).toBe(WALLET_MESSAGES.stripeSignature);
    const premium = async () =>
      (await stripeApp.context.database.db.select().from(accounts).where(eq(accounts.id, org)))[0]?.premium;
    expect(await premium()).toBe(false);
    expect((await webhook(completed)).json()).toEqual({ received: true });
    expect((await webhook(completed)).statusCode).toBe(200);
    expect(await premium()).toBe(true);
    const rows = await stripeApp.context.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.orgId, org));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      provider: "stripe",
      providerSubscriptionId: "sub_test_1",
      providerCustomerId: "cus_test_1",
    });
    // The sandbox's checkout page is off under Stripe.
    expect((await stripeApp.inject({ method: "GET", url: `/sandbox/subscribe/${ours}` })).statusCode).toBe(
      404,
    );

    const portal = await inject("POST", "/api/v1/getBillingCustomerPortalLink", {
      redirectUrl: "/app/billing",
    });
    expect(portal.json().url).toBe("https://billing.stripe.com/p/session/test_1");
    const portalCall = sent.find((r) => r.path === "/v1/billing_portal/sessions") as Record<string, string>;
    expect(portalCall).toMatchObject({ customer: "cus_test_1", return_url: `${ORIGIN}/app/billing` });

    const cancelled = await inject("DELETE", "/api/v1/switchboardPro/cancel", { reason: "r", details: "d" });
    expect(cancelled.statusCode).toBe(200);
    expect(sent.some((r) => r.method === "DELETE" && r.path === "/v1/subscriptions/sub_test_1")).toBe(true);
    expect(await premium()).toBe(false);
  });

  it("two checkouts paid at Stripe at once: one plan starts, the other's payment is refunded and its subscription ended", async () => {
    const w = await buildHierarchy(stripeApp);
    const token = w.members.o1Owner.token;
    const org = w.accounts.O1.id;
    const catalogue = (
      await stripeApp.inject({ method: "GET", url: `/api/v2/product/productCatalog?token=${token}` })
    ).json().productCatalog as ProductPlan[];
    const checkouts = await Promise.all(
      ["Pro", "Business"].map(async (name) => {
        const plan = catalogue.find((p) => p.name === name) as ProductPlan;
        const made = await stripeApp.inject({
          method: "POST",
          url: `/api/v2/product/subscribe?token=${token}`,
          headers: { host: "127.0.0.1:3000" },
          payload: {
            productPlanId: plan.id,
            successUrl: "/app/paymentSuccess",
            cancelUrl: "/app/paymentCancel",
          },
        });
        return { id: made.json().checkout.id as string, amount: plan.monthCents, tag: name.toLowerCase() };
      }),
    );
    const completed = (c: (typeof checkouts)[number]) => ({
      id: `evt_race_${c.tag}`,
      object: "event",
      type: "checkout.session.completed",
      data: {
        object: {
          id: `cs_race_${c.tag}`,
          object: "checkout.session",
          mode: "subscription",
          client_reference_id: c.id,
          payment_status: "paid",
          amount_total: c.amount,
          currency: "usd",
          subscription: `sub_race_${c.tag}`,
          customer: "cus_race",
          invoice: `in_race_${c.tag}`,
        },
      },
    });
    const answers = await Promise.all(checkouts.map((c) => webhook(completed(c))));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);

    const database = stripeApp.context.database.db;
    const rows = await database.select().from(subscriptions).where(eq(subscriptions.orgId, org));
    expect(rows).toHaveLength(1);
    const charges = await database
      .select()
      .from(ledgerTransactions)
      .where(and(eq(ledgerTransactions.ownerAccountId, org), eq(ledgerTransactions.kind, "subscription")));
    expect(charges).toHaveLength(1);
    const loser = checkouts.find((c) => c.id !== rows[0]?.checkoutId) as (typeof checkouts)[number];
    const refunds = sent.filter((r) => r.method === "POST" && r.path === "/v1/refunds");
    expect(refunds).toEqual([
      expect.objectContaining({
        payment_intent: `pi_race_${loser.tag}`,
        idempotencyKey: `refund:inpay_in_race_${loser.tag}`,
      }),
    ]);
    expect(
      sent.some((r) => r.method === "DELETE" && r.path === `/v1/subscriptions/sub_race_${loser.tag}`),
    ).toBe(true);
    const shown = await stripeApp.inject({
      method: "GET",
      url: `/api/v2/product/subscribe/${loser.id}?token=${token}`,
    });
    expect(shown.json().checkout.status).toBe("refunded");

    // Stripe sends the loser's event again: still one plan, the refund asked with the same key.
    expect((await webhook(completed(loser))).statusCode).toBe(200);
    expect(await database.select().from(subscriptions).where(eq(subscriptions.orgId, org))).toHaveLength(1);
    expect(new Set(sent.filter((r) => r.path === "/v1/refunds").map((r) => r.idempotencyKey))).toEqual(
      new Set([`refund:inpay_in_race_${loser.tag}`]),
    );
  });

  it("customer.subscription.deleted (cancelled in Stripe's portal) ends the plan and turns premium off", async () => {
    const w = await buildHierarchy(stripeApp);
    const token = w.members.o1Owner.token;
    const org = w.accounts.O1.id;
    const catalogue = (
      await stripeApp.inject({ method: "GET", url: `/api/v2/product/productCatalog?token=${token}` })
    ).json().productCatalog as ProductPlan[];
    const business = catalogue.find((p) => p.name === "Business") as ProductPlan;
    const made = await stripeApp.inject({
      method: "POST",
      url: `/api/v2/product/subscribe?token=${token}`,
      headers: { host: "127.0.0.1:3000" },
      payload: {
        productPlanId: business.id,
        term: "year",
        successUrl: "/app/paymentSuccess",
        cancelUrl: "/app/paymentCancel",
      },
    });
    const ours = made.json().checkout.id as string;
    await webhook({
      id: "evt_2",
      object: "event",
      type: "checkout.session.completed",
      data: {
        object: {
          id: "cs_test_sub2",
          object: "checkout.session",
          mode: "subscription",
          client_reference_id: ours,
          payment_status: "paid",
          amount_total: 199000,
          currency: "usd",
          subscription: "sub_test_2",
          customer: "cus_test_2",
        },
      },
    });
    const premium = async () =>
      (await stripeApp.context.database.db.select().from(accounts).where(eq(accounts.id, org)))[0]?.premium;
    expect(await premium()).toBe(true);
    // Stripe charged the next year: one posting however often the event comes, and the period moves on.
    const renewed = {
      id: "evt_r",
      object: "event",
      type: "invoice.paid",
      data: {
        object: {
          id: "in_test_1",
          object: "invoice",
          billing_reason: "subscription_cycle",
          amount_paid: 199000,
          parent: { type: "subscription_details", subscription_details: { subscription: "sub_test_2" } },
          lines: { object: "list", data: [{ period: { start: 1_900_000_000, end: 1_931_536_000 } }] },
        },
      },
    };
    await webhook(renewed);
    await webhook(renewed);
    const db2 = stripeApp.context.database.db;
    expect(
      await db2
        .select()
        .from(ledgerTransactions)
        .where(eq(ledgerTransactions.idempotencyKey, "stripe-invoice:in_test_1")),
    ).toHaveLength(1);
    const [sub2] = await db2.select().from(subscriptions).where(eq(subscriptions.orgId, org));
    expect(sub2?.currentPeriodEnd.getTime()).toBe(1_931_536_000_000);
    await webhook({
      id: "evt_3",
      object: "event",
      type: "customer.subscription.deleted",
      data: { object: { id: "sub_test_2", object: "subscription", status: "canceled" } },
    });
    expect(await premium()).toBe(false);
    const current = (
      await stripeApp.inject({ method: "GET", url: `/api/v2/product/currentPlan?token=${token}` })
    ).json();
    expect(current).toMatchObject({ subscription: null, premium: false });
  });
});

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SAT_TO_USD_FALLBACK, WALLET_MESSAGES } from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { moneyCaller } from "../../../test/money-call.ts";
import { decodeInvoice, paymentHashOf } from "../../providers/lightning/bolt11.ts";
import { CARD_MESSAGES } from "../../providers/payments/test-cards.ts";
import type { RateProvider } from "../../providers/rates/rate-provider.ts";
import { createWalletService } from "./wallet.service.ts";

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

const balanceOf = async (token = owner()) =>
  (await call("GET", "/api/v1/recentTransactions", { token })).json().balance.availableCents as number;

describe("balance and transactions", () => {
  it("an empty wallet answers a zero balance and no transactions", async () => {
    const res = await call("GET", "/api/v1/recentTransactions");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      balance: { availableCents: 0, heldCents: 0, owedCents: 0, currency: "usd" },
      transactions: [],
    });
  });

  it("an organisation admin may not see the wallet (canViewBilling is the owner's)", async () => {
    const res = await call("GET", "/api/v1/recentTransactions", { token: world.members.o1Admin.token });
    expect(res.statusCode).toBe(403);
  });
});

describe("exchange rate", () => {
  it("answers the sandbox market's satToUsd near the spec's 0.00043", async () => {
    const res = await call("GET", "/api/v1/exchangeRates");
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.source).toBe("sandbox");
    expect(body.satToUsd).toBeGreaterThan(0.00043 * 0.96);
    expect(body.satToUsd).toBeLessThan(0.00043 * 1.04);
  });

  it("keeps a rate 900 s, and falls back to 0.00043 when the provider fails", async () => {
    let clock = 1_000_000;
    let asked = 0;
    let failing = false;
    const rates: RateProvider = {
      name: "counting",
      async satToUsd() {
        asked++;
        if (failing) throw new Error("down");
        return 0.0005 + asked / 1e7;
      },
    };
    const service = createWalletService({
      db: app.context.database.db,
      ledger: app.wallet.ledger,
      links: app.wallet.links,
      payments: { name: "sandbox", createCheckout: async () => ({ providerSessionId: null, url: "" }) },
      lightning: app.wallet.sandboxNode as NonNullable<typeof app.wallet.sandboxNode>,
      rates,
      publicUrl: ORIGIN,
      log: app.log,
      sandboxWalletUrl: null,
      money: app.context.limits.money,
      now: () => clock,
    });
    const first = await service.exchangeRate();
    expect(first).toMatchObject({ satToUsd: 0.0005001, source: "counting" });
    clock += 899_000;
    expect(await service.exchangeRate()).toEqual(first);
    expect(asked).toBe(1);
    clock += 2000;
    failing = true;
    expect(await service.exchangeRate()).toMatchObject({ satToUsd: SAT_TO_USD_FALLBACK, source: "fallback" });
    expect(asked).toBe(2);
  });
});

describe("card top-up through the sandbox checkout", () => {
  const body = {
    amount: 25,
    currency: "usd",
    successUrl: "/app/paymentSuccess?session_id={CHECKOUT_SESSION_ID}",
    cancelUrl: "/app/paymentCancel",
  };

  it("refuses bad amounts, other currencies, return urls elsewhere, and an admin", async () => {
    for (const amount of [0, 0.5, 10_001, 12.345, "abc"]) {
      const res = await call("POST", "/api/v1/checkout/switchboardCredit", { payload: { ...body, amount } });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(WALLET_MESSAGES.amount);
    }
    const eur = await call("POST", "/api/v1/checkout/switchboardCredit", {
      payload: { ...body, currency: "eur" },
    });
    expect(eur.statusCode).toBe(400);
    expect(eur.json().message).toContain(WALLET_MESSAGES.currency);
    const away = await call("POST", "/api/v1/checkout/switchboardCredit", {
      payload: { ...body, successUrl: "https://evil.example/steal" },
    });
    expect(away.statusCode).toBe(400);
    expect(away.json().message).toBe(WALLET_MESSAGES.returnUrl);
    const admin = await call("POST", "/api/v1/checkout/switchboardCredit", {
      token: world.members.o1Admin.token,
      payload: body,
    });
    expect(admin.statusCode).toBe(403);
  });

  it("declines 4000…0002, accepts 4242…, credits once, and redirects to successUrl", async () => {
    const made = await call("POST", "/api/v1/checkout/switchboardCredit", { payload: body });
    expect(made.statusCode).toBe(200);
    const { url, successUrl, cancelUrl, session } = made.json();
    expect(successUrl).toBe(`${ORIGIN}/app/paymentSuccess?session_id={CHECKOUT_SESSION_ID}`);
    expect(cancelUrl).toBe(`${ORIGIN}/app/paymentCancel`);
    expect(session).toMatchObject({ status: "open", amountCents: 2500, provider: "sandbox" });
    expect(url).toBe(`${ORIGIN}/sandbox/checkout/${session.id}`);
    const path = new URL(url).pathname;

    const page = await call("GET", path, { token: "" });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("$25.00");
    expect(page.body).toContain("4242 4242 4242 4242");

    const card = {
      cardNumber: "4000 0000 0000 0002",
      expiry: "12 / 34",
      cvc: "123",
      name: "Test",
      action: "pay",
    };
    const declined = await call("POST", path, { token: "", form: card });
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain(CARD_MESSAGES.declined);
    const badExpiry = await call("POST", path, {
      token: "",
      form: { ...card, cardNumber: "4242424242424242", expiry: "01/20" },
    });
    expect(badExpiry.body).toContain(CARD_MESSAGES.pastExpiry.replaceAll("'", "&#39;"));
    const badLuhn = await call("POST", path, {
      token: "",
      form: { ...card, cardNumber: "4242424242424241" },
    });
    expect(badLuhn.body).toContain(CARD_MESSAGES.invalidNumber);
    expect(await balanceOf()).toBe(0);

    const paid = await call("POST", path, {
      token: "",
      form: { ...card, cardNumber: "4242 4242 4242 4242" },
    });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`${ORIGIN}/app/paymentSuccess?session_id=${session.id}`);
    expect(await balanceOf()).toBe(2500);
    // Paying again (a double submit, the back button) credits nothing more.
    const again = await call("POST", path, {
      token: "",
      form: { ...card, cardNumber: "4242 4242 4242 4242" },
    });
    expect(again.statusCode).toBe(303);
    expect(await balanceOf()).toBe(2500);

    const status = await call("GET", `/api/v1/checkout/sessions/${session.id}`);
    expect(status.json().session.status).toBe("complete");
    const list = (await call("GET", "/api/v1/recentTransactions")).json();
    expect(list.transactions).toHaveLength(1);
    expect(list.transactions[0]).toMatchObject({
      kind: "topup.card",
      amountCents: 2500,
      description: "Card top-up (Visa •••• 4242)",
    });
    // Another tenant cannot read the checkout.
    const other = await call("GET", `/api/v1/checkout/sessions/${session.id}`, {
      token: world.members.uOwner.token,
    });
    expect(other.statusCode).toBe(404);
  });

  it("cancel returns to cancelUrl, and a cancelled checkout cannot be paid", async () => {
    const { url } = (
      await call("POST", "/api/v1/checkout/switchboardCredit", { payload: { ...body, amount: 5 } })
    ).json();
    const path = new URL(url).pathname;
    const before = await balanceOf();
    const cancelled = await call("POST", path, { token: "", form: { action: "cancel" } });
    expect(cancelled.statusCode).toBe(303);
    expect(cancelled.headers.location).toBe(`${ORIGIN}/app/paymentCancel`);
    const late = await call("POST", path, {
      token: "",
      form: { action: "pay", cardNumber: "4242424242424242", expiry: "12/34", cvc: "123" },
    });
    expect(late.headers.location).toBe(`${ORIGIN}/app/paymentCancel`);
    expect(await balanceOf()).toBe(before);
    expect((await call("GET", "/sandbox/checkout/cs_sandbox_nope", { token: "" })).statusCode).toBe(404);
  });
});

describe("lightning top-up", () => {
  it("issues a real BOLT11 invoice, and credits only for the right preimage, only once", async () => {
    const token = world.members.r1Owner.token;
    const before = await balanceOf(token);
    const made = await call("POST", "/api/v1/requestInvoice", { token, payload: { amount: 10 } });
    expect(made.statusCode).toBe(200);
    const pending = made.json().pendingInvoice;
    expect(pending).toMatchObject({ amountCents: 1000, status: "pending" });
    expect(pending.invoice).toMatch(/^lnbcrt\d+n1/);
    const decoded = decodeInvoice(pending.invoice);
    expect(decoded).toMatchObject({ amountSats: pending.amountSats, paymentHash: pending.paymentHash });
    expect(decoded.payee).toBe(app.wallet.sandboxNode?.publicKey);
    expect(pending.amountSats * 0.00043 * 1.04).toBeGreaterThan(10);

    const validated = (
      await call("GET", `/api/v1/validateInvoice?invoice=${pending.invoice}`, { token })
    ).json();
    expect(validated).toMatchObject({
      valid: true,
      network: "bcrt",
      paymentHash: pending.paymentHash,
      expired: false,
    });
    const garbage = (
      await call("GET", "/api/v1/validateInvoice?invoice=lnbc1notaninvoice", { token })
    ).json();
    expect(garbage).toMatchObject({ success: true, valid: false });

    expect((await call("GET", "/api/v1/pendingInvoice", { token })).json().pendingInvoice.invoice).toBe(
      pending.invoice,
    );

    const wrong = await call("POST", "/api/v1/provePendingInvoicePaid", {
      token,
      payload: { preimage: "ab".repeat(32), invoice: pending.invoice },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(WALLET_MESSAGES.preimageMismatch);
    const malformed = await call("POST", "/api/v1/provePendingInvoicePaid", {
      token,
      payload: { preimage: "xyz", invoice: pending.invoice },
    });
    expect(malformed.statusCode).toBe(400);

    // The sandbox wallet page pays it and shows the preimage.
    expect(
      (
        await call(
          "GET",
          new URL(pending.sandboxWalletUrl).pathname + new URL(pending.sandboxWalletUrl).search,
          { token: "" },
        )
      ).body,
    ).toContain(pending.invoice);
    const paid = await call("POST", "/sandbox/lightning/wallet", {
      token: "",
      form: { invoice: pending.invoice },
    });
    expect(paid.statusCode).toBe(200);
    const preimage = /data-testid="preimage">([0-9a-f]{64})</.exec(paid.body)?.[1] as string;
    expect(paymentHashOf(preimage)).toBe(pending.paymentHash);

    // Another account cannot use the preimage for an invoice that is not its own.
    const stranger = await call("POST", "/api/v1/provePendingInvoicePaid", {
      token: world.members.uOwner.token,
      payload: { preimage, invoice: pending.invoice },
    });
    expect(stranger.statusCode).toBe(404);

    const proved = await call("POST", "/api/v1/provePendingInvoicePaid", {
      token,
      payload: { preimage, invoice: pending.invoice },
    });
    expect(proved.statusCode).toBe(200);
    expect(proved.json()).toMatchObject({ creditedCents: 1000, invoice: { status: "paid" } });
    expect(proved.json().balance.availableCents).toBe(before + 1000);
    const twice = await Promise.all(
      [1, 2].map(() =>
        call("POST", "/api/v1/provePendingInvoicePaid", {
          token,
          payload: { preimage, invoice: pending.invoice },
        }),
      ),
    );
    for (const res of twice) {
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(WALLET_MESSAGES.invoiceAlreadyPaid);
    }
    expect(await balanceOf(token)).toBe(before + 1000);
    expect((await call("GET", "/api/v1/pendingInvoice", { token })).json().pendingInvoice).toBeNull();
    const tx = (await call("GET", "/api/v1/recentTransactions", { token })).json().transactions[0];
    expect(tx).toMatchObject({ kind: "topup.lightning", amountCents: 1000, amountSats: pending.amountSats });
    // The sandbox wallet will not pay it twice.
    expect(
      (await call("POST", "/sandbox/lightning/wallet", { token: "", form: { invoice: pending.invoice } }))
        .body,
    ).toContain("already paid");
  });

  it("one pending invoice at a time; reset drops it; amounts in sats; bad input", async () => {
    const token = owner();
    const first = (
      await call("POST", "/api/v1/requestInvoice", { token, payload: { amount: 5, unit: "USD" } })
    ).json();
    const second = (
      await call("POST", "/api/v1/requestInvoice", { token, payload: { amount: 5000, unit: "sat" } })
    ).json();
    expect(second.pendingInvoice.amountSats).toBe(5000);
    expect(second.pendingInvoice.amountCents).toBe(
      Math.floor(5000 * (await call("GET", "/api/v1/exchangeRates")).json().satToUsd * 100),
    );
    expect((await call("GET", "/api/v1/pendingInvoice", { token })).json().pendingInvoice.invoice).toBe(
      second.pendingInvoice.invoice,
    );
    expect(first.pendingInvoice.invoice).not.toBe(second.pendingInvoice.invoice);
    expect((await call("POST", "/api/v1/resetPendingInvoice", { token, payload: {} })).json()).toEqual({
      success: true,
      reset: true,
    });
    expect((await call("POST", "/api/v1/resetPendingInvoice", { token, payload: {} })).json()).toEqual({
      success: true,
      reset: false,
    });
    expect((await call("GET", "/api/v1/pendingInvoice", { token })).json().pendingInvoice).toBeNull();
    for (const payload of [
      { amount: 0 },
      { amount: 20_000 },
      { amount: 10, unit: "EUR" },
      { amount: 100, unit: "SAT" },
    ]) {
      expect((await call("POST", "/api/v1/requestInvoice", { token, payload })).statusCode).toBe(400);
    }
    expect(
      (await call("POST", "/sandbox/lightning/wallet", { token: "", form: { invoice: "hello" } })).body,
    ).toContain("not a lightning invoice");
  });
});

describe("Stripe (PAYMENTS=stripe)", () => {
  let stripeApp: FastifyInstance;
  let fakeStripe: Server;
  const secret = "whsec_test_secret";
  const created: Record<string, unknown>[] = [];

  beforeAll(async () => {
    // Stripe's API, as far as Checkout Sessions go: answers what Stripe answers.
    fakeStripe = createServer((req, res) => {
      let text = "";
      req.on("data", (c) => {
        text += c;
      });
      req.on("end", () => {
        const form = Object.fromEntries(new URLSearchParams(text));
        created.push({ path: req.url, auth: req.headers.authorization, ...form });
        res.setHeader("content-type", "application/json");
        res.end(
          JSON.stringify({
            id: "cs_test_a1",
            object: "checkout.session",
            url: "https://checkout.stripe.com/c/pay/cs_test_a1",
          }),
        );
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

  it("makes a Checkout Session, and credits once on the signed webhook", async () => {
    const stripeWorld = await buildHierarchy(stripeApp);
    const token = stripeWorld.members.o1Owner.token;
    const made = await stripeApp.inject({
      method: "POST",
      url: `/api/v1/checkout/switchboardCredit?token=${token}`,
      headers: { host: "127.0.0.1:3000" },
      payload: {
        amount: 12.5,
        currency: "usd",
        successUrl: "/app/paymentSuccess?session_id={CHECKOUT_SESSION_ID}",
        cancelUrl: "/app/paymentCancel",
      },
    });
    expect(made.statusCode).toBe(200);
    expect(made.json().url).toBe("https://checkout.stripe.com/c/pay/cs_test_a1");
    const sent = created.at(-1) as Record<string, string>;
    expect(sent.path).toBe("/v1/checkout/sessions");
    expect(sent.auth).toBe("Bearer sk_test_123");
    expect(sent["line_items[0][price_data][unit_amount]"]).toBe("1250");
    const ourId = made.json().session.id as string;
    // The return page asks this server about our checkout id, so Stripe returns to it.
    expect(sent.success_url).toBe(`${ORIGIN}/app/paymentSuccess?session_id=${ourId}`);
    expect(sent.client_reference_id).toBe(ourId);

    const event = JSON.stringify({
      id: "evt_1",
      object: "event",
      type: "checkout.session.completed",
      data: {
        object: {
          id: "cs_test_a1",
          object: "checkout.session",
          client_reference_id: ourId,
          metadata: { sessionId: ourId },
          payment_status: "paid",
          amount_total: 1250,
          currency: "usd",
        },
      },
    });
    const signed = Stripe.webhooks.generateTestHeaderString({ payload: event, secret });
    const send = (signature: string) =>
      stripeApp.inject({
        method: "POST",
        url: "/api/v1/payments/stripe/webhook",
        headers: { "content-type": "application/json", "stripe-signature": signature },
        payload: event,
      });
    const forged = await send(
      Stripe.webhooks.generateTestHeaderString({ payload: event, secret: "whsec_other" }),
    );
    expect(forged.statusCode).toBe(400);
    expect(forged.json().message).toBe(WALLET_MESSAGES.stripeSignature);
    const balance = async () =>
      (await stripeApp.inject({ method: "GET", url: `/api/v1/recentTransactions?token=${token}` })).json()
        .balance.availableCents;
    expect(await balance()).toBe(0);
    expect((await send(signed)).json()).toEqual({ received: true });
    expect((await send(signed)).statusCode).toBe(200);
    expect(await balance()).toBe(1250);
    // The sandbox checkout page is off under Stripe.
    expect((await stripeApp.inject({ method: "GET", url: `/sandbox/checkout/${ourId}` })).statusCode).toBe(
      404,
    );
  });
});

import { PAYMENT_LINK_MESSAGES, WALLET_MESSAGES } from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { moneyCaller } from "../../../test/money-call.ts";

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

const call = moneyCaller(
  () => app,
  () => world.members.o1Owner.token,
);

const balanceOf = async (token = world.members.o1Owner.token) =>
  (await call("GET", "/api/v1/recentTransactions", { token })).json().balance.availableCents as number;

const card = {
  cardNumber: "4242 4242 4242 4242",
  expiry: "12 / 34",
  cvc: "123",
  name: "Visitor",
  action: "pay",
};

/** A signed-out visitor's checkout of a link (no token, with the slug). */
const payLink = (slug: string, amount: number) =>
  call("POST", "/api/v1/checkout/switchboardCredit", {
    token: "",
    payload: {
      slug,
      amount,
      currency: "usd",
      successUrl: `/pay?slug=${slug}&paid={CHECKOUT_SESSION_ID}`,
      cancelUrl: `/pay?slug=${slug}`,
    },
  });

describe("payment links", () => {
  it("the owner makes a link; a signed-out visitor sees it and pays it; the wallet is credited once", async () => {
    const made = await call("POST", "/api/v1/paymentLinks", {
      payload: { slug: "Consult-30", title: "30-minute consultation", amount: 40 },
    });
    expect(made.statusCode).toBe(200);
    expect(made.json().link).toMatchObject({
      slug: "consult-30",
      title: "30-minute consultation",
      amountCents: 4000,
      status: "active",
      url: `${ORIGIN}/pay?slug=consult-30`,
      paidCount: 0,
    });
    const shown = await call("POST", "/api/v1/fetchPaymentSlug", {
      token: "",
      payload: { slug: "consult-30" },
    });
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual({
      success: true,
      slug: "consult-30",
      displayName: (world.accounts.O1.details as { displayName: string }).displayName,
      title: "30-minute consultation",
      amountCents: 4000,
      currency: "usd",
      active: true,
    });

    expect((await payLink("consult-30", 10)).json().message).toBe(PAYMENT_LINK_MESSAGES.fixedAmount);
    const before = await balanceOf();
    const checkout = await payLink("consult-30", 40);
    expect(checkout.statusCode).toBe(200);
    const { url, session } = checkout.json();
    expect(session).toMatchObject({ status: "open", amountCents: 4000 });
    const path = new URL(url).pathname;
    const page = await call("GET", path, { token: "" });
    expect(page.body).toContain("$40.00");
    const paid = await call("POST", path, { token: "", form: card });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`${ORIGIN}/pay?slug=consult-30&paid=${session.id}`);
    expect(await balanceOf()).toBe(before + 4000);

    // The return replayed (back button, double submit) and the provider's notice replayed: nothing more.
    expect((await call("POST", path, { token: "", form: card })).statusCode).toBe(303);
    const replay = await app.wallet.wallet.paymentCompleted({
      sessionId: session.id,
      providerSessionId: "cs_replayed",
      amountCents: 4000,
      currency: "usd",
    });
    expect(replay).toBe(false);
    expect(await balanceOf()).toBe(before + 4000);

    const tx = (await call("GET", "/api/v1/recentTransactions")).json().transactions[0];
    expect(tx).toMatchObject({
      kind: "payment.link",
      amountCents: 4000,
      description: "Payment link paid (Visa •••• 4242)",
    });
    const listed = (await call("GET", "/api/v1/paymentLinks")).json().links;
    expect(listed[0]).toMatchObject({ slug: "consult-30", paidCount: 1, paidCents: 4000 });
  });

  it("a payer-chooses link takes any valid amount; a disabled link is refused; slugs are unique", async () => {
    const made = await call("POST", "/api/v1/paymentLinks", {
      payload: { slug: "tips", title: "Tip jar", amount: null },
    });
    expect(made.json().link.amountCents).toBeNull();
    const taken = await call("POST", "/api/v1/paymentLinks", {
      token: world.members.uOwner.token,
      payload: { slug: "TIPS", title: "Mine" },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(PAYMENT_LINK_MESSAGES.slugTaken);
    const bad = await call("POST", "/api/v1/paymentLinks", { payload: { slug: "a b", title: "" } });
    expect(bad.statusCode).toBe(400);

    expect((await payLink("tips", 7.25)).statusCode).toBe(200);
    expect((await payLink("tips", 0.5)).statusCode).toBe(400);

    const id = made.json().link.id as number;
    // Another organisation cannot disable it; an admin (not the owner) cannot either.
    expect(
      (
        await call("PUT", `/api/v1/paymentLinks/${id}`, {
          token: world.members.uOwner.token,
          payload: { status: "disabled" },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await call("PUT", `/api/v1/paymentLinks/${id}`, {
          token: world.members.o1Admin.token,
          payload: { status: "disabled" },
        })
      ).statusCode,
    ).toBe(403);
    const open = (await payLink("tips", 5)).json();
    const disabled = await call("PUT", `/api/v1/paymentLinks/${id}`, { payload: { status: "disabled" } });
    expect(disabled.json().link.status).toBe("disabled");

    const refused = await payLink("tips", 5);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(PAYMENT_LINK_MESSAGES.linkDisabled);
    expect(
      (await call("POST", "/api/v1/fetchPaymentSlug", { token: "", payload: { slug: "tips" } })).json()
        .active,
    ).toBe(false);
    // A checkout made before the link was disabled still completes (the payer was already at the card page).
    const before = await balanceOf();
    const paid = await call("POST", new URL(open.url).pathname, { token: "", form: card });
    expect(paid.statusCode).toBe(303);
    expect(await balanceOf()).toBe(before + 500);

    const unknown = await call("POST", "/api/v1/fetchPaymentSlug", { token: "", payload: { slug: "nope" } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(PAYMENT_LINK_MESSAGES.linkNotFound);
    expect((await payLink("nope", 5)).statusCode).toBe(404);
  });

  it("lightning: a visitor asks for an invoice with the slug, pays it, proves it; credited once", async () => {
    await call("POST", "/api/v1/paymentLinks", { payload: { slug: "ln-tips", title: "Lightning tips" } });
    const ownPending = await call("POST", "/api/v1/requestInvoice", { payload: { amount: 3 } });
    expect(ownPending.statusCode).toBe(200);
    const made = await call("POST", "/api/v1/requestInvoice", {
      token: "",
      payload: { slug: "ln-tips", amount: 6, unit: "USD" },
    });
    expect(made.statusCode).toBe(200);
    const invoice = made.json().pendingInvoice;
    expect(invoice).toMatchObject({ amountCents: 600, status: "pending" });
    // The owner's own pending invoice is untouched (a link's invoices are not the owner's pending one).
    expect((await call("GET", "/api/v1/pendingInvoice")).json().pendingInvoice.invoice).toBe(
      ownPending.json().pendingInvoice.invoice,
    );
    const paid = await call("POST", "/sandbox/lightning/wallet", {
      token: "",
      form: { invoice: invoice.invoice },
    });
    const preimage = /data-testid="preimage">([0-9a-f]{64})</.exec(paid.body)?.[1] as string;
    const before = await balanceOf();
    const prove = () =>
      call("POST", "/api/v1/provePendingInvoicePaid", {
        token: "",
        payload: { slug: "ln-tips", preimage, invoice: invoice.invoice },
      });
    const proved = await prove();
    expect(proved.statusCode).toBe(200);
    expect(proved.json()).toMatchObject({ creditedCents: 600, balance: null, invoice: { status: "paid" } });
    expect(await balanceOf()).toBe(before + 600);
    const again = await prove();
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(WALLET_MESSAGES.invoiceAlreadyPaid);
    expect(await balanceOf()).toBe(before + 600);
    // Another link's slug does not reach this invoice.
    await call("POST", "/api/v1/paymentLinks", { payload: { slug: "other-link", title: "Other" } });
    const wrongLink = await call("POST", "/api/v1/provePendingInvoicePaid", {
      token: "",
      payload: { slug: "other-link", preimage, invoice: invoice.invoice },
    });
    expect(wrongLink.statusCode).toBe(404);
    expect((await call("GET", "/api/v1/recentTransactions")).json().transactions[0]).toMatchObject({
      kind: "payment.link",
      amountCents: 600,
    });
  });

  it("without a token and without a slug the checkout still needs a token", async () => {
    const res = await call("POST", "/api/v1/checkout/switchboardCredit", {
      token: "",
      payload: { amount: 5, currency: "usd", successUrl: "/app", cancelUrl: "/app" },
    });
    expect(res.statusCode).toBe(401);
  });
});

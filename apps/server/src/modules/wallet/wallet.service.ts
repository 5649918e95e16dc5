import { randomBytes } from "node:crypto";
import {
  EXCHANGE_RATE_TTL_SECONDS,
  type LightningInvoice,
  PAYMENT_LINK_MESSAGES,
  SAT_TO_USD_FALLBACK,
  TOP_UP_MAX_USD,
  TOP_UP_MIN_USD,
  WALLET_MESSAGES,
  type WalletTransaction,
} from "@switchboard/api";
import type { FastifyBaseLogger } from "fastify";
import type { Access } from "../../access/access.ts";
import { ApiError, badRequest, conflict, notFound } from "../../api-error.ts";
import type { Database } from "../../db/client.ts";
import type { KeyedGate } from "../../http/keyed-gate.ts";
import { paymentHashOf } from "../../providers/lightning/bolt11.ts";
import type { LightningNode } from "../../providers/lightning/lightning-node.ts";
import type { CompletedPayment, PaymentsProvider } from "../../providers/payments/payments-provider.ts";
import { type CardInput, chargeTestCard } from "../../providers/payments/test-cards.ts";
import type { RateProvider } from "../../providers/rates/rate-provider.ts";
import type { LedgerService } from "../ledger/index.ts";
import { createInvoiceDecoder } from "./invoice-decoder.ts";
import type { PaymentLinks } from "./payment-links.ts";
import { type CheckoutRow, createWalletRepository, type InvoiceRow } from "./wallet.repository.ts";
import { walletOwnerOf } from "./wallet-owner.ts";

/** How long a lightning top-up invoice may be paid. */
export const INVOICE_EXPIRY_SECONDS = 3600;
/** How long a fallback rate is kept before the provider is asked again. */
const FALLBACK_TTL_MS = 60_000;

export type WalletDeps = {
  db: Database;
  ledger: LedgerService;
  payments: PaymentsProvider;
  lightning: LightningNode;
  rates: RateProvider;
  /** Payment links: their checkouts credit the link's owner. */
  links: PaymentLinks;
  publicUrl: string;
  log: FastifyBaseLogger;
  /** The sandbox node's wallet page for an invoice (null when the node is not the sandbox). */
  sandboxWalletUrl: ((paymentRequest: string) => string) | null;
  /** An organisation's money movements one at a time (load-limits.ts). */
  money: KeyedGate;
  now?: () => number;
};

export type SandboxCheckoutOutcome =
  | { kind: "paid"; redirect: string }
  | { kind: "cancelled"; redirect: string }
  | { kind: "error"; session: CheckoutRow; message: string; field: string };

export function createWalletService(deps: WalletDeps) {
  const repo = createWalletRepository(deps.db);
  const { ledger } = deps;
  const now = deps.now ?? Date.now;
  const decodeInvoice = createInvoiceDecoder();

  // --- balance and transactions ---------------------------------------------------------------------

  async function balance(owner: number) {
    const kept = await ledger.balances(owner);
    return {
      availableCents: kept.usd.available,
      heldCents: kept.usd.held,
      owedCents: Math.max(0, -kept.usd.receivable),
      currency: "usd" as const,
    };
  }

  async function recent(access: Access, limit: number, before?: number) {
    const owner = walletOwnerOf(access.target);
    const rows = await ledger.recentTransactions(owner, limit, before);
    const transactions: WalletTransaction[] = rows.map((row) => {
      const sum = (kind: string) =>
        row.postings
          .filter((p) => p.kind === kind && p.currency === "usd")
          .reduce((total, p) => total + Number(p.amount), 0);
      const sats = row.metadata?.amountSats;
      const card = row.metadata?.paidByCardCents;
      return {
        id: Number(row.id),
        kind: row.kind,
        description: row.description,
        amountCents: sum("wallet"),
        heldCents: sum("held"),
        amountSats: typeof sats === "number" ? sats : null,
        paidByCardCents: typeof card === "number" ? card : null,
        createdAt: row.createdAt.getTime(),
      };
    });
    return { success: true as const, balance: await balance(owner), transactions };
  }

  // --- exchange rate ----------------------------------------------------------------------------------

  type KeptRate = { satToUsd: number; source: string; fetchedAt: number; keepUntil: number };
  let rate: KeptRate | null = null;
  let asking: Promise<KeptRate> | null = null;

  async function exchangeRate(): Promise<KeptRate> {
    const at = now();
    if (rate && rate.keepUntil > at) return rate;
    asking ??= (async (): Promise<KeptRate> => {
      let kept: KeptRate;
      try {
        const satToUsd = await deps.rates.satToUsd();
        if (!(satToUsd > 0)) throw new Error(`rate provider answered ${satToUsd}`);
        kept = {
          satToUsd,
          source: deps.rates.name,
          fetchedAt: at,
          keepUntil: at + EXCHANGE_RATE_TTL_SECONDS * 1000,
        };
      } catch (error) {
        deps.log.warn(
          { err: error, provider: deps.rates.name },
          "exchange rate unavailable: using the fallback",
        );
        kept = {
          satToUsd: SAT_TO_USD_FALLBACK,
          source: "fallback",
          fetchedAt: at,
          keepUntil: at + FALLBACK_TTL_MS,
        };
      }
      rate = kept;
      return kept;
    })().finally(() => {
      asking = null;
    });
    return asking;
  }

  // --- card top-ups -----------------------------------------------------------------------------------

  /** `{CHECKOUT_SESSION_ID}` in a return url (Stripe's placeholder) becomes our checkout id. */
  const fillSessionId = (url: string, id: string) =>
    url.replaceAll("{CHECKOUT_SESSION_ID}", encodeURIComponent(id));

  /** A return url on this server (its public address or the host the call came to), made absolute. */
  function returnUrl(value: string, requestOrigin: string): string {
    let url: URL;
    try {
      url = new URL(value, requestOrigin);
    } catch {
      throw badRequest(WALLET_MESSAGES.returnUrl);
    }
    const allowed = new Set([new URL(deps.publicUrl).origin, new URL(requestOrigin).origin]);
    if (!/^https?:$/.test(url.protocol) || !allowed.has(url.origin))
      throw badRequest(WALLET_MESSAGES.returnUrl);
    return url.toString().replaceAll("%7BCHECKOUT_SESSION_ID%7D", "{CHECKOUT_SESSION_ID}");
  }

  const sessionOf = (row: CheckoutRow) => ({
    id: row.id,
    status: row.status,
    amountCents: row.amountCents,
    currency: "usd" as const,
    provider: row.provider,
  });

  async function checkout(
    access: Access,
    body: { amount: number; cancelUrl: string; successUrl: string },
    requestOrigin: string,
  ) {
    return startCheckout({
      owner: walletOwnerOf(access.target),
      amountCents: Math.round(body.amount * 100),
      purpose: "credit",
      paymentLinkId: null,
      description: "Switchboard wallet credit",
      successUrl: returnUrl(body.successUrl, requestOrigin),
      cancelUrl: returnUrl(body.cancelUrl, requestOrigin),
      userId: access.caller.user.id,
      email: access.caller.user.email ?? undefined,
    });
  }

  async function startCheckout(input: {
    owner: number;
    amountCents: number;
    purpose: "credit" | "link";
    paymentLinkId: number | null;
    description: string;
    successUrl: string;
    cancelUrl: string;
    userId: number | null;
    email: string | undefined;
  }) {
    const { owner, amountCents, successUrl, cancelUrl } = input;
    const id = `cs_${deps.payments.name === "sandbox" ? "sandbox" : "live"}_${randomBytes(18).toString("base64url")}`;
    const row = await repo.insertCheckout({
      id,
      provider: deps.payments.name,
      ownerAccountId: owner,
      purpose: input.purpose,
      paymentLinkId: input.paymentLinkId,
      amountCents,
      currency: "usd",
      url: "",
      successUrl,
      cancelUrl,
      createdByUserId: input.userId,
    });
    let created: Awaited<ReturnType<PaymentsProvider["createCheckout"]>>;
    try {
      created = await deps.payments.createCheckout({
        sessionId: id,
        amountCents,
        currency: "usd",
        description: input.description,
        // Our checkout id, not the provider's: the return page asks this server about it.
        successUrl: fillSessionId(successUrl, id),
        cancelUrl,
        customerEmail: input.email,
      });
    } catch (error) {
      deps.log.error({ err: error }, "checkout not created by the payment provider");
      await repo.expireCheckout(id);
      throw new ApiError(502, WALLET_MESSAGES.paymentsUnavailable);
    }
    await repo.setCheckoutProvider(id, created.providerSessionId, created.url);
    return {
      success: true as const,
      url: created.url,
      cancelUrl,
      successUrl,
      session: sessionOf({ ...row, url: created.url }),
    };
  }

  /**
   * A payment link's checkout (the card checkout called without a token, with `slug`): the same checkout as
   * a top-up, owned by the link's owner; a fixed-amount link takes only its amount; a disabled one is refused.
   */
  async function checkoutLink(
    body: { amount: number; slug: string; cancelUrl: string; successUrl: string },
    requestOrigin: string,
  ) {
    const link = await deps.links.bySlug(body.slug);
    if (!link) throw notFound(PAYMENT_LINK_MESSAGES.linkNotFound);
    if (link.status !== "active") throw conflict(PAYMENT_LINK_MESSAGES.linkDisabled);
    const amountCents = Math.round(body.amount * 100);
    if (link.amountCents !== null && link.amountCents !== amountCents)
      throw badRequest(PAYMENT_LINK_MESSAGES.fixedAmount);
    return startCheckout({
      owner: link.ownerAccountId,
      amountCents,
      purpose: "link",
      paymentLinkId: link.id,
      description: link.title,
      successUrl: returnUrl(body.successUrl, requestOrigin),
      cancelUrl: returnUrl(body.cancelUrl, requestOrigin),
      userId: null,
      email: undefined,
    });
  }

  async function checkoutOf(access: Access, sessionId: string) {
    const row = await repo.checkout(sessionId);
    if (!row || row.ownerAccountId !== walletOwnerOf(access.target))
      throw notFound(WALLET_MESSAGES.checkoutNotFound);
    return { success: true as const, session: sessionOf(row) };
  }

  /**
   * Credits the checkout's amount to its wallet once: the checkout id is the ledger's idempotency key, and
   * the checkout is marked complete in the same transaction. Answers whether this call credited it.
   */
  async function creditCheckout(
    row: CheckoutRow,
    detail: { label: string; providerSessionId: string | null },
  ) {
    const link = row.purpose === "link";
    const result = await deps.money.run(row.ownerAccountId, () =>
      ledger.post({
        idempotencyKey: row.id,
        kind: link ? "payment.link" : "topup.card",
        ownerAccountId: row.ownerAccountId,
        description: link ? `Payment link paid (${detail.label})` : `Card top-up (${detail.label})`,
        metadata: { checkoutId: row.id, provider: row.provider, providerSessionId: detail.providerSessionId },
        postings: [
          { account: ledger.platform("cash:card"), amount: -row.amountCents },
          { account: ledger.wallet(row.ownerAccountId), amount: row.amountCents },
        ],
        within: (tx) => repo.completeCheckout(tx, row.id, detail.providerSessionId),
        // A link is paid by someone else: not a payment of the owner (no referral reward on it).
        ...(link ? {} : { payment: { payerAccountId: row.ownerAccountId, amountCents: row.amountCents } }),
      }),
    );
    return !result.replayed;
  }

  /** The sandbox checkout page's form: charge the test card, or cancel. */
  async function sandboxCheckout(
    sessionId: string,
    form: CardInput & { action: "pay" | "cancel" },
  ): Promise<SandboxCheckoutOutcome> {
    const row = await repo.checkout(sessionId);
    if (row?.provider !== "sandbox") throw notFound(WALLET_MESSAGES.checkoutNotFound);
    if (row.status === "complete") return { kind: "paid", redirect: fillSessionId(row.successUrl, row.id) };
    if (form.action === "cancel" || row.status === "expired") {
      await repo.expireCheckout(row.id);
      return { kind: "cancelled", redirect: row.cancelUrl };
    }
    const outcome = chargeTestCard(form, new Date(now()));
    if (!outcome.ok) {
      await repo.setCheckoutError(row.id, outcome.message);
      return {
        kind: "error",
        session: { ...row, lastError: outcome.message },
        message: outcome.message,
        field: outcome.field,
      };
    }
    const brand =
      outcome.brand === "card" ? "Card" : outcome.brand[0]?.toUpperCase() + outcome.brand.slice(1);
    await creditCheckout(row, { label: `${brand} •••• ${outcome.last4}`, providerSessionId: null });
    return { kind: "paid", redirect: fillSessionId(row.successUrl, row.id) };
  }

  async function sandboxCheckoutRow(sessionId: string) {
    const row = await repo.checkout(sessionId);
    if (row?.provider !== "sandbox") throw notFound(WALLET_MESSAGES.checkoutNotFound);
    return row;
  }

  /** A payment the provider reported (a verified Stripe webhook): credits its checkout once. */
  async function paymentCompleted(payment: CompletedPayment): Promise<boolean> {
    const row = await repo.checkout(payment.sessionId);
    if (!row) {
      deps.log.warn({ sessionId: payment.sessionId }, "payment for an unknown checkout");
      return false;
    }
    if (payment.amountCents !== row.amountCents || payment.currency.toLowerCase() !== row.currency) {
      deps.log.error({ payment, checkout: row.id }, "payment amount differs from the checkout: not credited");
      return false;
    }
    return creditCheckout(row, { label: "Stripe", providerSessionId: payment.providerSessionId });
  }

  // --- lightning top-ups ------------------------------------------------------------------------------

  const invoiceOf = (row: InvoiceRow): LightningInvoice => ({
    invoice: row.paymentRequest,
    paymentHash: row.paymentHash,
    amountSats: row.amountSats,
    amountCents: row.amountCents,
    status: row.status,
    expiresAt: row.expiresAt.getTime(),
    createdAt: row.createdAt.getTime(),
    sandboxWalletUrl: deps.sandboxWalletUrl ? deps.sandboxWalletUrl(row.paymentRequest) : null,
  });

  /** The invoice's amounts at the current rate, and a BOLT11 invoice of the node for them. */
  async function makeInvoice(body: { amount: number; unit: "USD" | "SAT" }, description: string) {
    const { satToUsd } = await exchangeRate();
    let amountCents: number;
    let amountSats: number;
    if (body.unit === "USD") {
      amountCents = Math.round(body.amount * 100);
      if (
        body.amount < TOP_UP_MIN_USD ||
        body.amount > TOP_UP_MAX_USD ||
        Math.abs(amountCents - body.amount * 100) > 1e-6
      )
        throw badRequest(WALLET_MESSAGES.amount);
      amountSats = Math.ceil(amountCents / 100 / satToUsd);
    } else {
      amountSats = body.amount;
      if (!Number.isSafeInteger(amountSats)) throw badRequest(WALLET_MESSAGES.amountSats);
      amountCents = Math.floor(amountSats * satToUsd * 100);
      if (amountCents < TOP_UP_MIN_USD * 100 || amountCents > TOP_UP_MAX_USD * 100)
        throw badRequest(WALLET_MESSAGES.amountSats);
    }
    let created: Awaited<ReturnType<LightningNode["createInvoice"]>>;
    try {
      created = await deps.lightning.createInvoice({
        amountSats,
        description: `${description}: $${(amountCents / 100).toFixed(2)}`,
        expirySeconds: INVOICE_EXPIRY_SECONDS,
      });
    } catch (error) {
      deps.log.error({ err: error }, "lightning node did not make an invoice");
      throw new ApiError(502, WALLET_MESSAGES.lightningUnavailable);
    }
    return { created, amountCents, amountSats };
  }

  /** The active payment link of a slug, or the refusal its payer sees. */
  async function activeLink(slug: string) {
    const link = await deps.links.bySlug(slug);
    if (!link) throw notFound(PAYMENT_LINK_MESSAGES.linkNotFound);
    if (link.status !== "active") throw conflict(PAYMENT_LINK_MESSAGES.linkDisabled);
    return link;
  }

  /**
   * An invoice that pays a payment link (requestInvoice with `slug`, no token): owned by the link's owner,
   * not its pending invoice; a fixed-amount link takes only its amount in USD.
   */
  async function requestLinkInvoice(body: { amount: number; unit: "USD" | "SAT"; slug: string }) {
    const link = await activeLink(body.slug);
    if (
      link.amountCents !== null &&
      (body.unit !== "USD" || Math.round(body.amount * 100) !== link.amountCents)
    )
      throw badRequest(PAYMENT_LINK_MESSAGES.fixedAmount);
    const { created, amountCents, amountSats } = await makeInvoice(body, link.title);
    const row = await repo.insertLinkInvoice({
      ownerAccountId: link.ownerAccountId,
      paymentLinkId: link.id,
      paymentRequest: created.paymentRequest,
      paymentHash: created.paymentHash,
      amountSats,
      amountCents,
      expiresAt: created.expiresAt,
    });
    return { success: true as const, pendingInvoice: invoiceOf(row) };
  }

  async function requestInvoice(access: Access, body: { amount: number; unit: "USD" | "SAT" }) {
    const owner = walletOwnerOf(access.target);
    const { created, amountCents, amountSats } = await makeInvoice(body, "Switchboard wallet top-up");
    const row = await repo.replacePending({
      ownerAccountId: owner,
      paymentRequest: created.paymentRequest,
      paymentHash: created.paymentHash,
      amountSats,
      amountCents,
      expiresAt: created.expiresAt,
    });
    return { success: true as const, pendingInvoice: invoiceOf(row) };
  }

  async function pendingInvoice(access: Access) {
    const row = await repo.pendingInvoice(walletOwnerOf(access.target));
    return { success: true as const, pendingInvoice: row ? invoiceOf(row) : null };
  }

  async function resetPendingInvoice(access: Access) {
    return { success: true as const, reset: await repo.resetPending(walletOwnerOf(access.target)) };
  }

  /**
   * The preimage proves the payment: SHA-256(preimage) must be the payment hash of an invoice issued to this
   * account. The wallet is credited the amount fixed when the invoice was made, once (the payment hash is the
   * ledger's idempotency key; the invoice turns paid in the same transaction).
   */
  async function provePaid(access: Access, body: { preimage: string; invoice: string }) {
    const owner = walletOwnerOf(access.target);
    const request = body.invoice.trim().replace(/^lightning:/i, "");
    const row = await repo.invoiceByRequest(owner, request);
    if (!row) throw notFound(WALLET_MESSAGES.invoiceNotFound);
    const credited = await creditInvoice(row, body.preimage);
    return { ...credited, balance: await balance(owner) };
  }

  /** A payment link's invoice proved paid by its payer (provePendingInvoicePaid with `slug`, no token). */
  async function proveLinkPaid(body: { preimage: string; invoice: string; slug: string }) {
    const link = await deps.links.bySlug(body.slug);
    if (!link) throw notFound(PAYMENT_LINK_MESSAGES.linkNotFound);
    const request = body.invoice.trim().replace(/^lightning:/i, "");
    const row = await repo.linkInvoiceByRequest(link.id, request);
    if (!row) throw notFound(WALLET_MESSAGES.invoiceNotFound);
    return { ...(await creditInvoice(row, body.preimage)), balance: null };
  }

  /**
   * Credits the invoice's amount (fixed when it was made) once: SHA-256(preimage) must be its payment hash;
   * the payment hash is the ledger's idempotency key and the invoice turns paid in the same transaction.
   */
  async function creditInvoice(row: InvoiceRow, preimage: string) {
    const owner = row.ownerAccountId;
    if (row.status === "paid") throw conflict(WALLET_MESSAGES.invoiceAlreadyPaid);
    if (paymentHashOf(preimage) !== row.paymentHash.toLowerCase())
      throw badRequest(WALLET_MESSAGES.preimageMismatch);
    const link = row.paymentLinkId !== null;
    const sats = row.amountSats.toLocaleString("en-US");
    const result = await deps.money.run(owner, () =>
      ledger.post({
        idempotencyKey: `lightning:${row.paymentHash}`,
        kind: link ? "payment.link" : "topup.lightning",
        ownerAccountId: owner,
        description: link ? `Payment link paid (lightning, ${sats} sats)` : `Lightning top-up (${sats} sats)`,
        metadata: { invoiceId: row.id, paymentHash: row.paymentHash, amountSats: row.amountSats },
        postings: [
          { account: ledger.platform("cash:lightning", "sat"), amount: -row.amountSats },
          { account: ledger.platform("fx", "sat"), amount: row.amountSats },
          { account: ledger.platform("fx", "usd"), amount: -row.amountCents },
          { account: ledger.wallet(owner), amount: row.amountCents },
        ],
        within: async (tx) => {
          if (!(await repo.markInvoicePaid(tx, row.id))) throw conflict(WALLET_MESSAGES.invoiceAlreadyPaid);
        },
        ...(link ? {} : { payment: { payerAccountId: owner, amountCents: row.amountCents } }),
      }),
    );
    if (result.replayed) throw conflict(WALLET_MESSAGES.invoiceAlreadyPaid);
    const paid = (await repo.invoiceById(row.id)) ?? row;
    return { success: true as const, creditedCents: row.amountCents, invoice: invoiceOf(paid) };
  }

  function validate(invoice: string) {
    try {
      const decoded = decodeInvoice(invoice);
      const expired = decoded.expiresAt * 1000 < now();
      return {
        success: true as const,
        valid: !expired,
        message: expired ? WALLET_MESSAGES.invoiceExpired : null,
        network: decoded.network,
        amountSats: decoded.amountSats,
        paymentHash: decoded.paymentHash,
        description: decoded.description,
        payee: decoded.payee,
        expiresAt: decoded.expiresAt * 1000,
        expired,
      };
    } catch (error) {
      return {
        success: true as const,
        valid: false,
        message: `This is not a valid lightning invoice: ${(error as Error).message}`,
        network: null,
        amountSats: null,
        paymentHash: null,
        description: null,
        payee: null,
        expiresAt: null,
        expired: false,
      };
    }
  }

  return {
    recent,
    balance,
    exchangeRate: async () => {
      const r = await exchangeRate();
      return { success: true as const, satToUsd: r.satToUsd, source: r.source, fetchedAt: r.fetchedAt };
    },
    checkout,
    checkoutLink,
    checkoutOf,
    sandboxCheckout,
    sandboxCheckoutRow,
    paymentCompleted,
    requestInvoice,
    requestLinkInvoice,
    pendingInvoice,
    resetPendingInvoice,
    provePaid,
    proveLinkPaid,
    validate,
    /** BOLT11 decoding, each text decoded once while it is recent (invoice-decoder.ts). */
    decodeInvoice,
  };
}

export type WalletService = ReturnType<typeof createWalletService>;

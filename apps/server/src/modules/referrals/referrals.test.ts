import { REFERRAL_MESSAGES } from "@switchboard/api";
import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import type { Access } from "../../access/access.ts";
import { ledgerTransactions, referralRewards, referrals } from "../../db/schema/index.ts";
import { createKeyedGate } from "../../http/keyed-gate.ts";
import { createAccountsRepository } from "../accounts/accounts.repository.ts";
import { createLedgerService } from "../ledger/ledger.service.ts";
import { createReferralsService } from "./referrals.service.ts";

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
const ORIGIN = "http://127.0.0.1:3000";
const GOOD_CARD = { cardNumber: "4242 4242 4242 4242", expiry: "12 / 40", cvc: "123", name: "R Referred" };
let ipCounter = 1;

beforeAll(async () => {
  app = await buildTestApp({ PUBLIC_URL: ORIGIN, REFERRAL_REWARD_PERCENT: "10" });
  world = await buildHierarchy(app);
});
afterAll(async () => {
  await app.close();
});

async function call(
  method: "GET" | "POST",
  url: string,
  options: {
    token?: string | null;
    adminToken?: string;
    payload?: Record<string, unknown>;
    form?: Record<string, string>;
  } = {},
) {
  const search = new URLSearchParams();
  if (options.token) search.set("token", options.token);
  if (options.adminToken) search.set("adminToken", options.adminToken);
  const sep = url.includes("?") ? "&" : "?";
  const query = search.toString();
  return app.inject({
    method,
    url: query ? `${url}${sep}${query}` : url,
    remoteAddress: `10.9.0.${ipCounter++ % 250}`,
    ...(options.form
      ? {
          payload: new URLSearchParams(options.form).toString(),
          headers: { "content-type": "application/x-www-form-urlencoded", host: "127.0.0.1:3000" },
        }
      : options.payload
        ? { payload: options.payload, headers: { host: "127.0.0.1:3000" } }
        : { headers: { host: "127.0.0.1:3000" } }),
  });
}

async function latestCode(to: string): Promise<string> {
  const res = await app.inject({ method: "GET", url: "/api/dev/outbox?limit=50" });
  const message = res.json().messages.find((m: { to: string }) => m.to === to);
  const code = /\b(\d{6})\b/.exec(message?.body ?? "")?.[1];
  if (!code) throw new Error(`no code in the outbox for ${to}`);
  return code;
}

/** Signs up a new organisation, through a referral link when `target` is given. */
async function signUp(email: string, target?: string) {
  const start = await call("POST", "/api/v1/signup/email", {
    payload: { email, businessName: `Biz ${email}`, ...(target ? { target } : {}) },
  });
  expect(start.statusCode).toBe(200);
  const res = await call("POST", "/api/v1/email/verify", {
    payload: { email, verificationCode: await latestCode(email) },
  });
  expect(res.statusCode).toBe(200);
  return res.json() as { token: string; accountId: number };
}

/** A card top-up of `amount` dollars through the sandbox checkout, paid with 4242. */
async function topUp(token: string, amount: number) {
  const res = await call("POST", "/api/v1/checkout/switchboardCredit", {
    token,
    payload: { amount, currency: "usd", successUrl: "/app/paymentSuccess", cancelUrl: "/app/paymentCancel" },
  });
  expect(res.statusCode).toBe(200);
  const page = new URL(res.json().url).pathname;
  const paid = await call("POST", page, { form: { ...GOOD_CARD, action: "pay" } });
  expect(paid.statusCode).toBe(303);
  return page;
}

const rewardsOf = async (token: string) => (await call("GET", "/api/v1/referralRewards", { token })).json();
const balanceOf = async (token: string) =>
  (await call("GET", "/api/v1/recentTransactions", { token })).json().balance.availableCents as number;

describe("referral link and sign-up", () => {
  it("answers the account's link and empty rewards", async () => {
    const res = await call("GET", "/api/v1/referralRewards", { token: world.members.o1Owner.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      target: world.accounts.O1.username,
      referralLink: `${ORIGIN}/signup?target=${encodeURIComponent(world.accounts.O1.username)}`,
      rewardPercent: 10,
      earnedCents: 0,
      claimedCents: 0,
      claimableCents: 0,
      referredCount: 0,
      referred: [],
      rewards: [],
    });
  });

  it("records the referrer of an organisation that signs up through the link; an unknown target refers nobody", async () => {
    const referred = await signUp(`ref-a-${world.tag}@example.com`, world.accounts.O1.username);
    const [row] = await app.context.database.db
      .select()
      .from(referrals)
      .where(eq(referrals.referredAccountId, referred.accountId));
    expect(row).toMatchObject({
      referrerAccountId: world.accounts.O1.id,
      target: world.accounts.O1.username,
    });
    const stray = await signUp(`ref-b-${world.tag}@example.com`, "nobody-has-this-name");
    const none = await app.context.database.db
      .select()
      .from(referrals)
      .where(eq(referrals.referredAccountId, stray.accountId));
    expect(none).toEqual([]);
    const overview = await rewardsOf(world.members.o1Owner.token);
    expect(overview.referredCount).toBe(1);
    expect(overview.referred[0]).toMatchObject({ accountId: referred.accountId, earnedCents: 0 });
  });
});

describe("rewards and claims", () => {
  it("earns the configured share of each payment once (a replayed payment earns nothing), exact in cents", async () => {
    const w = await buildHierarchy(app);
    const referrerToken = w.members.o2Owner.token;
    const referred = await signUp(`ref-c-${w.tag}@example.com`, w.accounts.O2.username);
    const page = await topUp(referred.token, 25.55);
    // The same checkout paid again (a second click, a replayed webhook) credits and rewards nothing more.
    const again = await call("POST", page, { form: { ...GOOD_CARD, action: "pay" } });
    expect(again.statusCode).toBe(303);
    expect(await balanceOf(referred.token)).toBe(2555);
    let overview = await rewardsOf(referrerToken);
    // 10 % of 2555 cents, rounded down.
    expect(overview).toMatchObject({
      earnedCents: 255,
      claimableCents: 255,
      claimedCents: 0,
      referredCount: 1,
    });
    expect(overview.rewards).toHaveLength(1);
    expect(overview.rewards[0]).toMatchObject({
      paymentKind: "topup.card",
      paymentCents: 2555,
      rewardCents: 255,
      claimedAt: null,
    });

    // A plan's payment earns too.
    const catalogue = await call("GET", "/api/v2/product/productCatalog", { token: referred.token });
    const paid = (catalogue.json().productCatalog as { id: number; monthCents: number }[]).find(
      (p) => p.monthCents > 0,
    );
    if (!paid) throw new Error("no paid plan in the catalogue");
    const sub = await call("POST", "/api/v2/product/subscribe", {
      token: referred.token,
      payload: {
        productPlanId: paid.id,
        term: "month",
        successUrl: "/app/paymentSuccess?c={CHECKOUT_SESSION_ID}",
        cancelUrl: "/app/paymentCancel",
      },
    });
    expect(sub.statusCode).toBe(200);
    await call("POST", new URL(sub.json().url).pathname, { form: { ...GOOD_CARD, action: "pay" } });
    overview = await rewardsOf(referrerToken);
    const planReward = Math.floor(paid.monthCents / 10);
    expect(overview.earnedCents).toBe(255 + planReward);
    expect(overview.rewards[0]).toMatchObject({ paymentKind: "subscription", rewardCents: planReward });
    // Payments of an organisation nobody referred earn nobody anything.
    const before = (await app.context.database.db.select().from(referralRewards)).length;
    await topUp(w.members.uOwner.token, 10);
    expect((await app.context.database.db.select().from(referralRewards)).length).toBe(before);
  });

  it("earns from a lightning top-up once its preimage proves it (in cents, at the invoice's amount)", async () => {
    const w = await buildHierarchy(app);
    const referred = await signUp(`ref-l-${w.tag}@example.com`, w.accounts.U.username);
    const made = await call("POST", "/api/v1/requestInvoice", {
      token: referred.token,
      payload: { amount: 7.77 },
    });
    const pending = made.json().pendingInvoice as { invoice: string; amountCents: number };
    expect(pending.amountCents).toBe(777);
    const paid = await call("POST", "/sandbox/lightning/wallet", { form: { invoice: pending.invoice } });
    const preimage = /data-testid="preimage">([0-9a-f]{64})</.exec(paid.body)?.[1] as string;
    const proof = { preimage, invoice: pending.invoice };
    const [first, second] = await Promise.all([
      call("POST", "/api/v1/provePendingInvoicePaid", { token: referred.token, payload: proof }),
      call("POST", "/api/v1/provePendingInvoicePaid", { token: referred.token, payload: proof }),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
    const overview = await rewardsOf(w.members.uOwner.token);
    expect(overview.rewards).toEqual([
      expect.objectContaining({ paymentKind: "topup.lightning", paymentCents: 777, rewardCents: 77 }),
    ]);
  });

  it("claims into the wallet exactly once, even when many claims arrive at the same moment", async () => {
    const w = await buildHierarchy(app);
    const referrerToken = w.members.o1Owner.token;
    const referred = await signUp(`ref-d-${w.tag}@example.com`, w.accounts.O1.username);
    await topUp(referred.token, 40);
    await topUp(referred.token, 13.37);
    const claimable = 400 + 133;
    expect((await rewardsOf(referrerToken)).claimableCents).toBe(claimable);
    const walletBefore = await balanceOf(referrerToken);

    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        call("POST", "/api/v1/claimRewards", { token: referrerToken, payload: { claim: "true" } }),
      ),
    );
    const ok = answers.filter((a) => a.statusCode === 200);
    expect(ok).toHaveLength(1);
    expect(ok[0]?.json()).toMatchObject({ success: true, claimedCents: claimable });
    for (const refused of answers.filter((a) => a.statusCode !== 200)) {
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({ success: false, message: REFERRAL_MESSAGES.nothingToClaim });
    }
    expect(await balanceOf(referrerToken)).toBe(walletBefore + claimable);
    const overview = await rewardsOf(referrerToken);
    expect(overview).toMatchObject({ earnedCents: claimable, claimedCents: claimable, claimableCents: 0 });
    const transactions = (await call("GET", "/api/v1/recentTransactions", { token: referrerToken })).json()
      .transactions as { kind: string; amountCents: number }[];
    expect(transactions.filter((t) => t.kind === "reward")).toEqual([
      expect.objectContaining({ kind: "reward", amountCents: claimable }),
    ]);
    // The ledger stays whole.
    const audit = await app.wallet.ledger.audit();
    expect(audit.sums.usd ?? 0).toBe(0);
    expect(audit.drifted).toEqual([]);

    // A new payment makes a new claimable reward; the old ones are not claimed again.
    await topUp(referred.token, 5);
    const second = await call("POST", "/api/v1/claimRewards", {
      token: referrerToken,
      payload: { claim: true },
    });
    expect(second.json()).toMatchObject({ success: true, claimedCents: 50 });
    expect(await balanceOf(referrerToken)).toBe(walletBefore + claimable + 50);
  });

  it("validates the claim body and refuses an organisation admin (canManageBilling is the owner's)", async () => {
    const bad = await call("POST", "/api/v1/claimRewards", {
      token: world.members.o1Owner.token,
      payload: { claim: "yes" },
    });
    expect(bad.statusCode).toBe(400);
    const admin = await call("POST", "/api/v1/claimRewards", {
      token: world.members.o1Admin.token,
      payload: { claim: "true" },
    });
    expect(admin.statusCode).toBe(403);
    const nothing = await call("POST", "/api/v1/claimRewards", {
      token: world.members.uOwner.token,
      payload: { claim: "true" },
    });
    expect(nothing.statusCode).toBe(409);
  });
});

describe("super admin refunds", () => {
  const refund = (body: Record<string, unknown>, adminToken?: string, token?: string) =>
    call("POST", "/internal/issueRefundToUser", {
      ...(adminToken ? { adminToken } : {}),
      ...(token ? { token } : {}),
      payload: body,
    });

  it("refunds into the organisation's wallet with the catalogue's message, once per key", async () => {
    const admin = world.members.superAdmin.token;
    const before = await balanceOf(world.members.o2Owner.token);
    const body = {
      username: world.accounts.O2.username,
      usdAmount: 12.34,
      idempotencyKey: "refund-test-0001",
    };
    const first = await refund(body, admin);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      success: true,
      message: "The refund for the issue has been processed.",
      refundedCents: 1234,
      accountId: world.accounts.O2.id,
      replayed: false,
    });
    const [again, third] = await Promise.all([refund(body, admin), refund(body, admin)]);
    expect(again.json()).toMatchObject({ success: true, refundedCents: 1234, replayed: true });
    expect(third.json()).toMatchObject({ success: true, refundedCents: 1234, replayed: true });
    expect(await balanceOf(world.members.o2Owner.token)).toBe(before + 1234);
    // Without a key, a double click in the same minute refunds once too.
    const derived = { username: world.accounts.A2.username, usdAmount: 1 };
    const [a, b] = await Promise.all([refund(derived, admin), refund(derived, admin)]);
    expect([a.json().replayed, b.json().replayed].sort()).toEqual([false, true]);
    expect(await balanceOf(world.members.o2Owner.token)).toBe(before + 1234 + 100);
    const transactions = (
      await call("GET", "/api/v1/recentTransactions", { token: world.members.o2Owner.token })
    ).json().transactions as { kind: string; amountCents: number }[];
    expect(transactions.filter((t) => t.kind === "refund").map((t) => t.amountCents)).toEqual([100, 1234]);
  });

  it("identical keyless refunds at once post one, even when they straddle a minute's edge", async () => {
    const w = await buildHierarchy(app);
    const admin = w.members.superAdmin;
    const owner = w.accounts.U.id;
    const refundsOf = async () =>
      (
        await app.context.database.db
          .select()
          .from(ledgerTransactions)
          .where(and(eq(ledgerTransactions.ownerAccountId, owner), eq(ledgerTransactions.kind, "refund")))
      ).length;
    const body = { username: w.accounts.U.username, usdAmount: 3 };
    const answers = await Promise.all(Array.from({ length: 40 }, () => refund(body, admin.token)));
    expect(answers.map((a) => a.statusCode).filter((s) => s !== 200)).toEqual([]);
    expect(answers.filter((a) => a.json().replayed === false)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.json().transactionId)).size).toBe(1);
    expect(await balanceOf(w.members.uOwner.token)).toBe(300);

    // A clock on either side of a minute's edge, request by request: still one refund of $4.
    const edge = Math.ceil(Date.now() / 60_000) * 60_000;
    let reads = 0;
    const straddling = createReferralsService({
      db: app.context.database.db,
      ledger: createLedgerService(app.context.database.db),
      publicUrl: ORIGIN,
      log: app.log,
      rewardBasisPoints: 0,
      findByUsername: createAccountsRepository(app.context.database.db).findByUsername,
      loadAccount: app.context.access.loadAccount,
      satToUsd: async () => 0.0005,
      money: createKeyedGate({ concurrency: 40, queue: 0, waitMs: 1000 }),
      now: () => (reads++ % 2 ? edge + 1 : edge - 1),
    });
    const access = { caller: { user: { id: admin.userId } } } as unknown as Access;
    const straddled = await Promise.all(
      Array.from({ length: 40 }, () =>
        straddling.refund(access, { username: w.accounts.U.username, usdAmount: 4 }),
      ),
    );
    expect(straddled.filter((a) => !a.replayed)).toHaveLength(1);
    expect(await refundsOf()).toBe(2);
    expect(await balanceOf(w.members.uOwner.token)).toBe(700);
    // With its own key, the same amount again is a new refund.
    const keyed = await refund({ ...body, idempotencyKey: "keyed-after-keyless" }, admin.token);
    expect(keyed.json()).toMatchObject({ replayed: false, refundedCents: 300 });
  });

  it("converts satsAmount at the current rate", async () => {
    const before = await balanceOf(world.members.uOwner.token);
    const res = await refund(
      { username: world.accounts.U.username, satsAmount: 100_000 },
      world.members.superAdmin.token,
    );
    expect(res.statusCode).toBe(200);
    const rate = (await call("GET", "/api/v1/exchangeRates", { token: world.members.uOwner.token })).json()
      .satToUsd as number;
    expect(res.json().refundedCents).toBe(Math.floor(100_000 * rate * 100));
    expect(await balanceOf(world.members.uOwner.token)).toBe(before + res.json().refundedCents);
  });

  it("is for super admins only, and validates its input", async () => {
    const body = { username: world.accounts.O1.username, usdAmount: 5 };
    for (const token of [world.members.o1Owner.token, world.members.p1Owner.token]) {
      expect((await refund(body, token)).statusCode).toBe(403);
      expect((await refund(body, undefined, token)).statusCode).toBe(403);
    }
    expect((await refund(body)).statusCode).toBe(401);
    const admin = world.members.superAdmin.token;
    expect((await refund({ username: world.accounts.O1.username }, admin)).json()).toEqual({
      success: false,
      message: `usdAmount: ${REFERRAL_MESSAGES.refundAmount}`,
    });
    expect(
      (await refund({ username: world.accounts.O1.username, usdAmount: 1, satsAmount: 5 }, admin)).statusCode,
    ).toBe(400);
    expect((await refund({ username: world.accounts.O1.username, usdAmount: 1.234 }, admin)).statusCode).toBe(
      400,
    );
    const unknown = await refund({ username: "nobody-here", usdAmount: 1 }, admin);
    expect(unknown.statusCode).toBe(404);
    expect(await balanceOf(world.members.o1Owner.token)).toBeGreaterThanOrEqual(0);
  });
});

import { WITHDRAW_MESSAGES } from "@switchboard/api";
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

let topUps = 0;
async function credit(owner: number, cents: number) {
  const { ledger } = app.wallet;
  await ledger.post({
    idempotencyKey: `test-topup-${owner}-${++topUps}`,
    kind: "topup.card",
    ownerAccountId: owner,
    description: "Card top-up (test)",
    postings: [
      { account: ledger.platform("cash:card"), amount: -cents },
      { account: ledger.wallet(owner), amount: cents },
    ],
  });
}

const balanceOf = async (token = world.members.o1Owner.token) =>
  (await call("GET", "/api/v1/recentTransactions", { token })).json().balance as {
    availableCents: number;
    heldCents: number;
  };

const returns = {
  successUrl: "/app/stripePayoutConnectSuccess",
  failureUrl: "/app/stripePayoutConnectFailure",
};

/** Connects the caller's wallet owner through the sandbox onboarding page. */
async function connect(token: string) {
  const made = await call("POST", "/api/v1/payout/stripe/connectAccount", { token, payload: returns });
  expect(made.statusCode).toBe(200);
  const path = new URL(made.json().url).pathname;
  const done = await call("POST", path, {
    token: "",
    form: { action: "complete", routingNumber: "110000000", accountNumber: "000123456789" },
  });
  expect(done.statusCode).toBe(303);
  expect(done.headers.location).toBe(`${ORIGIN}/app/stripePayoutConnectSuccess`);
}

describe("Stripe Connect payouts (sandbox)", () => {
  it("connect: onboarding page, leave -> failureUrl, complete -> successUrl; then connected", async () => {
    const before = (await call("GET", "/api/v1/payout/stripe/checkConnectedAccount")).json();
    expect(before).toEqual({
      success: true,
      connected: false,
      accountId: null,
      detailsSubmitted: false,
      payoutsEnabled: false,
    });
    const refused = await call("POST", "/api/v1/payout/stripe/transferFunds", { payload: { amountUsd: 5 } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(WITHDRAW_MESSAGES.stripeNotConnected);
    const elsewhere = await call("POST", "/api/v1/payout/stripe/connectAccount", {
      payload: { successUrl: "https://evil.example/ok", failureUrl: "/app" },
    });
    expect(elsewhere.statusCode).toBe(400);

    const made = await call("POST", "/api/v1/payout/stripe/connectAccount", { payload: returns });
    const path = new URL(made.json().url).pathname;
    expect(path).toMatch(/^\/sandbox\/stripe\/connect\/onb_/);
    const page = await call("GET", path, { token: "" });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Connect a bank account");
    const left = await call("POST", path, { token: "", form: { action: "leave" } });
    expect(left.headers.location).toBe(`${ORIGIN}/app/stripePayoutConnectFailure`);
    const pending = (await call("GET", "/api/v1/payout/stripe/checkConnectedAccount")).json();
    expect(pending).toMatchObject({ connected: false, payoutsEnabled: false });
    expect(pending.accountId).toMatch(/^acct_sandbox_/);
    const stillRefused = await call("POST", "/api/v1/payout/stripe/transferFunds", {
      payload: { amountUsd: 5 },
    });
    expect(stillRefused.json().message).toBe(WITHDRAW_MESSAGES.stripePayoutsDisabled);
    const badBank = await call("POST", path, {
      token: "",
      form: { action: "complete", routingNumber: "110000000", accountNumber: "000000000002" },
    });
    expect(badBank.statusCode).toBe(400);
    expect(badBank.body).toContain("This bank account was refused");

    await connect(world.members.o1Owner.token);
    const after = (await call("GET", "/api/v1/payout/stripe/checkConnectedAccount")).json();
    expect(after).toMatchObject({ connected: true, payoutsEnabled: true, accountId: pending.accountId });
    // The onboarding link is spent.
    expect((await call("GET", path, { token: "" })).statusCode).toBe(404);
  });

  it("transfer: held, then settled by the payout job; more than the balance is refused", async () => {
    const O1 = world.accounts.O1.id;
    await credit(O1, 3000);
    const start = await balanceOf();
    const res = await call("POST", "/api/v1/payout/stripe/transferFunds", { payload: { amountUsd: 12.5 } });
    expect(res.statusCode).toBe(200);
    const { withdrawal } = res.json();
    expect(withdrawal).toMatchObject({ method: "stripe", amountCents: 1250, status: "pending" });
    expect(res.json().balance).toMatchObject({
      availableCents: start.availableCents - 1250,
      heldCents: start.heldCents + 1250,
    });
    await app.withdrawals.idle();
    const settled = (await call("GET", `/api/v1/withdrawals/${withdrawal.id}`)).json();
    expect(settled.withdrawal).toMatchObject({ status: "settled" });
    expect(settled.withdrawal.externalId).toMatch(/^tr_sandbox_/);
    expect(settled.balance).toMatchObject({
      availableCents: start.availableCents - 1250,
      heldCents: start.heldCents,
    });

    const tooMuch = await call("POST", "/api/v1/payout/stripe/transferFunds", {
      payload: { amountUsd: (start.availableCents - 1250) / 100 + 1 },
    });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().message).toBe(WITHDRAW_MESSAGES.insufficientFunds);
    // An admin is not the owner: no transfers.
    const admin = await call("POST", "/api/v1/payout/stripe/transferFunds", {
      token: world.members.o1Admin.token,
      payload: { amountUsd: 1 },
    });
    expect(admin.statusCode).toBe(403);
  });

  it("concurrent transfers never take more than the balance; the ledger sums to zero", async () => {
    const token = world.members.o2Owner.token;
    await connect(token);
    await credit(world.accounts.O2.id, 5000); // $50
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        call("POST", "/api/v1/payout/stripe/transferFunds", { token, payload: { amountUsd: 6 } }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(8); // 8 × $6 = $48 ≤ $50
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(12);
    await app.withdrawals.idle();
    expect(await balanceOf(token)).toMatchObject({ availableCents: 200, heldCents: 0 });
    const list = (await call("GET", "/api/v1/withdrawals", { token })).json().withdrawals as {
      status: string;
    }[];
    expect(list.filter((w) => w.status === "settled")).toHaveLength(8);
    const audit = await app.wallet.ledger.audit();
    expect(audit.sums.usd ?? 0).toBe(0);
    expect(audit.drifted).toEqual([]);
  });
});

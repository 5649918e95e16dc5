import { WITHDRAW_MESSAGES } from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { moneyCaller } from "../../../test/money-call.ts";
import { decodeInvoice } from "../../providers/lightning/bolt11.ts";
import { SANDBOX_PAYOUT_FAILURE } from "../../providers/payouts/sandbox-payouts.ts";

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
  null,
);

let topUps = 0;
/** Credits an owner's wallet through the ledger (as a card top-up does). */
async function credit(owner: number, cents: number) {
  const { ledger } = app.wallet;
  await ledger.post({
    idempotencyKey: `test-topup-${owner}-${++topUps}-${Math.random()}`,
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

/** An invoice of the sandbox wallet (the user's side) worth about `usd` dollars. */
async function walletInvoice(usd: number) {
  const { satToUsd } = (await call("GET", "/api/v1/exchangeRates")).json();
  const sats = Math.round(usd / satToUsd);
  const node = app.wallet.sandboxNode;
  if (!node) throw new Error("sandbox node");
  const received = await node.receive(sats, "test");
  return { invoice: received.paymentRequest, sats, cents: Math.ceil(sats * satToUsd * 100 - 1e-9) };
}

describe("lightning withdrawals", () => {
  it("holds the invoice's amount, the node pays it, then it settles; the sandbox wallet shows it received", async () => {
    const O1 = world.accounts.O1.id;
    await credit(O1, 5000);
    const { invoice, sats, cents } = await walletInvoice(10);
    const res = await call("POST", "/api/v1/requestWithdrawal", {
      payload: { address: invoice, type: "ln" },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.withdrawal).toMatchObject({
      method: "ln",
      status: "pending",
      amountSats: sats,
      amountCents: cents,
    });
    expect(body.balance).toMatchObject({ availableCents: 5000 - cents, heldCents: cents });

    await app.withdrawals.idle();
    const done = (await call("GET", `/api/v1/withdrawals/${body.withdrawal.id}`)).json();
    expect(done.withdrawal).toMatchObject({
      status: "settled",
      externalId: decodeInvoice(invoice).paymentHash,
    });
    expect(done.balance).toMatchObject({ availableCents: 5000 - cents, heldCents: 0 });

    // The receive form makes an invoice of the sandbox wallet, then shows it (post, then redirect).
    const made = await app.inject({
      method: "POST",
      url: "/sandbox/lightning/wallet/receive",
      payload: "amountSats=2500",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(made.statusCode).toBe(303);
    const shown = await app.inject({ method: "GET", url: made.headers.location as string });
    expect(shown.body).toMatch(/data-testid="new-invoice">lnbcrt25000n1/);
    const page = await app.inject({ method: "GET", url: "/sandbox/lightning/wallet" });
    const row = page.body.split('data-testid="received-row"')[2] ?? "";
    expect(row).toContain(`${sats.toLocaleString("en-US")} sats`);
    expect(row).toContain('<strong class="paid">Received</strong>');
    const kinds = (await call("GET", "/api/v1/recentTransactions"))
      .json()
      .transactions.map((t: { kind: string }) => t.kind);
    expect(kinds.slice(0, 2)).toEqual(["withdrawal.settle", "withdrawal.hold"]);

    // The same invoice again: refused, nothing more held.
    const again = await call("POST", "/api/v1/requestWithdrawal", {
      payload: { address: invoice, type: "ln" },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(WITHDRAW_MESSAGES.invoiceUsed);
    expect(await balanceOf()).toMatchObject({ availableCents: 5000 - cents, heldCents: 0 });
  });

  it("releases the funds when no route reaches the invoice's node", async () => {
    const before = await balanceOf();
    // An invoice of a node outside the sandbox network (signed with another key).
    const { encodeInvoice } = await import("../../providers/lightning/bolt11.ts");
    const { satToUsd } = (await call("GET", "/api/v1/exchangeRates")).json();
    const foreign = encodeInvoice({
      network: "bcrt",
      amountSats: Math.round(3 / satToUsd),
      paymentHash: Buffer.alloc(32, 7),
      paymentSecret: Buffer.alloc(32, 9),
      description: "elsewhere",
      expirySeconds: 600,
      timestamp: Math.floor(Date.now() / 1000),
      privateKey: new Uint8Array(32).fill(3),
    });
    await credit(world.accounts.O1.id, 500);
    const res = await call("POST", "/api/v1/requestWithdrawal", {
      payload: { address: foreign, type: "ln" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().balance.heldCents).toBeGreaterThan(0);
    await app.withdrawals.idle();
    const done = (await call("GET", `/api/v1/withdrawals/${res.json().withdrawal.id}`)).json();
    expect(done.withdrawal.status).toBe("released");
    expect(done.withdrawal.failureReason).toMatch(/No route/);
    expect(done.balance).toMatchObject({ availableCents: before.availableCents + 500, heldCents: 0 });
  });

  it("refuses bad invoices, the platform's own invoices, and more than the balance", async () => {
    const token = world.members.uOwner.token;
    const bad = await call("POST", "/api/v1/requestWithdrawal", {
      token,
      payload: { address: "lnbc1nonsense", type: "ln" },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(WITHDRAW_MESSAGES.invoice);

    const wrongType = await call("POST", "/api/v1/requestWithdrawal", {
      token,
      payload: { address: "x", type: "btc" },
    });
    expect(wrongType.statusCode).toBe(400);

    const own = (await call("POST", "/api/v1/requestInvoice", { token, payload: { amount: 5 } })).json();
    const ours = await call("POST", "/api/v1/requestWithdrawal", {
      token,
      payload: { address: own.pendingInvoice.invoice, type: "ln" },
    });
    expect(ours.statusCode).toBe(400);
    expect(ours.json().message).toBe(WITHDRAW_MESSAGES.invoiceOurs);

    const { invoice } = await walletInvoice(5);
    const over = await call("POST", "/api/v1/requestWithdrawal", {
      token,
      payload: { address: invoice, type: "ln" },
    });
    expect(over.statusCode).toBe(409);
    expect(over.json().message).toBe(WITHDRAW_MESSAGES.insufficientFunds);
    expect(await balanceOf(token)).toMatchObject({ availableCents: 0, heldCents: 0 });
  });
});

describe("PayPal and Venmo payouts (sandbox)", () => {
  it("holds amountUsd, sends the payout, settles it after the sandbox's delay; its page shows it", async () => {
    const token = world.members.o2Owner.token;
    await credit(world.accounts.O2.id, 10_000);
    const res = await call("POST", "/api/v1/payout/paypal/paypal", {
      token,
      payload: { address: "Payee@Example.com", amountUsd: "25.50" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().withdrawal).toMatchObject({
      method: "paypal",
      address: "payee@example.com",
      amountCents: 2550,
      status: "pending",
    });
    expect(res.json().balance).toMatchObject({ availableCents: 7450, heldCents: 2550 });
    await app.withdrawals.idle();
    const done = (await call("GET", `/api/v1/withdrawals/${res.json().withdrawal.id}`, { token })).json();
    expect(done.withdrawal.status).toBe("settled");
    expect(done.withdrawal.externalId).toMatch(/^SBX[0-9A-F]{24}$/);
    expect(done.balance).toMatchObject({ availableCents: 7450, heldCents: 0 });
    const page = await app.inject({ method: "GET", url: new URL(done.withdrawal.sandboxUrl).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("payee@example.com");
    expect(page.body).toContain("SUCCESS");
    const unknown = await app.inject({ method: "GET", url: "/sandbox/payouts/SBX000" });
    expect(unknown.statusCode).toBe(404);
  });

  it("venmo takes a US mobile number; a failing receiver has its funds released", async () => {
    const token = world.members.o2Owner.token;
    const before = await balanceOf(token);
    const venmo = await call("POST", "/api/v1/payout/paypal/venmo", {
      token,
      payload: { address: "+1 (415) 555-0100", amountUsd: 10 },
    });
    expect(venmo.statusCode).toBe(200);
    expect(venmo.json().withdrawal.address).toBe("4155550100");
    const failing = await call("POST", "/api/v1/payout/paypal/venmo", {
      token,
      payload: { address: "nobody@example.invalid", amountUsd: 20 },
    });
    expect(failing.statusCode).toBe(200);
    await app.withdrawals.idle();
    const ok = (await call("GET", `/api/v1/withdrawals/${venmo.json().withdrawal.id}`, { token })).json();
    const failed = (
      await call("GET", `/api/v1/withdrawals/${failing.json().withdrawal.id}`, { token })
    ).json();
    expect(ok.withdrawal.status).toBe("settled");
    expect(failed.withdrawal).toMatchObject({ status: "released", failureReason: SANDBOX_PAYOUT_FAILURE });
    expect(failed.balance).toMatchObject({ availableCents: before.availableCents - 1000, heldCents: 0 });
    const list = (await call("GET", "/api/v1/withdrawals", { token })).json().withdrawals;
    expect(list.slice(0, 2).map((w: { status: string }) => w.status)).toEqual(["released", "settled"]);
  });

  it("refuses bad addresses and amounts, and more than the balance", async () => {
    const token = world.members.uOwner.token;
    const cases: [string, Record<string, unknown>, string][] = [
      ["paypal", { address: "4155550100", amountUsd: 5 }, WITHDRAW_MESSAGES.paypalAddress],
      ["venmo", { address: "not an address", amountUsd: 5 }, WITHDRAW_MESSAGES.venmoAddress],
      ["paypal", { address: "a@b.co", amountUsd: 0.5 }, WITHDRAW_MESSAGES.amount],
      ["paypal", { address: "a@b.co", amountUsd: 1.234 }, WITHDRAW_MESSAGES.amount],
      ["paypal", { address: "a@b.co", amountUsd: "ten" }, WITHDRAW_MESSAGES.amount],
    ];
    for (const [kind, payload, message] of cases) {
      const res = await call("POST", `/api/v1/payout/paypal/${kind}`, { token, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toContain(message);
    }
    const over = await call("POST", "/api/v1/payout/paypal/paypal", {
      token,
      payload: { address: "a@b.co", amountUsd: 5 },
    });
    expect(over.statusCode).toBe(409);
    expect(over.json().message).toBe(WITHDRAW_MESSAGES.insufficientFunds);
  });

  it("another organisation's withdrawal is not found", async () => {
    const mine = (await call("GET", "/api/v1/withdrawals", { token: world.members.o2Owner.token })).json()
      .withdrawals;
    const other = await call("GET", `/api/v1/withdrawals/${mine[0].id}`);
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe(WITHDRAW_MESSAGES.withdrawalNotFound);
  });
});

describe("concurrency", () => {
  it("many withdrawals at once never take more than the balance; the ledger sums to zero", async () => {
    const token = world.members.r1Owner.token;
    const owner = world.accounts.R1.id;
    await credit(owner, 10_000); // $100
    // Each client does what the server asks when its organisation's queue is long (a busy machine): it waits
    // the Retry-After and asks again.
    const withdraw = async (i: number) => {
      for (;;) {
        const answer = await call("POST", `/api/v1/payout/paypal/${i % 2 ? "venmo" : "paypal"}`, {
          token,
          payload: { address: `r${i}@example.com`, amountUsd: 7 },
        });
        if (answer.statusCode !== 503 && answer.statusCode !== 429) return answer;
        await new Promise((resolve) => setTimeout(resolve, Number(answer.headers["retry-after"]) * 1000));
      }
    };
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => withdraw(i)));
    const accepted = results.filter((r) => r.statusCode === 200).length;
    const refused = results.filter((r) => r.statusCode === 409).length;
    expect(accepted).toBe(14); // 14 × $7 = $98 ≤ $100 < 15 × $7
    expect(refused).toBe(16);
    // $98 left the available balance; the payouts may already be settling, so only that is certain here.
    const meanwhile = await balanceOf(token);
    expect(meanwhile.availableCents).toBe(200);
    expect(meanwhile.heldCents).toBeLessThanOrEqual(9800);
    await app.withdrawals.idle();
    expect(await balanceOf(token)).toMatchObject({ availableCents: 200, heldCents: 0 });
    // The transactions page by page (the `before` cursor): 1 top-up + 14 holds + 14 settles, none twice.
    const seen: number[] = [];
    let before: number | undefined;
    for (;;) {
      const page = (
        await call("GET", `/api/v1/recentTransactions?limit=10${before ? `&before=${before}` : ""}`, {
          token,
        })
      ).json().transactions as { id: number }[];
      seen.push(...page.map((t) => t.id));
      if (page.length < 10) break;
      before = page[page.length - 1]?.id;
    }
    expect(seen).toHaveLength(29);
    expect(new Set(seen).size).toBe(29);
    const audit = await app.wallet.ledger.audit();
    expect(audit.sums.usd ?? 0).toBe(0);
    expect(audit.drifted).toEqual([]);
  });
});

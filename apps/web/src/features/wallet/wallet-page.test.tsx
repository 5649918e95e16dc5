import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { within as withinMs } from "../../../../../vitest.time-limits.ts";
import { json, signInAs } from "../../test/accounts.ts";
import { routes } from "../../test/app-routes.ts";
import { renderAt } from "../../test/render.tsx";

const LOAD = { timeout: withinMs(15_000) };
const balance = (availableCents: number, heldCents = 0) => ({ availableCents, heldCents, currency: "usd" });
const overview = (claimableCents: number, claimedCents = 0) => ({
  success: true,
  target: "bluebird-dental",
  referralLink: "http://localhost/signup?target=bluebird-dental",
  rewardPercent: 10,
  earnedCents: claimableCents + claimedCents,
  claimedCents,
  claimableCents,
  referredCount: claimableCents + claimedCents > 0 ? 1 : 0,
  referred: [],
  rewards:
    claimableCents + claimedCents > 0
      ? [
          {
            id: 1,
            referredAccountId: 77,
            referredName: "Harbor Cafe",
            paymentKind: "topup.card",
            paymentCents: (claimableCents + claimedCents) * 10,
            rewardCents: claimableCents + claimedCents,
            createdAt: 1_700_000_000_000,
            claimedAt: claimedCents > 0 ? 1_700_000_100_000 : null,
          },
        ]
      : [],
});
const rates = {
  "GET /api/v1/exchangeRates": () => ({ success: true, satToUsd: 0.0005, source: "sandbox", fetchedAt: 1 }),
  "GET /api/v1/referralRewards": () => overview(0),
  "GET /api/v1/paymentLinks": () => ({ success: true, links: [] }),
};

beforeEach(() => window.localStorage.clear());

describe("wallet page", () => {
  it("shows a zero balance and the empty state", async () => {
    signInAs(undefined, {
      ...rates,
      "GET /api/v1/recentTransactions": () => ({ success: true, balance: balance(0), transactions: [] }),
    });
    renderAt("/app/wallet", null, { routes });
    expect(
      await screen.findByText("No transactions yet. Top-ups and usage will be listed here.", {}, LOAD),
    ).toBeTruthy();
    expect(screen.getByTestId("wallet-balance").textContent).toBe("$0.00");
  });

  it("shows a usage debit, and usage owed when the wallet was short", async () => {
    signInAs(undefined, {
      ...rates,
      "GET /api/v1/recentTransactions": () => ({
        success: true,
        balance: { availableCents: 0, heldCents: 0, owedCents: 120, currency: "usd" },
        transactions: [
          {
            id: 3,
            kind: "usage",
            description: "Usage: 3 call minutes, 12 texts sent ($1.20 owed: the wallet was short)",
            amountCents: -50,
            heldCents: 0,
            amountSats: null,
            createdAt: 1_700_000_000_000,
          },
        ],
      }),
    });
    renderAt("/app/wallet", null, { routes });
    const row = await screen.findByTestId("wallet-transaction", {}, LOAD);
    expect(row.textContent).toContain("Usage: 3 call minutes, 12 texts sent");
    expect(row.textContent).toContain("-$0.50");
    expect(screen.getByTestId("wallet-owed").textContent).toBe(
      "$1.20 of usage owed: paid from your next top-up.",
    );
  });

  it("lists the transactions with their amounts, and keeps the rate in local storage", async () => {
    signInAs(undefined, {
      ...rates,
      "GET /api/v1/recentTransactions": () => ({
        success: true,
        balance: balance(3500, 0),
        transactions: [
          {
            id: 2,
            kind: "topup.lightning",
            description: "Lightning top-up (20,000 sats)",
            amountCents: 1000,
            heldCents: 0,
            amountSats: 20_000,
            createdAt: 1_700_000_000_000,
          },
          {
            id: 1,
            kind: "topup.card",
            description: "Card top-up (Visa •••• 4242)",
            amountCents: 2500,
            heldCents: 0,
            amountSats: null,
            createdAt: 1_699_000_000_000,
          },
        ],
      }),
    });
    renderAt("/app/wallet", null, { routes });
    const table = await screen.findByRole("table", { name: "Recent transactions" }, LOAD);
    const rows = within(table).getAllByTestId("wallet-transaction");
    expect(rows).toHaveLength(2);
    expect(rows[0]?.textContent).toContain("Lightning top-up");
    expect(rows[0]?.textContent).toContain("+$10.00");
    expect(rows[0]?.textContent).toContain("20,000 sats");
    expect(rows[1]?.textContent).toContain("+$25.00");
    expect(screen.getByTestId("wallet-balance").textContent).toBe("$35.00");
    // 3500 cents at 0.0005 USD per sat.
    expect(await screen.findByText(/≈ 70,000 sats/, {}, LOAD)).toBeTruthy();
    expect(JSON.parse(window.localStorage.getItem("satsExchangeRate") ?? "{}").satToUsd).toBe(0.0005);
  });

  it("labels the sandbox's bitcoin rate as made up, and a market rate as a price", async () => {
    const wallet = {
      "GET /api/v1/recentTransactions": () => ({
        success: true,
        balance: balance(4300, 0),
        transactions: [],
      }),
    };
    signInAs(undefined, {
      ...wallet,
      "GET /api/v1/exchangeRates": () => ({
        success: true,
        satToUsd: 0.00043,
        source: "sandbox",
        fetchedAt: 1,
      }),
    });
    const first = renderAt("/app/wallet", null, { routes });
    const sats = await screen.findByTestId("wallet-sats", {}, LOAD);
    await waitFor(() =>
      expect(sats.textContent).toBe(
        "≈ 100,000 sats at the sandbox rate of $43,000 per bitcoin (made up for testing, not a market price)",
      ),
    );
    first.unmount();

    window.localStorage.clear();
    signInAs(undefined, {
      ...wallet,
      "GET /api/v1/exchangeRates": () => ({
        success: true,
        satToUsd: 0.0005,
        source: "coinbase",
        fetchedAt: 1,
      }),
    });
    renderAt("/app/wallet", null, { routes });
    await waitFor(
      () =>
        expect(screen.getByTestId("wallet-sats").textContent).toBe("≈ 86,000 sats at $50,000 per bitcoin"),
      LOAD,
    );
  });

  it("shows the server's message and retries when the wallet cannot be loaded", async () => {
    let fail = true;
    signInAs(undefined, {
      ...rates,
      "GET /api/v1/recentTransactions": () =>
        fail
          ? json({ success: false, message: "The database did not answer." }, 503)
          : { success: true, balance: balance(100), transactions: [] },
    });
    renderAt("/app/wallet", null, { routes });
    expect(await screen.findByText("The database did not answer.", {}, LOAD)).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect((await screen.findByTestId("wallet-balance", {}, LOAD)).textContent).toBe("$1.00");
  });

  it("shows the referral link and rewards, and claims them into the wallet", async () => {
    let claimed = false;
    const calls = signInAs(undefined, {
      ...rates,
      "GET /api/v1/recentTransactions": () => ({
        success: true,
        balance: balance(claimed ? 250 : 0),
        transactions: [],
      }),
      "GET /api/v1/referralRewards": () => (claimed ? overview(0, 250) : overview(250)),
      "POST /api/v1/claimRewards": () => {
        claimed = true;
        return { success: true, claimedCents: 250, availableCents: 250, transactionId: 9 };
      },
    });
    renderAt("/app/wallet", null, { routes });
    const section = within(await screen.findByRole("region", { name: "Referrals" }, LOAD));
    expect(((await section.findByLabelText("Your referral link", {}, LOAD)) as HTMLInputElement).value).toBe(
      `${window.location.origin}/signup?target=bluebird-dental`,
    );
    expect(section.getByTestId("referred-count").textContent).toBe("1 referred");
    expect(section.getByTestId("rewards-claimable").textContent).toBe("$2.50");
    expect(section.getByTestId("referral-reward").textContent).toContain("Harbor Cafe");
    fireEvent.click(section.getByRole("button", { name: "Claim rewards" }));
    expect(await section.findByText("$2.50 of rewards was added to your wallet.", {}, LOAD)).toBeTruthy();
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ claim: "true" });
    expect((await screen.findByTestId("wallet-balance", {}, LOAD)).textContent).toBe("$2.50");
    await waitFor(() => expect(section.getByTestId("rewards-claimable").textContent).toBe("$0.00"));
    expect((section.getByRole("button", { name: "Claim rewards" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("says nobody has signed up yet when the link is unused", async () => {
    signInAs(undefined, {
      ...rates,
      "GET /api/v1/recentTransactions": () => ({ success: true, balance: balance(0), transactions: [] }),
    });
    renderAt("/app/wallet", null, { routes });
    expect(await screen.findByText("Nobody has signed up through your link yet.", {}, LOAD)).toBeTruthy();
  });

  it("paymentSuccess says what was credited", async () => {
    signInAs(undefined, {
      "GET /api/v1/checkout/sessions/cs_sandbox_1": () => ({
        success: true,
        session: {
          id: "cs_sandbox_1",
          status: "complete",
          amountCents: 2500,
          currency: "usd",
          provider: "sandbox",
        },
      }),
    });
    renderAt("/app/paymentSuccess?session_id=cs_sandbox_1", null, { routes });
    expect(await screen.findByText("$25.00 was added to your wallet.", {}, LOAD)).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Payment received" })).toBeTruthy();
  });

  it("paymentCancel says nothing was charged", async () => {
    signInAs(undefined, {});
    renderAt("/app/paymentCancel", null, { routes });
    expect(await screen.findByRole("heading", { name: "Payment cancelled" }, LOAD)).toBeTruthy();
    expect(
      screen.getByText("Nothing was charged. You can top up your wallet whenever you like."),
    ).toBeTruthy();
  });
});

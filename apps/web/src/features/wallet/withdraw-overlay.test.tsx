import { WITHDRAW_MESSAGES } from "@switchboard/api";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { within as withinMs } from "../../../../../vitest.time-limits.ts";
import { type FetchCall, json, signInAs } from "../../test/accounts.ts";
import { routes } from "../../test/app-routes.ts";
import { renderAt } from "../../test/render.tsx";

const LOAD = { timeout: withinMs(15_000) };
const balance = (availableCents: number, heldCents = 0) => ({ availableCents, heldCents, currency: "usd" });
const rates = {
  "GET /api/v1/exchangeRates": () => ({ success: true, satToUsd: 0.0005, source: "sandbox", fetchedAt: 1 }),
};
const withdrawal = (status: "pending" | "settled" | "released", extra: Record<string, unknown> = {}) => ({
  id: 7,
  method: "paypal",
  address: "me@example.com",
  amountCents: 1250,
  amountSats: null,
  status,
  failureReason: status === "released" ? "RECEIVER_UNREGISTERED: no account" : null,
  externalId: "SBXABC",
  sandboxUrl: "http://127.0.0.1/sandbox/payouts/SBXABC",
  createdAt: 1_700_000_000_000,
  finishedAt: status === "pending" ? null : 1_700_000_005_000,
  ...extra,
});

beforeEach(() => window.localStorage.clear());

describe("withdraw overlay", () => {
  it("checks the amount, sends a PayPal payout, and shows it on hold, then paid out", async () => {
    let polls = 0;
    const calls = signInAs(undefined, {
      ...rates,
      "GET /api/v1/recentTransactions": () => ({ success: true, balance: balance(2000), transactions: [] }),
      "GET /api/v1/withdrawals": () => ({ success: true, withdrawals: [], sandboxLightningWalletUrl: null }),
      "POST /api/v1/payout/paypal/paypal": () => ({
        success: true,
        withdrawal: withdrawal("pending"),
        balance: balance(750, 1250),
      }),
      "GET /api/v1/withdrawals/7": () => ({
        success: true,
        withdrawal: withdrawal(++polls > 1 ? "settled" : "pending"),
        balance: balance(750, polls > 1 ? 0 : 1250),
      }),
    });
    renderAt("/app/wallet?withdraw=paypal", null, { routes });
    const dialog = await screen.findByRole("dialog", { name: "Withdraw" }, LOAD);
    expect((await within(dialog).findByTestId("withdraw-available", {}, LOAD)).textContent).toBe("$20.00");
    fireEvent.change(within(dialog).getByLabelText("PayPal email"), { target: { value: "me@example.com" } });
    fireEvent.change(within(dialog).getByLabelText("Amount (USD)"), { target: { value: "25" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Withdraw" }));
    expect(await within(dialog).findByText(WITHDRAW_MESSAGES.insufficientFunds)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText("Amount (USD)"), { target: { value: "12.50" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Withdraw" }));
    expect((await within(dialog).findByTestId("withdrawal-status", {}, LOAD)).textContent).toBe("On hold");
    await waitFor(
      () => expect(within(dialog).getByTestId("withdrawal-status").textContent).toBe("Paid out"),
      { timeout: withinMs(6000) },
    );
    expect(within(dialog).getByText(/The money was sent/)).toBeTruthy();
    const sent = calls.find((c: FetchCall) => c.method === "POST" && c.url.pathname.endsWith("/paypal"));
    expect(sent?.body).toEqual({ address: "me@example.com", amountUsd: 12.5 });
  });

  it("shows the server's refusal of a lightning invoice", async () => {
    signInAs(undefined, {
      ...rates,
      "GET /api/v1/recentTransactions": () => ({ success: true, balance: balance(500), transactions: [] }),
      "GET /api/v1/withdrawals": () => ({
        success: true,
        withdrawals: [],
        sandboxLightningWalletUrl: "http://127.0.0.1/sandbox/lightning/wallet",
      }),
      "POST /api/v1/requestWithdrawal": () =>
        json({ success: false, message: WITHDRAW_MESSAGES.insufficientFunds }, 409),
    });
    renderAt("/app/wallet?withdraw=true", null, { routes });
    const dialog = await screen.findByRole("dialog", { name: "Withdraw" }, LOAD);
    fireEvent.change(await within(dialog).findByLabelText(/Lightning invoice/, {}, LOAD), {
      target: { value: "not an invoice" },
    });
    fireEvent.click(within(dialog).getByRole("button", { name: "Withdraw" }));
    expect(await within(dialog).findByText(WITHDRAW_MESSAGES.invoice)).toBeTruthy();
    expect(within(dialog).getByRole("link", { name: "sandbox lightning wallet" })).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/Lightning invoice/), {
      target: { value: "lnbcrt10u1abc" },
    });
    fireEvent.click(within(dialog).getByRole("button", { name: "Withdraw" }));
    expect(await within(dialog).findByText(WITHDRAW_MESSAGES.insufficientFunds, {}, LOAD)).toBeTruthy();
  });
});

describe("transactions and balances overlays", () => {
  it("pages through the transactions", async () => {
    const tx = (id: number) => ({
      id,
      kind: "topup.card",
      description: `Card top-up ${id}`,
      amountCents: 100,
      heldCents: 0,
      amountSats: null,
      createdAt: 1_700_000_000_000 + id,
    });
    signInAs(undefined, {
      ...rates,
      "GET /api/v1/recentTransactions": (call: FetchCall) => {
        const before = Number(call.url.searchParams.get("before") ?? 31);
        const ids = Array.from({ length: 30 }, (_, i) => 30 - i).filter((id) => id < before);
        return { success: true, balance: balance(3000), transactions: ids.slice(0, 25).map(tx) };
      },
    });
    renderAt("/app/wallet?transactions=true", null, { routes });
    const dialog = await screen.findByRole("dialog", { name: "Transactions" }, LOAD);
    expect((await within(dialog).findByTestId("transactions-count", {}, LOAD)).textContent).toBe("25 shown");
    fireEvent.click(within(dialog).getByRole("button", { name: "Load older transactions" }));
    expect(await within(dialog).findByText("30 shown", {}, LOAD)).toBeTruthy();
    expect(within(dialog).getByText("That is all.")).toBeTruthy();
  });

  it("balances show available and on hold", async () => {
    signInAs(undefined, {
      ...rates,
      "GET /api/v1/recentTransactions": () => ({
        success: true,
        balance: balance(750, 1250),
        transactions: [],
      }),
      "GET /api/v1/withdrawals": () => ({
        success: true,
        withdrawals: [withdrawal("pending")],
        sandboxLightningWalletUrl: null,
      }),
    });
    renderAt("/app/wallet?balances=true", null, { routes });
    const dialog = await screen.findByRole("dialog", { name: "Balances" }, LOAD);
    expect((await within(dialog).findByTestId("balances-available", {}, LOAD)).textContent).toBe("$7.50");
    expect(within(dialog).getByTestId("balances-held").textContent).toBe("$12.50");
    expect(await within(dialog).findByText("On hold", { selector: "span" }, LOAD)).toBeTruthy();
  });
});

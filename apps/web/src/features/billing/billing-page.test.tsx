import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { within as withinMs } from "../../../../../vitest.time-limits.ts";
import { json, signInAs } from "../../test/accounts.ts";
import { routes } from "../../test/app-routes.ts";
import { renderAt } from "../../test/render.tsx";

const LOAD = { timeout: withinMs(15_000) };
const tiers = {
  type: "metered",
  unit: "minute",
  tiers: [
    { quantityMin: 0, quantityMax: 500, unitPriceCents: 0 },
    { quantityMin: 501, unitPriceCents: 12 },
  ],
};
const plan = (id: number, name: string, monthCents: number, premium: boolean) => ({
  id,
  name,
  description: `${name} plan`,
  monthCents,
  yearCents: monthCents * 10,
  listMonthCents: monthCents,
  listYearCents: monthCents * 10,
  premium,
  productItems: { voice: tiers },
});
const FREE = plan(1, "Free", 0, false);
const PRO = plan(2, "Pro", 4900, true);
const buckets = (values: Partial<Record<string, number>> = {}) => ({
  number: 0,
  tokens: 0,
  voice: 0,
  advancedVoice: 0,
  "outbound-message": 0,
  "inbound-message": 0,
  ...values,
});
const USAGE = {
  success: true,
  startDate: "2026-01-05",
  endDate: "2026-02-04",
  frequency: "day",
  plan: "Free",
  usage: buckets({ voice: 34, "outbound-message": 12, tokens: 250_000 }),
  prices: buckets({ voice: 0.2, "outbound-message": 0, tokens: 0.00001 }),
  costs: buckets({ voice: 0.8, tokens: 0.5 }),
  totalCost: 1.3,
  debitedCents: 125,
};
const catalogue = {
  "GET /api/v2/stats/usage": () => USAGE,
  "GET /api/v2/product/allAvailablePlans": () => ({ success: true, plans: [FREE, PRO], offeredPlanId: null }),
  "GET /api/v2/product/offeredPlan": () => ({ success: true, productPlan: null, offeredBy: null }),
};

describe("billing page", () => {
  it("shows the Free plan, premium off and the plans with their prices", async () => {
    signInAs(undefined, {
      ...catalogue,
      "GET /api/v2/product/currentPlan": () => ({
        success: true,
        productPlan: FREE,
        subscription: null,
        premium: false,
      }),
    });
    renderAt("/app/billing", null, { routes });
    expect((await screen.findByTestId("current-plan-name", {}, LOAD)).textContent).toBe("Free");
    expect(screen.getByTestId("premium-badge").textContent).toBe("Premium off");
    expect((await screen.findByTestId("plan-Pro", {}, LOAD)).textContent).toContain("$49.00 / month");
    fireEvent.click(screen.getByRole("radio", { name: "Yearly" }));
    expect(screen.getByTestId("plan-Pro").textContent).toContain("$490.00 / year");
  });

  it("shows this period's usage with quantity, price and cost, and what the wallet was charged", async () => {
    signInAs(undefined, {
      ...catalogue,
      "GET /api/v2/product/currentPlan": () => ({
        success: true,
        productPlan: FREE,
        subscription: null,
        premium: false,
      }),
    });
    renderAt("/app/billing", null, { routes });
    const voice = await screen.findByTestId("usage-row-voice", {}, LOAD);
    expect([...voice.querySelectorAll("td")].map((cell) => cell.textContent)).toEqual([
      "Call minutes",
      "34",
      "$0.20 / minute",
      "$0.80",
    ]);
    expect(screen.getByTestId("usage-row-outbound-message").textContent).toContain("Included");
    expect(screen.getByTestId("usage-row-tokens").textContent).toContain("$0.01 / 1,000 tokens");
    expect(screen.queryByTestId("usage-row-advancedVoice")).toBeNull();
    expect(screen.getByTestId("usage-total").textContent).toBe("$1.30");
    expect(screen.getByTestId("usage-debited").textContent).toBe("$1.25");
    expect(screen.queryByTestId("usage-pending")).toBeNull();
    expect(screen.getByText(/Priced by the Free plan's tiers/)).toBeTruthy();
  });

  it("explains a total far above what the wallet was charged: not charged, and still to charge", async () => {
    signInAs(undefined, {
      ...catalogue,
      "GET /api/v2/stats/usage": () => ({
        ...USAGE,
        totalCost: 143.49,
        debitedCents: 83,
        notChargedCents: 14_200,
        pendingCents: 66,
      }),
      "GET /api/v2/product/currentPlan": () => ({
        success: true,
        productPlan: FREE,
        subscription: null,
        premium: false,
      }),
    });
    renderAt("/app/billing", null, { routes });
    expect((await screen.findByTestId("usage-total", {}, LOAD)).textContent).toBe("$143.49");
    const charges = screen.getByTestId("usage-charges");
    expect([...charges.querySelectorAll("tr")].map((row) => row.textContent)).toEqual([
      "Charged to your wallet so far$0.83",
      "To be charged with the next usage charge (every few minutes)$0.66",
      "Not charged: usage from before usage charging started for you$142.00",
    ]);
  });

  it("says when there is no usage yet, and shows the error of usage that cannot be loaded", async () => {
    let fail = true;
    signInAs(undefined, {
      ...catalogue,
      "GET /api/v2/stats/usage": () =>
        fail
          ? json({ success: false, message: "Usage is resting." }, 503)
          : { ...USAGE, usage: buckets(), costs: buckets(), totalCost: 0, debitedCents: 0 },
      "GET /api/v2/product/currentPlan": () => ({
        success: true,
        productPlan: FREE,
        subscription: null,
        premium: false,
      }),
    });
    renderAt("/app/billing", null, { routes });
    expect(await screen.findByText("Usage is resting.", {}, LOAD)).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect((await screen.findByTestId("usage-empty", {}, LOAD)).textContent).toBe(
      "No usage yet this period.",
    );
  });

  it("shows an active subscription with premium on", async () => {
    signInAs(undefined, {
      ...catalogue,
      "GET /api/v2/product/currentPlan": () => ({
        success: true,
        productPlan: PRO,
        premium: true,
        subscription: {
          id: 1,
          productPlanId: 2,
          term: "month",
          status: "active",
          amountCents: 4900,
          provider: "sandbox",
          currentPeriodStart: Date.UTC(2026, 0, 1),
          currentPeriodEnd: Date.UTC(2026, 1, 1),
          canceledAt: null,
          createdAt: Date.UTC(2026, 0, 1),
        },
      }),
    });
    renderAt("/app/billing", null, { routes });
    expect((await screen.findByTestId("current-plan-name", {}, LOAD)).textContent).toBe("Pro");
    expect(screen.getByTestId("premium-badge").textContent).toBe("Premium on");
    // One period: the subscription's, said as its first and last day, and the day it renews.
    expect(screen.getByTestId("subscription-period").textContent).toBe(
      "$49.00 per month, paid by card for Jan 1 – Jan 31; renews on February 1, 2026 (sandbox).",
    );
    expect(screen.getByRole("button", { name: "Manage subscription" })).toBeTruthy();
  });

  it("shows the server's message and retries when the plan cannot be loaded", async () => {
    let fail = true;
    signInAs(undefined, {
      ...catalogue,
      "GET /api/v2/product/currentPlan": () =>
        fail
          ? json({ success: false, message: "The database did not answer." }, 503)
          : { success: true, productPlan: FREE, subscription: null, premium: false },
    });
    renderAt("/app/billing", null, { routes });
    expect(await screen.findByText("The database did not answer.", {}, LOAD)).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect((await screen.findByTestId("current-plan-name", {}, LOAD)).textContent).toBe("Free");
  });
});

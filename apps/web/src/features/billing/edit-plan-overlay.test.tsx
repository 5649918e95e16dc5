import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { within as withinMs } from "../../../../../vitest.time-limits.ts";
import { fakeAccount, fakeAccountView, json, signInAs } from "../../test/accounts.ts";
import { routes } from "../../test/app-routes.ts";
import { renderAt } from "../../test/render.tsx";

const LOAD = { timeout: withinMs(15_000) };
const PRO = {
  id: 2,
  name: "Pro",
  description: "Pro plan",
  monthCents: 4900,
  yearCents: 49000,
  listMonthCents: 4900,
  listYearCents: 49000,
  premium: true,
  productItems: {},
};
const partner = fakeAccount({
  id: 2,
  accountType: "partner",
  organizationId: null,
  displayName: "Acme Voice",
});

describe("editPlan overlay", () => {
  it("lets a partner set the prices of a plan it offers, checked with the API's schema", async () => {
    let offered: typeof PRO | null = null;
    const calls = signInAs(fakeAccountView({ account: partner, homeAccount: partner }), {
      "GET /api/v2/product/productCatalog/2": () => ({ success: true, productPlan: PRO }),
      "GET /api/v2/product/offeredPlan": () => ({ success: true, productPlan: offered, offeredBy: null }),
      "GET /api/v2/product/allAvailablePlans": () => ({ success: true, plans: [PRO], offeredPlanId: null }),
      "PUT /api/v2/product/offeredPlan": (call) => {
        const body = call.body as { monthPrice: number; yearPrice: number };
        if (body.monthPrice > 1000)
          return json(
            { success: false, message: "Enter a price from $0 to $100,000 with at most two decimals." },
            400,
          );
        offered = { ...PRO, monthCents: Math.round(body.monthPrice * 100), yearCents: body.yearPrice * 100 };
        return { success: true, productPlan: offered };
      },
    });
    renderAt("/app/billing?editPlan=2", null, { routes });
    const dialog = within(await screen.findByRole("dialog", { name: "Edit plan prices" }, LOAD));
    const month = await dialog.findByLabelText("Monthly price (USD)", {}, LOAD);
    expect((month as HTMLInputElement).value).toBe("49.00");
    expect(dialog.getByText(/List price \$49\.00 per month/)).toBeTruthy();

    fireEvent.change(month, { target: { value: "12.345" } });
    fireEvent.click(dialog.getByRole("button", { name: "Save prices" }));
    expect(
      await screen.findByText("Enter a price from $0 to $100,000 with at most two decimals."),
    ).toBeTruthy();
    fireEvent.change(month, { target: { value: "" } });
    fireEvent.click(dialog.getByRole("button", { name: "Save prices" }));
    expect(
      await screen.findByText("Enter a price from $0 to $100,000 with at most two decimals."),
    ).toBeTruthy();
    expect(calls.some((c) => c.method === "PUT")).toBe(false);

    // The server's refusal is shown word for word.
    fireEvent.change(month, { target: { value: "5000" } });
    fireEvent.click(dialog.getByRole("button", { name: "Save prices" }));
    expect(await dialog.findByRole("alert")).toBeTruthy();

    fireEvent.change(month, { target: { value: "39.50" } });
    fireEvent.click(dialog.getByRole("button", { name: "Save prices" }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Edit plan prices" })).toBeNull(), LOAD);
    const put = calls.filter((c) => c.method === "PUT").at(-1);
    expect(put?.body).toEqual({ productPlanId: 2, monthPrice: 39.5, yearPrice: 490 });
  });

  it("tells an organisation that only partners and resellers set prices", async () => {
    signInAs(fakeAccountView(), {
      "GET /api/v2/product/productCatalog/2": () => ({ success: true, productPlan: PRO }),
      "GET /api/v2/product/offeredPlan": () => ({ success: true, productPlan: null, offeredBy: null }),
      "GET /api/v2/product/allAvailablePlans": () => ({ success: true, plans: [PRO], offeredPlanId: null }),
      "GET /api/v2/product/currentPlan": () => ({
        success: true,
        productPlan: null,
        subscription: null,
        premium: false,
      }),
    });
    renderAt("/app/billing?editPlan=2", null, { routes });
    expect(
      await screen.findByText(
        "Only partners and resellers set the prices of the plans they offer.",
        {},
        LOAD,
      ),
    ).toBeTruthy();
  });
});

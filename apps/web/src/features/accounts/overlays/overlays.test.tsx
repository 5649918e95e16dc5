import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { within as withinMs } from "../../../../../../vitest.time-limits.ts";
import { fakeAccount, fakeAccountView, json, permissions, signInAs } from "../../../test/accounts.ts";
import { routes } from "../../../test/app-routes.ts";
import { renderAt } from "../../../test/render.tsx";

const reseller = fakeAccount({
  id: 3,
  accountType: "reseller",
  displayName: "Northwind",
  organizationId: null,
});
const bluebird = fakeAccount({ id: 42, displayName: "Bluebird Dental", username: "bluebird-dental" });

function superAdminView(accountId: number) {
  return fakeAccountView({
    account: accountId === 42 ? bluebird : reseller,
    homeAccount: fakeAccount({
      id: 1,
      accountType: "partner",
      displayName: "Switchboard",
      organizationId: null,
    }),
    user: { ...fakeAccountView().user, superAdmin: true },
    viewingAs: "superAdmin",
    allowedViewingAs: ["superAdmin", "partner", "reseller", "owner", "admin"],
    actingAsHigherRole: true,
    permissions: permissions(true),
  });
}

const LOAD = { timeout: withinMs(15_000) };

describe("account overlays", () => {
  it("orgAdmin disables with the reason and says Organization disabled!", async () => {
    let disabled = false;
    const calls = signInAs(
      (call) => {
        const view = superAdminView(Number(call.url.searchParams.get("targetAccountId") ?? 3));
        return { ...view, account: { ...view.account, disabled: view.account.id === 42 && disabled } };
      },
      {
        "POST /api/v1/disableAccount": () => {
          disabled = true;
          return { success: true, message: "Organization disabled!" };
        },
        "POST /api/v1/enableAccount": () => json({ success: false, message: "boom" }, 500),
      },
    );
    renderAt("/app/reseller/3?orgAdmin=42", null, { routes });
    const reason = await screen.findByLabelText("Reason", {}, LOAD);
    await act(async () => {
      fireEvent.change(reason, { target: { value: "Unpaid" } });
      fireEvent.click(screen.getByRole("button", { name: "Disable account" }));
    });
    expect(await screen.findByText("Organization disabled!")).toBeTruthy();
    const call = calls.find((entry) => entry.url.pathname === "/api/v1/disableAccount");
    expect(call?.body).toEqual({ username: "bluebird-dental", reason: "Unpaid" });
    // The super admin's session is the admin token, sent as a header (issue 32 item 19).
    expect(call?.url.searchParams.has("adminToken")).toBe(false);
    expect(call?.headers.get("authorization")).toBe("Bearer test-token");

    // Enabling fails: only logged (spec §8).
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    await act(async () => {
      fireEvent.click(await screen.findByRole("button", { name: "Enable account" }));
    });
    await waitFor(() => expect(logged).toHaveBeenCalled());
    expect(screen.queryByText("Account enabled!")).toBeNull();
    logged.mockRestore();
  });

  it("orgTakeover confirms, then puts the organisation in view", async () => {
    signInAs((call) => superAdminView(Number(call.url.searchParams.get("targetAccountId") ?? 3)));
    const { router } = renderAt("/app/reseller/3?orgTakeover=42", null, { routes });
    const button = await screen.findByRole("button", { name: "Take over" }, LOAD);
    expect(screen.getByTestId("summary-name").textContent).toBe("Bluebird Dental");
    await act(async () => {
      fireEvent.click(button);
    });
    await waitFor(() => expect(router.state.location.pathname).toBe("/app/org/42"));
    expect(router.state.location.search).toBe("");
  });

  it("a take-over naming another account type says Account type does not match", async () => {
    signInAs((call) => superAdminView(Number(call.url.searchParams.get("targetAccountId") ?? 3)));
    renderAt("/app/org/42?resellerTakeover=42", null, { routes });
    expect(await screen.findByText("Account type does not match", {}, LOAD)).toBeTruthy();
  });
});

vi.setConfig({ testTimeout: withinMs(30_000) });

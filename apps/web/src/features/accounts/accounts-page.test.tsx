import { act, fireEvent, screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { within as withinMs } from "../../../../../vitest.time-limits.ts";
import { fakeAccount, fakeAccountView, permissions, signInAs } from "../../test/accounts.ts";
import { routes } from "../../test/app-routes.ts";
import { renderAt } from "../../test/render.tsx";

const LOAD = { timeout: withinMs(15_000) };
const hq = fakeAccount({
  id: 1,
  accountType: "partner",
  displayName: "Switchboard HQ",
  username: "hq",
  organizationId: null,
  parentId: null,
  partnerId: 1,
  resellerId: null,
});
const superAdminView = fakeAccountView({
  account: hq,
  homeAccount: hq,
  user: { ...fakeAccountView().user, superAdmin: true },
  viewingAs: "superAdmin",
  allowedViewingAs: ["superAdmin", "partner", "reseller", "owner", "admin"],
  actingAsHigherRole: true,
  permissions: permissions(true),
});
const emptyList = { success: true, accounts: [], totalAccounts: 0, page: 0, pageSize: 20 };
const flagged = {
  orgId: 42,
  accountName: "Bluebird Dental",
  agentId: 43,
  roomId: "room-9",
  uuid: "0b6f4c1e-5f55-4a51-9d0e-0c6f0f7e2a10",
  timestamp: "2026-11-20T15:04:00.000Z",
  duration: 95,
  direction: "inbound",
  reasons: ["Caller said the answer was wrong"],
};

beforeEach(() => window.localStorage.clear());

describe("Accounts page of the super admin", () => {
  it("keeps its tab in the address, and lists the calls for review of every tenant", async () => {
    const calls = signInAs(superAdminView, {
      "GET /api/v2/listPartners": () => emptyList,
      "GET /api/v2/listResellers": () => emptyList,
      "GET /api/v2/listOrganizations": () => emptyList,
      "GET /internal/fetchCallsForReview": () => ({
        success: true,
        calls: [flagged],
        pagination: { page: 1, pageSize: 20, hasMore: false },
      }),
    });
    const { router } = renderAt("/app/accounts?tab=review", null, { routes });
    const table = await screen.findByRole("table", { name: "Calls for review" }, LOAD);
    const row = within(table).getByTestId("review-row");
    expect(within(row).getByRole("link", { name: "Bluebird Dental" }).getAttribute("href")).toBe(
      "/app/org/42",
    );
    expect(within(row).getByText("Inbound, 1:35")).toBeTruthy();
    expect(within(row).getByText("Caller said the answer was wrong")).toBeTruthy();
    expect(within(row).getByRole("link", { name: "Transcript" }).getAttribute("href")).toBe(
      `/app/org/42/logs?callTranscript=${encodeURIComponent(`room-9/${flagged.uuid}`)}`,
    );
    const review = calls.find((c) => c.url.pathname === "/internal/fetchCallsForReview");
    expect(review?.headers.get("authorization")).toBe("Bearer test-token");
    // Every tenant's calls, not only those below the account in view.
    expect(review?.url.searchParams.has("targetAccountId")).toBe(false);

    // Another tab is kept in the address too.
    await act(async () => {
      fireEvent.click(screen.getByRole("tab", { name: "Organizations" }));
    });
    expect(router.state.location.search).toBe("?tab=organizations");
    expect(screen.getByRole("tab", { name: "Organizations" }).getAttribute("aria-selected")).toBe("true");
  });

  it("opens the tab the address names", async () => {
    signInAs(superAdminView, {
      "GET /api/v2/listResellers": () => emptyList,
    });
    renderAt("/app/accounts?tab=resellers", null, { routes });
    const tab = await screen.findByRole("tab", { name: "Resellers" }, LOAD);
    expect(tab.getAttribute("aria-selected")).toBe("true");
    expect(await screen.findByText("No resellers yet.", {}, LOAD)).toBeTruthy();
  });

  it("shows no Calls for review tab to a partner", async () => {
    const partner = fakeAccountView({
      account: hq,
      homeAccount: hq,
      viewingAs: "partner",
      allowedViewingAs: ["partner", "reseller", "owner", "admin"],
      actingAsHigherRole: true,
      permissions: permissions(true),
    });
    signInAs(partner, { "GET /api/v2/listResellers": () => emptyList });
    renderAt("/app/accounts", null, { routes });
    expect(await screen.findByRole("tab", { name: "Resellers" }, LOAD)).toBeTruthy();
    expect(screen.queryByRole("tab", { name: "Calls for review" })).toBeNull();
  });
});

import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { within as withinMs } from "../../../../vitest.time-limits.ts";
import { setLogoutNavigation } from "../lib/logout.ts";
import { getTargetAccountId, saveViewingAs } from "../lib/session.ts";
import {
  fakeAccount,
  fakeAccountView,
  json,
  permissions,
  signInAs,
  storeTestSession,
  stubFetch,
} from "../test/accounts.ts";
import { routes } from "../test/app-routes.ts";
import { offContract } from "../test/contract.ts";
import { renderAt } from "../test/render.tsx";

const assigned: string[] = [];

beforeEach(() => {
  assigned.length = 0;
  setLogoutNavigation((url) => assigned.push(url));
});

afterEach(() => {
  setLogoutNavigation((url) => window.location.assign(url));
});

describe("the account layer", () => {
  it("sends a signed-out visitor to /signin with the way back", async () => {
    stubFetch({});
    const { router } = renderAt("/app/org/42/inbox?members=true", null, { routes });
    await waitFor(() => expect(router.state.location.pathname).toBe("/signin"));
    expect(router.state.location.search).toBe(
      `?next=${encodeURIComponent("/app/org/42/inbox?members=true")}`,
    );
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeTruthy();
  });

  it("loads the account the path names, with the stored viewing-as value", async () => {
    const calls = signInAs((call) => {
      const id = Number(call.url.searchParams.get("targetAccountId"));
      return fakeAccountView({
        account: fakeAccount({ id, displayName: `Org ${id}` }),
        homeAccount: fakeAccount({ id: 3, accountType: "reseller", displayName: "Northwind" }),
        role: "owner",
        viewingAs: "reseller",
        allowedViewingAs: ["reseller", "owner", "admin"],
        actingAsHigherRole: true,
        permissions: permissions(true),
      });
    });
    saveViewingAs("reseller");
    const { router } = renderAt("/app/org/42/inbox", null, { routes });
    expect(await screen.findByRole("heading", { name: "Inbox", level: 1 })).toBeTruthy();
    expect(screen.getByTestId("account-name").textContent).toBe("Org 42");
    const accountCall = calls.find((call) => call.url.pathname === "/api/v1/account");
    // The session goes as a header, never in the address (issue 32 item 19).
    expect(Object.fromEntries(accountCall?.url.searchParams ?? [])).toEqual({
      targetAccountId: "42",
      viewingAs: "reseller",
    });
    expect(accountCall?.headers.get("authorization")).toBe("Bearer test-token");
    expect(getTargetAccountId()).toBe(42);

    // Another account in the path: loaded again.
    await act(async () => {
      await router.navigate("/app/org/77/inbox");
    });
    await waitFor(() => expect(screen.getByTestId("account-name").textContent).toBe("Org 77"));
    expect(getTargetAccountId()).toBe(77);
  });

  it("fails with Account type does not match when the path names another type", async () => {
    signInAs(fakeAccountView());
    renderAt("/app/reseller/42", null, { routes });
    expect(await screen.findByText("Account type does not match")).toBeTruthy();
    expect(screen.queryByRole("navigation", { name: "Product areas" })).toBeNull();
    expect(window.localStorage.getItem("token")).toBe("test-token");
  });

  it.each([401, 403, 404])("logs out when the account load answers %i", async (status) => {
    const calls = signInAs(() => json({ success: false, message: "Account not found" }, status));
    window.localStorage.setItem("theme", "dark");
    renderAt("/app/org/999", null, { routes });
    await waitFor(() => expect(assigned).toEqual(["/app"]));
    expect(calls.some((call) => call.method === "POST" && call.url.pathname === "/api/v1/logout")).toBe(true);
    expect(window.localStorage.getItem("token")).toBeNull();
    expect(window.localStorage.getItem("theme")).toBe("dark");
    expect(window.sessionStorage.getItem("signedOutReason")).toBe("Account not found");
  });

  it("logs out when the account answer has success false", async () => {
    signInAs(() =>
      offContract(
        json({ success: false, message: "Nope" }),
        "a 200 answer with success false must still count as failed",
      ),
    );
    renderAt("/app", null, { routes });
    await waitFor(() => expect(assigned).toEqual(["/app"]));
  });

  it("keeps the session and offers a retry when the server fails", async () => {
    let fail = true;
    signInAs(() =>
      fail ? json({ success: false, message: "Database unavailable" }, 503) : fakeAccountView(),
    );
    renderAt("/app", null, { routes });
    expect(await screen.findByText("Database unavailable", {}, { timeout: withinMs(5000) })).toBeTruthy();
    expect(window.localStorage.getItem("token")).toBe("test-token");
    fail = false;
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    });
    expect(await screen.findByRole("heading", { name: "Dashboard", level: 1 })).toBeTruthy();
  });

  it("signs in with ?oneTimeToken= and drops it from the address", async () => {
    const calls = stubFetch({
      "GET /api/v1/oneTimeAuth": () => ({ success: true, id: 42, username: "bluebird", token: "fresh" }),
      "GET /api/v1/account": () => fakeAccountView(),
    });
    const { router } = renderAt("/app/org/42?oneTimeToken=once&members=true", null, { routes });
    await waitFor(() => expect(router.state.location.search).toBe("?members=true"));
    expect(router.state.location.pathname).toBe("/app/org/42");
    expect(window.localStorage.getItem("token")).toBe("fresh");
    expect(calls.filter((call) => call.url.pathname === "/api/v1/oneTimeAuth")).toHaveLength(1);
    expect(calls[0]?.url.searchParams.get("oneTimeToken")).toBe("once");
    await waitFor(() => expect(screen.getByTestId("account-name").textContent).toBe("Bluebird Dental"));
  });

  it("replaces an existing session with the one-time token's", async () => {
    storeTestSession("old");
    stubFetch({
      "GET /api/v1/oneTimeAuth": () => ({ success: true, id: 9, username: "invitee", token: "new" }),
      "GET /api/v1/account": () => fakeAccountView(),
    });
    renderAt("/app?oneTimeToken=x", null, { routes });
    await waitFor(() => expect(window.localStorage.getItem("token")).toBe("new"));
  });

  it("shows the server's message when the one-time token is refused", async () => {
    stubFetch({
      "GET /api/v1/oneTimeAuth": () =>
        json({ success: false, message: "Could not authenticate with token" }, 401),
    });
    renderAt("/app?oneTimeToken=used", null, { routes });
    expect(await screen.findByText("Could not authenticate with token")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe("/signin");
  });

  it("fails with Could not authenticate with token when the answer lacks the username", async () => {
    stubFetch({
      "GET /api/v1/oneTimeAuth": () =>
        offContract({ success: true, id: 1, token: "t" }, "the client refuses an answer without username"),
    });
    renderAt("/app?oneTimeToken=odd", null, { routes });
    expect(await screen.findByText("Could not authenticate with token")).toBeTruthy();
    expect(window.localStorage.getItem("token")).toBeNull();
  });

  it("says No auth token provided for an empty one-time token", async () => {
    stubFetch({});
    renderAt("/app?oneTimeToken=", null, { routes });
    expect(await screen.findByText("No auth token provided")).toBeTruthy();
  });

  it("says Unable to authenticate user for a mobile hand-off lacking cloudId", async () => {
    stubFetch({});
    renderAt("/app?mobileApp=true&token=t&username=u", null, { routes });
    expect(await screen.findByText("Unable to authenticate user")).toBeTruthy();
  });

  it("takes a complete mobile hand-off", async () => {
    stubFetch({ "GET /api/v1/account": () => fakeAccountView() });
    const { router } = renderAt("/app?mobileApp=true&token=mob&cloudId=42&username=bluebird", null, {
      routes,
    });
    await waitFor(() => expect(router.state.location.search).toBe("?mobileApp=true"));
    expect(window.localStorage.getItem("token")).toBe("mob");
    expect(window.localStorage.getItem("id")).toBe("42");
  });

  it("replaces a stored viewing-as value the rank does not permit", async () => {
    signInAs(fakeAccountView({ role: "admin" }));
    saveViewingAs("superAdmin");
    renderAt("/app", null, { routes });
    await screen.findByRole("heading", { name: "Dashboard", level: 1 });
    await waitFor(() => expect(window.localStorage.getItem("viewingAs")).toBe("admin"));
  });
});

describe("permission-gated menu", () => {
  // The test's viewport is a phone's: the sidebar's links are drawn once it is opened.
  const names = () => {
    const burger = screen.getByRole("button", { name: "Open navigation" });
    if (burger.getAttribute("aria-expanded") !== "true") fireEvent.click(burger);
    return within(screen.getByRole("navigation", { name: "Product areas" }))
      .getAllByRole("link")
      .map((link) => link.textContent);
  };

  it("an organisation admin sees no billing items", async () => {
    signInAs(
      fakeAccountView({
        role: "admin",
        permissions: permissions(
          (flag) =>
            ![
              "canViewBilling",
              "canManageBilling",
              "canDeleteOrg",
              "canDeactivateOrg",
              "canInspectJSON",
            ].includes(flag),
        ),
      }),
    );
    renderAt("/app", null, { routes });
    await screen.findByRole("heading", { name: "Dashboard", level: 1 });
    expect(names()).not.toContain("Billing");
    expect(names()).not.toContain("Wallet");
    expect(names()).toContain("Tasks");
  });

  it("hides Tasks without canViewTasks and Accounts on an agent account", async () => {
    signInAs(
      fakeAccountView({
        account: fakeAccount({ id: 50, accountType: "agent" }),
        permissions: permissions((flag) => flag !== "canViewTasks"),
      }),
    );
    renderAt("/app/agent/50", null, { routes });
    await screen.findByRole("heading", { name: "Dashboard", level: 1 });
    expect(names()).not.toContain("Tasks");
    expect(names()).not.toContain("Accounts");
    expect(names()).toContain("Billing");
  });

  it("shows an area the flags close as not available", async () => {
    signInAs(fakeAccountView({ permissions: permissions((flag) => flag !== "canViewBilling") }));
    renderAt("/app/billing", null, { routes });
    expect(await screen.findByText("This area is not available for the account in view.")).toBeTruthy();
  });
});

describe("the user menu", () => {
  it("logs out from the menu", async () => {
    const calls = signInAs(fakeAccountView());
    renderAt("/app", null, { routes });
    await screen.findByRole("heading", { name: "Dashboard", level: 1 });
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: /user menu$/ }));
    });
    const logoutItem = await screen.findByRole("menuitem", { name: "Log out" });
    expect(screen.getByRole("menuitem", { name: "Settings" })).toBeTruthy();
    await act(async () => {
      fireEvent.click(logoutItem);
    });
    await waitFor(() => expect(assigned).toEqual(["/app"]));
    const logouts = calls.filter((call) => call.url.pathname === "/api/v1/logout");
    expect(logouts.map((call) => call.url.searchParams.get("everywhere"))).toEqual([null]);
    expect(window.localStorage.getItem("token")).toBeNull();
  });

  it("signs out everywhere from the settings", async () => {
    const calls = signInAs(fakeAccountView());
    renderAt("/app?settings=true", null, { routes });
    // The settings overlay is a lazy chunk: a busy machine takes a while to load it.
    const everywhere = await screen.findByRole(
      "button",
      { name: "Sign out everywhere" },
      { timeout: withinMs(10_000) },
    );
    await act(async () => {
      fireEvent.click(everywhere);
    });
    await waitFor(() => expect(assigned).toEqual(["/app"]));
    const logouts = calls.filter((call) => call.url.pathname === "/api/v1/logout");
    expect(logouts.map((call) => call.url.searchParams.get("everywhere"))).toEqual(["true"]);
    expect(window.localStorage.getItem("token")).toBeNull();
  });

  it("offers View as only when more than one value is allowed", async () => {
    signInAs(fakeAccountView({ allowedViewingAs: ["admin"] }));
    renderAt("/app", null, { routes });
    await screen.findByRole("heading", { name: "Dashboard", level: 1 });
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: /user menu$/ }));
    });
    await screen.findByRole("menuitem", { name: "Log out" });
    expect(screen.queryByRole("menuitem", { name: "View as…" })).toBeNull();
  });
});

vi.setConfig({ testTimeout: withinMs(15_000) });

import { fireEvent, screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { fakeAccount, fakeAccountView, signInAs } from "../test/accounts.ts";
import { routes } from "../test/app-routes.ts";
import { renderAt } from "../test/render.tsx";

describe("the /app shell", () => {
  beforeEach(() => {
    signInAs((call) => {
      const id = Number(call.url.searchParams.get("targetAccountId") ?? 42);
      return fakeAccountView({ account: fakeAccount({ id, organizationId: id }) });
    });
  });

  it("shows the header and every product area, landing on the dashboard", async () => {
    renderAt("/app", null, { routes });
    expect(await screen.findByRole("heading", { name: "Dashboard", level: 1 })).toBeTruthy();
    expect(screen.getByText("Switchboard")).toBeTruthy();
    expect(screen.getByTestId("account-name").textContent).toBe("Bluebird Dental");
    expect(screen.getByTestId("account-type").textContent).toBe("Organization");
    expect(screen.getByRole("button", { name: "Help" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Dark theme" })).toBeTruthy();
    // The test's viewport is a phone's: the folded sidebar draws its links when it first opens.
    const nav = screen.getByRole("navigation", { name: "Product areas" });
    expect(within(nav).queryAllByRole("link")).toHaveLength(0);
    fireEvent.click(screen.getByRole("button", { name: "Open navigation" }));
    const links = within(nav).getAllByRole("link");
    expect(links.map((link) => link.textContent)).toEqual([
      "Dashboard",
      "Accounts",
      "Agents",
      "Inbox",
      "Contacts",
      "Calls",
      "Tasks",
      "Knowledge base",
      "Numbers",
      "Developers",
      "Billing",
      "Wallet",
      "Settings",
    ]);
    expect(within(nav).getByRole("link", { name: "Dashboard" }).getAttribute("aria-current")).toBe("page");
  });

  it("keeps the account segment in the sidebar links", async () => {
    renderAt("/app/org/42/inbox", null, { routes });
    expect(await screen.findByRole("heading", { name: "Inbox", level: 1 })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Open navigation" }));
    const nav = screen.getByRole("navigation", { name: "Product areas" });
    expect(within(nav).getByRole("link", { name: "Settings" }).getAttribute("href")).toBe(
      "/app/org/42/settings",
    );
    expect(within(nav).getByRole("link", { name: "Inbox" }).getAttribute("aria-current")).toBe("page");
  });

  it("hides the chrome when embedded", async () => {
    renderAt("/app/logs?appEmbed=1", null, { routes });
    expect(await screen.findByRole("heading", { name: "Calls", level: 1 })).toBeTruthy();
    expect(screen.queryByRole("navigation", { name: "Product areas" })).toBeNull();
    expect(screen.queryByRole("banner")).toBeNull();
  });

  it("shows Not found for an unknown area and an unknown path", async () => {
    renderAt("/app/org/42/nothing-here", null, { routes });
    expect(await screen.findByRole("heading", { name: "Page not found" })).toBeTruthy();
    expect(screen.getByRole("navigation", { name: "Product areas" })).toBeTruthy();
  });

  it("shows Not found bare outside /app", async () => {
    renderAt("/elsewhere", null, { routes });
    expect(await screen.findByRole("heading", { name: "Page not found" })).toBeTruthy();
    expect(screen.queryByRole("navigation", { name: "Product areas" })).toBeNull();
  });

  it("redirects / to /app", async () => {
    const { router } = renderAt("/?appEmbed=1", null, { routes });
    expect(await screen.findByRole("heading", { name: "Dashboard", level: 1 })).toBeTruthy();
    expect(router.state.location.pathname).toBe("/app");
    expect(router.state.location.search).toBe("?appEmbed=1");
  });

  it("serves the mobile start page bare", async () => {
    renderAt("/mobile/start", null, { routes });
    expect(
      await screen.findByText("You are signed out. Sign in again from the app to continue."),
    ).toBeTruthy();
    expect(screen.queryByRole("navigation", { name: "Product areas" })).toBeNull();
  });

  it("records the mobile-app flags for the session on any page", async () => {
    renderAt("/app/inbox?mobileApp=true&platform=Android&appVersion=5.0", null, { routes });
    expect(await screen.findByRole("heading", { name: "Inbox", level: 1 })).toBeTruthy();
    expect(JSON.parse(window.sessionStorage.getItem("mobileApp") ?? "null")).toEqual({
      isMobileApp: true,
      genericBrand: false,
      appVersion: "5.0",
      platform: "Android",
    });
  });
});

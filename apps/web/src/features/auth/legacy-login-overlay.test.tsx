import { screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { within as withinMs } from "../../../../../vitest.time-limits.ts";
import { json, signInAs } from "../../test/accounts.ts";
import { routes } from "../../test/app-routes.ts";
import { renderAt } from "../../test/render.tsx";

const LOAD = { timeout: withinMs(15_000) };

beforeEach(() => window.localStorage.clear());

describe("legacyLogin: a sign-in link of the earlier app says what happened", () => {
  it("without a token: No auth token provided, and who is still signed in", async () => {
    const calls = signInAs();
    renderAt("/app?legacyLogin=true", null, { routes });
    const dialog = await screen.findByRole("dialog", { name: "Sign-in link" }, LOAD);
    expect(await within(dialog).findByText("No auth token provided", {}, LOAD)).toBeTruthy();
    expect(within(dialog).getByText("owner@bluebird.example")).toBeTruthy();
    expect(calls.some((c) => c.url.pathname === "/api/v1/oneTimeAuth")).toBe(false);
  });

  it("a refused token: Could not authenticate with token; the session stays", async () => {
    signInAs(undefined, {
      "GET /api/v1/oneTimeAuth": () =>
        json({ success: false, message: "Could not authenticate with token" }, 401),
    });
    renderAt("/app?legacyLogin=old-link-token", null, { routes });
    const dialog = await screen.findByRole("dialog", { name: "Sign-in link" }, LOAD);
    expect(await within(dialog).findByText("Could not authenticate with token", {}, LOAD)).toBeTruthy();
    expect(within(dialog).getByText(/each sign-in link works once/)).toBeTruthy();
    expect(window.localStorage.getItem("token")).toBe("test-token");
  });

  it("an accepted token of another person: signed in as them, in a session of their own", async () => {
    const calls = signInAs(undefined, {
      "GET /api/v1/oneTimeAuth": () => ({
        success: true,
        id: 99,
        username: "northwind-resellers",
        token: "s_new-session",
      }),
    });
    renderAt("/app?legacyLogin=good-token", null, { routes });
    const dialog = await screen.findByRole("dialog", { name: "Sign-in link" }, LOAD);
    expect(await within(dialog).findByText("Signed in as northwind-resellers", {}, LOAD)).toBeTruthy();
    await waitFor(() => expect(window.localStorage.getItem("token")).toBe("s_new-session"));
    const exchange = calls.find((c) => c.url.pathname === "/api/v1/oneTimeAuth");
    expect(exchange?.url.searchParams.get("oneTimeToken")).toBe("good-token");
  });
});

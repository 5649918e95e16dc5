import { ACCESS_MESSAGES } from "@switchboard/api";
import { fireEvent, screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { within as withinMs } from "../../../../../vitest.time-limits.ts";
import { signInAs } from "../../test/accounts.ts";
import { routes } from "../../test/app-routes.ts";
import { renderAt } from "../../test/render.tsx";

const LOAD = { timeout: withinMs(15_000) };

beforeEach(() => window.localStorage.clear());

describe("requestAccess", () => {
  it("sends the request for text messaging and then says it is waiting for an answer", async () => {
    const calls = signInAs(undefined, {
      "GET /api/v1/requestAccess": () => ({
        success: true,
        feature: "sms",
        enabled: false,
        requestedAt: null,
      }),
      "POST /api/v1/requestAccess": () => ({
        success: true,
        feature: "sms",
        enabled: false,
        requestedAt: 1_764_000_000_000,
        message: ACCESS_MESSAGES.sent,
        sent: true,
      }),
    });
    renderAt("/app/inbox?requestAccess=sms", null, { routes });
    const dialog = await screen.findByRole("dialog", { name: "Request access" }, LOAD);
    expect(
      await within(dialog).findByText(/is not turned on for Bluebird Dental yet/, {}, LOAD),
    ).toBeTruthy();
    expect(within(dialog).queryByText(/cannot be sent/)).toBeNull();
    fireEvent.change(within(dialog).getByLabelText("What will you use it for? (optional)"), {
      target: { value: "Appointment reminders" },
    });
    fireEvent.click(within(dialog).getByRole("button", { name: "Send request" }));
    expect(await within(dialog).findByText(ACCESS_MESSAGES.sent, {}, LOAD)).toBeTruthy();
    const sent = calls.find((c) => c.method === "POST" && c.url.pathname === "/api/v1/requestAccess");
    expect(sent?.body).toEqual({ feature: "sms", message: "Appointment reminders" });
  });

  it("says when it was asked already, and offers no second request", async () => {
    signInAs(undefined, {
      "GET /api/v1/requestAccess": () => ({
        success: true,
        feature: "sms",
        enabled: false,
        requestedAt: Date.UTC(2026, 10, 20, 15, 0),
      }),
    });
    renderAt("/app/inbox?requestAccess=sms", null, { routes });
    const dialog = await screen.findByRole("dialog", { name: "Request access" }, LOAD);
    expect(
      await within(dialog).findByText(/You asked for text messaging on Nov 20, 2026/, {}, LOAD),
    ).toBeTruthy();
    expect(within(dialog).queryByRole("button", { name: "Send request" })).toBeNull();
  });
});

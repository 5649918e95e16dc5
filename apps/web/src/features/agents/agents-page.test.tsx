import { screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { within as withinMs } from "../../../../../vitest.time-limits.ts";
import { fakeAccount, signInAs } from "../../test/accounts.ts";
import { routes } from "../../test/app-routes.ts";
import { renderAt } from "../../test/render.tsx";

const LOAD = { timeout: withinMs(15_000) };

const agent = fakeAccount({
  id: 50,
  accountType: "agent",
  parentId: 42,
  username: "bluebird-front-desk",
  displayName: "Front Desk",
  details: { agentName: "Front Desk" },
  switchboardPhoneNumber: "+15035550100",
});

beforeEach(() => window.localStorage.clear());

/** Issue 32 item 22: the agents list shows numbers as the rest of the app does. */
describe("agents page", () => {
  it("shows each agent's number formatted, in its card and in the table", async () => {
    signInAs(undefined, {
      "GET /api/v2/listAccounts": () => ({
        success: true,
        accounts: [{ ...agent, type: "agent", agentName: "Front Desk", accountName: null }],
        totalAccounts: 1,
        page: 0,
        pageSize: 1,
      }),
    });
    renderAt("/app/agents", null, { routes });
    const favourites = await screen.findByRole("region", { name: "Favourites" }, LOAD);
    expect(within(favourites).getByText("+1 (503) 555-0100")).toBeTruthy();
    const all = screen.getByRole("region", { name: "All agents" });
    // In its column, and (shown on a phone instead) under the name.
    expect(within(all).getAllByText("+1 (503) 555-0100")).toHaveLength(2);
    expect(screen.queryByText("+15035550100")).toBeNull();
  });
});

import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { within as withinMs } from "../../../../../vitest.time-limits.ts";
import { type FetchCall, fakeAccount, fakeAccountView, signInAs } from "../../test/accounts.ts";
import { routes } from "../../test/app-routes.ts";
import { renderAt } from "../../test/render.tsx";

const LOAD = { timeout: withinMs(15_000) };

// jsdom has no scrolling; the overlays opened from the card (e.g. testAgent's chat) scroll their lists.
if (!Element.prototype.scrollTo) Element.prototype.scrollTo = () => {};
const NEW_ACCOUNT = 1_750_000_000_000;

/** Signs in to an organisation whose settings the server keeps (POST /api/v1/accountSetting merges). */
function serve(
  account: Partial<ReturnType<typeof fakeAccount>> = {},
  settings: Record<string, unknown> = {},
  newestAgent: number | null = null,
  agentNumber: string | null = null,
) {
  let stored = { ...settings };
  const calls = signInAs(
    () => fakeAccountView({ account: fakeAccount({ timestamp: NEW_ACCOUNT, ...account, settings: stored }) }),
    {
      "POST /api/v1/accountSetting": (call: FetchCall) => {
        stored = { ...stored, ...(call.body as { settings: Record<string, unknown> }).settings };
        return { success: true, settings: stored };
      },
      "GET /api/v2/templates": () => ({ success: true, templates: [] }),
      "GET /api/v2/listAccounts": () => ({
        success: true,
        accounts:
          newestAgent === null
            ? []
            : [
                {
                  ...fakeAccount({
                    id: newestAgent,
                    accountType: "agent",
                    switchboardPhoneNumber: agentNumber,
                  }),
                  type: "agent",
                  agentName: "Front Desk",
                  accountName: null,
                },
              ],
        totalAccounts: newestAgent === null ? 0 : 1,
        page: 0,
        pageSize: 1,
      }),
    },
  );
  const saves = () =>
    calls
      .filter((call) => call.url.pathname === "/api/v1/accountSetting")
      .map((call) => (call.body as { settings: Record<string, unknown> }).settings);
  return { calls, saves, stored: () => stored };
}

function card() {
  return screen.findByRole("region", { name: "Get your agent answering calls" }, LOAD);
}

describe("the walkthrough card", () => {
  it("a new organisation starts it (version 1), with setting up the agent first", async () => {
    const server = serve();
    renderAt("/app", null, { routes });
    const region = await card();
    expect(within(region).getByText("0 of 4 steps done")).toBeTruthy();
    const items = within(region).getAllByRole("listitem");
    expect(items.map((item) => item.getAttribute("aria-label"))).toEqual([
      "Set up your agent",
      "Test your agent",
      "Add a phone number",
      "Forward your calls",
    ]);
    await waitFor(() => expect(server.saves()).toEqual([{ walkthrough: { version: 1, completed: [] } }]));
  });

  it("Build an agent opens the onboarding wizard", async () => {
    serve();
    const { router } = renderAt("/app", null, { routes });
    const region = await card();
    const item = within(region).getByRole("listitem", { name: "Set up your agent" });
    await act(async () => {
      fireEvent.click(within(item).getByRole("button", { name: "Build an agent" }));
    });
    expect(new URLSearchParams(router.state.location.search).get("onboard")).toBe("true");
    const wizard = await screen.findByRole("dialog", { name: "Build your agent" }, LOAD);
    expect(
      await within(wizard).findByRole("heading", { name: "Let's build your AI agent" }, LOAD),
    ).toBeTruthy();
    await waitFor(() =>
      expect(new URLSearchParams(router.state.location.search).get("activeStep")).toBe("WELCOME"),
    );
  });

  it("an account with a phone number has three steps done; forwarding opens its instructions", async () => {
    const server = serve({ switchboardPhoneNumber: "+15035550123" });
    const { router } = renderAt("/app", null, { routes });
    const region = await card();
    expect(within(region).getByText("3 of 4 steps done")).toBeTruthy();
    await waitFor(() =>
      expect(server.stored().walkthrough).toEqual({
        version: 1,
        completed: ["SETUP_AGENT", "TEST_AGENT", "ADD_NUMBER"],
      }),
    );
    const forward = within(region).getByRole("listitem", { name: "Forward your calls" });
    await act(async () => {
      fireEvent.click(within(forward).getByRole("button", { name: "See how" }));
    });
    expect(new URLSearchParams(router.state.location.search).get("forwardingInstructions")).toBe("true");
  });

  it("an organisation whose agent has a number has three steps done (the number is the agent's)", async () => {
    const server = serve({}, { walkthrough: { version: 1, completed: ["SETUP_AGENT"] } }, 91, "+15035550123");
    renderAt("/app", null, { routes });
    const region = await card();
    expect(await within(region).findByText("3 of 4 steps done", {}, LOAD)).toBeTruthy();
    await waitFor(() =>
      expect(server.stored().walkthrough).toEqual({
        version: 1,
        completed: ["SETUP_AGENT", "TEST_AGENT", "ADD_NUMBER"],
      }),
    );
  });

  it("a test message to the agent ticks Test your agent", async () => {
    const server = serve({}, { walkthrough: { version: 1, completed: ["SETUP_AGENT"] } }, 91);
    renderAt("/app?testAgent=91", null, { routes });
    const chat = await screen.findByRole("dialog", { name: "Test agent" }, LOAD);
    const box = await within(chat).findByRole("textbox", {}, LOAD);
    fireEvent.change(box, { target: { value: "Do you see children?" } });
    fireEvent.keyDown(box, { key: "Enter" });
    await waitFor(() =>
      expect(server.stored().walkthrough).toEqual({ version: 1, completed: ["SETUP_AGENT", "TEST_AGENT"] }),
    );
  });

  it("a completed onboarding marks setting up the agent done; test opens testAgent with the wizard's agent", async () => {
    serve(
      {},
      { onboarding: { onboardingComplete: true, agentId: 77 }, walkthrough: { version: 1, completed: [] } },
    );
    const { router } = renderAt("/app", null, { routes });
    const region = await card();
    expect(within(region).getByText("1 of 4 steps done")).toBeTruthy();
    const setup = within(region).getByRole("listitem", { name: "Set up your agent" });
    expect(within(setup).getByText("Done")).toBeTruthy();
    const test = within(region).getByRole("listitem", { name: "Test your agent" });
    await act(async () => {
      fireEvent.click(within(test).getByRole("button", { name: "Test your agent" }));
    });
    expect(new URLSearchParams(router.state.location.search).get("testAgent")).toBe("77");
  });

  it("without an agent of the wizard, testing opens testAgent with the organisation's newest agent", async () => {
    const { calls } = serve({}, { walkthrough: { version: 1, completed: ["SETUP_AGENT"] } }, 91);
    const { router } = renderAt("/app", null, { routes });
    const region = await card();
    const test = within(region).getByRole("listitem", { name: "Test your agent" });
    await waitFor(() =>
      expect(calls.some((call) => call.url.pathname === "/api/v2/listAccounts")).toBe(true),
    );
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    await act(async () => {
      fireEvent.click(within(test).getByRole("button", { name: "Test your agent" }));
    });
    expect(new URLSearchParams(router.state.location.search).get("testAgent")).toBe("91");
  });

  it("a step marked done is stored once in the completed list", async () => {
    const server = serve({}, { walkthrough: { version: 1, completed: ["SETUP_AGENT"] } });
    renderAt("/app", null, { routes });
    const region = await card();
    const number = within(region).getByRole("listitem", { name: "Add a phone number" });
    await act(async () => {
      fireEvent.click(within(number).getByRole("button", { name: "Mark as done: Add a phone number" }));
    });
    await waitFor(() =>
      expect(server.stored().walkthrough).toEqual({ version: 1, completed: ["SETUP_AGENT", "ADD_NUMBER"] }),
    );
    expect(await within(region).findByText("2 of 4 steps done")).toBeTruthy();
    expect(server.saves()).toHaveLength(1);
  });

  it("when every step is done it says so and still offers to build an agent", async () => {
    serve(
      {},
      {
        walkthrough: { version: 1, completed: ["SETUP_AGENT", "TEST_AGENT", "ADD_NUMBER", "FORWARD_CALLS"] },
      },
    );
    renderAt("/app", null, { routes });
    const region = await screen.findByRole("region", { name: "Your setup is complete" }, LOAD);
    expect(within(region).getByRole("button", { name: "Build an agent" })).toBeTruthy();
  });
});

vi.setConfig({ testTimeout: withinMs(30_000) });

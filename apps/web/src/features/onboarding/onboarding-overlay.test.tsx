import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { within as withinMs } from "../../../../../vitest.time-limits.ts";
import { fakeAccount, fakeAccountView, json, permissions, signInAs } from "../../test/accounts.ts";
import { routes } from "../../test/app-routes.ts";
import { fakeCampaign } from "../../test/campaign.ts";
import { renderAt } from "../../test/render.tsx";

const LOAD = { timeout: withinMs(15_000) };

const restaurant = {
  id: 3,
  name: "Restaurant reservations",
  ownerAccountId: null,
  builtIn: true,
  editable: false,
  description: "Takes table reservations.",
  agentInstructions: "You take reservations for {restaurantName}.",
  templateFields: [
    { key: "restaurantName", label: "Restaurant name", type: "string" },
    { key: "hours", label: "Opening hours", type: "string", value: "Tue-Sun 5pm-10pm" },
  ],
  templateIntegrations: ["calendar"],
  actions: [{ name: "schedule" }],
  apps: [],
  enabledFunctions: {},
  confirmTransfers: false,
  greeting: null,
  revision: 1,
  createdAt: 0,
  updatedAt: 0,
};

function params(search: string) {
  return new URLSearchParams(search);
}

describe("the onboarding wizard", () => {
  it("without the full editor it opens on the template gallery; a template leads to its first question", async () => {
    signInAs(fakeAccountView({ permissions: permissions((flag) => flag !== "canUseFullEditor") }), {
      "GET /api/v2/templates": () => ({ success: true, templates: [restaurant] }),
    });
    const { router } = renderAt("/app?onboard=true", null, { routes });
    const wizard = await screen.findByRole("dialog", { name: "Build your agent" }, LOAD);
    expect(await within(wizard).findByRole("heading", { name: "Choose a template" }, LOAD)).toBeTruthy();
    expect(within(wizard).queryByRole("button", { name: "Back" })).toBeNull();
    await waitFor(() =>
      expect(params(router.state.location.search).get("activeStep")).toBe("SELECT_TEMPLATE"),
    );

    const card = await within(wizard).findByRole("article", { name: "Restaurant reservations" }, LOAD);
    expect(within(card).getByText("2 questions · works with Calendar")).toBeTruthy();
    await act(async () => {
      fireEvent.click(within(card).getByRole("button", { name: "Use this template" }));
    });
    const name = await within(wizard).findByLabelText("Restaurant name");
    expect(params(router.state.location.search).get("activeStep")).toBe("SETUP_TEMPLATE");
    expect(params(router.state.location.search).get("fieldIndex")).toBe("0");
    expect(within(wizard).getByRole("button", { name: "Next" }).hasAttribute("disabled")).toBe(true);

    await act(async () => {
      fireEvent.change(name, { target: { value: "Luigi's" } });
    });
    // Local storage holds the answer at once.
    const saved = JSON.parse(window.localStorage.getItem("onboarding") ?? "{}");
    expect(saved).toMatchObject({
      method: "BUILD_FROM_TEMPLATE",
      templateId: "3",
      activeStep: "SETUP_TEMPLATE",
    });
    expect(saved.templateFields[0].value).toBe("Luigi's");

    await act(async () => {
      fireEvent.click(within(wizard).getByRole("button", { name: "Next" }));
    });
    expect((await within(wizard).findByLabelText("Opening hours")).getAttribute("value")).toBe(
      "Tue-Sun 5pm-10pm",
    );
    expect(params(router.state.location.search).get("fieldIndex")).toBe("1");
  });

  it("resumes the saved step named in the address", async () => {
    window.localStorage.setItem(
      "onboarding",
      JSON.stringify({
        method: "BUILD_FROM_TEMPLATE",
        templateId: "3",
        templateFields: restaurant.templateFields,
        templateIntegrations: ["calendar"],
        activeStep: "SELECT_VOICE",
        updatedAt: 1_750_000_000,
      }),
    );
    signInAs(fakeAccountView(), {
      "GET /api/v2/templates": () => ({ success: true, templates: [restaurant] }),
    });
    renderAt("/app?onboard=true&activeStep=agentVoice", null, { routes });
    const wizard = await screen.findByRole("dialog", { name: "Build your agent" }, LOAD);
    expect(
      await within(wizard).findByRole("heading", { name: "Choose your agent's voice" }, LOAD),
    ).toBeTruthy();
    expect(within(wizard).getByTestId("onboarding-progress").textContent).toBe("Step 6 of 11 · Voice");
  });

  it("the number step confirms the number the agent has, and goes on rather than offering a skip", async () => {
    window.localStorage.setItem(
      "onboarding",
      JSON.stringify({
        method: "BUILD_FROM_SCRATCH",
        activeStep: "CHOOSE_NUMBER",
        agentId: 77,
        updatedAt: 1_750_000_000,
      }),
    );
    signInAs(fakeAccountView(), {
      "GET /api/v2/templates": () => ({ success: true, templates: [] }),
      "GET /api/v2/listAccounts": () => ({
        success: true,
        accounts: [
          {
            ...fakeAccount({ id: 77, accountType: "agent", switchboardPhoneNumber: "+15035550123" }),
            type: "agent",
            agentName: "Front Desk",
            accountName: null,
          },
        ],
        totalAccounts: 1,
        page: 0,
        pageSize: 1,
      }),
    });
    renderAt("/app?onboard=true&activeStep=chooseNumber", null, { routes });
    const wizard = await screen.findByRole("dialog", { name: "Build your agent" }, LOAD);
    expect(await within(wizard).findByRole("heading", { name: "Get a phone number" }, LOAD)).toBeTruthy();
    const confirmed = await within(wizard).findByRole("status", {}, LOAD);
    expect(confirmed.textContent).toContain("Callers reach it on +1 (503) 555-0123.");
    expect(within(wizard).getByRole("button", { name: "Choose another number" })).toBeTruthy();
    expect(within(wizard).getByRole("button", { name: "Next" })).toBeTruthy();
    expect(within(wizard).queryByRole("button", { name: "Skip for now" })).toBeNull();
  });

  it("the gallery shows the server's message when templates fail, and says when there are none", async () => {
    let fail = true;
    signInAs(fakeAccountView(), {
      "GET /api/v2/templates": () =>
        fail
          ? json({ success: false, message: "Templates are resting" }, 500)
          : { success: true, templates: [] },
    });
    renderAt("/app?onboard=true&activeStep=templates", null, { routes });
    const wizard = await screen.findByRole("dialog", { name: "Build your agent" }, LOAD);
    expect(await within(wizard).findByText("Templates are resting", {}, LOAD)).toBeTruthy();
    fail = false;
    await act(async () => {
      fireEvent.click(within(wizard).getByRole("button", { name: "Try again" }));
    });
    expect(
      await within(wizard).findByText("No templates are available for this account yet.", {}, LOAD),
    ).toBeTruthy();
    expect(within(wizard).getByRole("button", { name: "Build from scratch instead" })).toBeTruthy();
  });
  it("from scratch: the description becomes the instructions of a new agent account, then time zone and voice", async () => {
    const campaign = (fields: Record<string, unknown>) =>
      fakeCampaign({ id: 51, agentId: 51, agentInstructions: "", published: false, ...fields });
    const calls = signInAs(fakeAccountView(), {
      "GET /api/v2/templates": () => ({ success: true, templates: [] }),
      "POST /api/v2/agent/generate": (call) => ({
        success: true,
        agentInstructions: (call.body as { description: string }).description,
        greeting: null,
        model: "Sandbox model",
      }),
      "POST /api/v2/createAccount": () => ({
        success: true,
        account: {
          ...fakeAccountView().account,
          id: 51,
          accountType: "agent",
          type: "agent",
          agentName: "Pip",
          accountName: null,
        },
      }),
      "POST /api/v2/campaign": (call) => ({
        success: true,
        campaign: campaign(call.body as Record<string, unknown>),
      }),
      "POST /api/v2/agent/publish": () => ({
        success: true,
        agentId: 51,
        staging: campaign({ agentInstructions: "Answer for Pip's Plumbing.", published: true }),
        production: campaign({ stage: "production", agentInstructions: "Answer for Pip's Plumbing." }),
      }),
    });
    const { router } = renderAt("/app?onboard=true", null, { routes });
    const wizard = await screen.findByRole("dialog", { name: "Build your agent" }, LOAD);
    await act(async () => {
      fireEvent.click(await within(wizard).findByRole("button", { name: "Build from scratch" }, LOAD));
    });
    expect(params(router.state.location.search).get("activeStep")).toBe("GENERATE_AGENT");
    await act(async () => {
      fireEvent.click(within(wizard).getByRole("button", { name: "Create my agent" }));
    });
    expect(within(wizard).getByText("Please enter a prompt.")).toBeTruthy();
    expect(within(wizard).getByText("Enter a name.")).toBeTruthy();
    await act(async () => {
      fireEvent.change(within(wizard).getByLabelText("Agent name"), { target: { value: "Pip" } });
      fireEvent.change(within(wizard).getByLabelText("What should your agent do?"), {
        target: { value: "Answer for Pip's Plumbing." },
      });
    });
    await act(async () => {
      fireEvent.click(within(wizard).getByRole("button", { name: "Create my agent" }));
    });
    expect(
      await within(wizard).findByRole("heading", { name: "Which time zone is your business in?" }, LOAD),
    ).toBeTruthy();
    const bodies = calls
      .filter((call) => call.method === "POST" && call.url.pathname.startsWith("/api/v2/"))
      .map((call) => [call.url.pathname, call.body]);
    expect(bodies).toEqual([
      [
        "/api/v2/agent/generate",
        {
          method: "BUILD_FROM_SCRATCH",
          agentName: "Pip",
          description: "Answer for Pip's Plumbing.",
          fields: [],
        },
      ],
      ["/api/v2/createAccount", { name: "Pip" }],
      [
        "/api/v2/campaign",
        { agentId: 51, agentInstructions: "Answer for Pip's Plumbing.", published: false },
      ],
      ["/api/v2/agent/publish", { agentId: 51, revision: 1 }],
    ]);
    expect(JSON.parse(window.localStorage.getItem("onboarding") ?? "{}")).toMatchObject({
      method: "BUILD_FROM_SCRATCH",
      agentId: 51,
      activeStep: "SELECT_TIMEZONE",
    });
  });
});

vi.setConfig({ testTimeout: withinMs(30_000) });

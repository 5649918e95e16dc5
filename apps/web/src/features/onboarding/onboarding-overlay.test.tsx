import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { routes } from "../../app/router.tsx";
import { fakeAccountView, json, permissions, signInAs } from "../../test/accounts.ts";
import { renderAt } from "../../test/render.tsx";

const LOAD = { timeout: 15_000 };

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
});

vi.setConfig({ testTimeout: 30_000 });

import type { APIRequestContext, Page } from "@playwright/test";
import { checkA11y, DEMO, expect, rootSession, signInAs, signUpOwner, test, within } from "./helpers.ts";

// The agent builder in the browser (issue 5): the agents list, the editor's auto-save and publish,
// versions, and two people editing one agent at once.

/** A fresh agent of the demo organisation, so that parallel journeys never edit the same one. */
async function createAgent(request: APIRequestContext, name: string, instructions: string): Promise<number> {
  const token = encodeURIComponent(await rootSession(request, DEMO.owner));
  const created = await request.post(`/api/v2/createAccount?token=${token}`, { data: { name } });
  expect(created.ok(), await created.text()).toBe(true);
  const agentId = ((await created.json()) as { account: { id: number } }).account.id;
  const saved = await request.post(`/api/v2/campaign?token=${token}`, {
    data: { agentId, agentInstructions: instructions, greeting: "Hello!" },
  });
  expect(saved.ok(), await saved.text()).toBe(true);
  return agentId;
}

function uniqueName(prefix: string): string {
  return `${prefix} ${Math.random().toString(36).slice(2, 7)}`;
}

function editor(page: Page) {
  return page.getByRole("dialog", { name: "Edit agent" });
}

async function openEditor(page: Page, agentId: number, panel = "") {
  await signInAs(page, DEMO.owner, `/app/agents?editAgent=${agentId}${panel ? `/${panel}` : ""}`);
  await expect(editor(page).getByTestId("agent-editor")).toBeVisible();
}

function instructions(page: Page) {
  return editor(page).getByRole("textbox", { name: "Instructions" });
}

test("the owner edits the prompt, sees it save on its own, and publishes it", async ({ page }) => {
  const name = uniqueName("Reception");
  const agentId = await createAgent(page.request, name, "You answer calls for Bluebird Dental.");
  await signInAs(page, DEMO.owner, "/app/agents");
  const row = page.getByRole("table", { name: "All agents" }).getByRole("row", { name: new RegExp(name) });
  await row.getByRole("button", { name: "Edit" }).click();
  await expect(editor(page).getByRole("heading", { name })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`editAgent=${agentId}`));

  await instructions(page).fill("You answer calls for Bluebird Dental. We open at 8 am.");
  await expect(editor(page).getByTestId("save-status")).toHaveText("Unsaved changes");
  await expect(editor(page).getByText("Not published yet")).toBeVisible();
  await expect(editor(page).getByTestId("save-status")).toHaveText("All changes saved", {
    timeout: within(6000),
  });

  await page.reload();
  await expect(instructions(page)).toHaveValue("You answer calls for Bluebird Dental. We open at 8 am.");

  await editor(page).getByRole("button", { name: "Publish", exact: true }).click();
  await expect(editor(page).getByText("Published", { exact: true })).toBeVisible({ timeout: within(8000) });
  const token = encodeURIComponent(await rootSession(page.request, DEMO.owner));
  const live = await page.request.get(`/api/v2/campaigns?token=${token}&agentId=${agentId}`);
  const { production } = (await live.json()) as { production: { agentInstructions: string } | null };
  expect(production?.agentInstructions).toBe("You answer calls for Bluebird Dental. We open at 8 am.");

  await instructions(page).fill("You answer calls for Bluebird Dental. We open at 9 am.");
  await expect(editor(page).getByText("Unpublished changes")).toBeVisible();
});

test("every panel of the editor's navigation shows in full, Settings last", async ({ page }) => {
  // Issue #23 item 11: the navigation was capped at 70% of the height and cut Settings off.
  await page.setViewportSize({ width: 1280, height: 800 });
  const agentId = await createAgent(page.request, uniqueName("Nav"), "You answer calls.");
  await openEditor(page, agentId);
  const nav = editor(page).getByRole("navigation", { name: "Agent editor panels" });
  const settings = nav.getByText("Settings", { exact: true });
  await expect(settings).toBeInViewport({ ratio: 1 });
  await settings.click();
  await expect(page).toHaveURL(new RegExp(`editAgent=${agentId}%2Fsettings|editAgent=${agentId}/settings`));
});

test("saving the agent's settings shows the saved state beside the button", async ({ page }) => {
  // Issue #23 item 11: a save was confirmed only by a 1-second toast.
  const agentId = await createAgent(page.request, uniqueName("Saved"), "You answer calls.");
  await openEditor(page, agentId, "settings");
  const form = editor(page).getByRole("region", { name: "Settings" });
  await form.getByRole("textbox", { name: "Account name" }).fill("Front line");
  await expect(form.getByTestId("saved-note")).toHaveCount(0);
  await form.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Agent settings saved.")).toBeVisible();
  await expect(page.getByText("Agent settings saved.")).toBeHidden();
  await expect(form.getByTestId("saved-note")).toHaveText(/Saved at/);
  // Edited again: no longer saved.
  await form.getByRole("textbox", { name: "Account name" }).fill("Front line 2");
  await expect(form.getByTestId("saved-note")).toHaveCount(0);
});

test("an empty prompt is refused with the spec's message", async ({ page }) => {
  const agentId = await createAgent(page.request, uniqueName("Empty"), "Say hello.");
  await openEditor(page, agentId);
  await instructions(page).fill("");
  await expect(editor(page).getByText("Please enter a prompt.")).toBeVisible({ timeout: within(4000) });
  await expect(editor(page).getByTestId("save-status")).toHaveText("Not saved");
});

test("the owner makes a version, changes the prompt, and restores the version", async ({ page }) => {
  const agentId = await createAgent(page.request, uniqueName("Versioned"), "Original instructions.");
  await openEditor(page, agentId, "versions");
  await editor(page).getByRole("textbox", { name: "New version" }).fill("Before the change");
  await editor(page).getByRole("button", { name: "Make a version" }).click();
  const versions = editor(page).getByRole("table", { name: "Versions" });
  await expect(versions.getByRole("row", { name: /Before the change/ })).toBeVisible();

  await editor(page).getByRole("navigation", { name: "Agent editor panels" }).getByText("Prompt").click();
  await instructions(page).fill("Changed instructions.");
  await expect(editor(page).getByTestId("save-status")).toHaveText("All changes saved", {
    timeout: within(6000),
  });

  await editor(page).getByRole("navigation", { name: "Agent editor panels" }).getByText("Versions").click();
  await versions
    .getByRole("row", { name: /Before the change/ })
    .getByRole("button", { name: "Compare with draft" })
    .click();
  const compare = page.getByRole("dialog", { name: "Compare changes" });
  await expect(compare.getByTestId("change-agentInstructions")).toContainText("Original instructions.");
  await expect(compare.getByTestId("change-agentInstructions")).toContainText("Changed instructions.");
  await compare.getByRole("button", { name: "Close" }).click();

  await versions
    .getByRole("row", { name: /Before the change/ })
    .getByRole("button", { name: "Restore" })
    .click();
  await page
    .getByRole("dialog", { name: /Restore/ })
    .getByRole("button", { name: "Restore" })
    .click();
  await editor(page).getByRole("navigation", { name: "Agent editor panels" }).getByText("Prompt").click();
  await expect(instructions(page)).toHaveValue("Original instructions.");
});

test("two people edit the same agent: the second sees the save conflict and keeps their changes", async ({
  browser,
}) => {
  const first = await browser.newContext();
  const second = await browser.newContext();
  try {
    const alice = await first.newPage();
    const bob = await second.newPage();
    const agentId = await createAgent(alice.request, uniqueName("Shared"), "Shared instructions.");
    await openEditor(alice, agentId);
    await openEditor(bob, agentId);

    await instructions(alice).fill("Alice's instructions.");
    await expect(editor(alice).getByTestId("save-status")).toHaveText("All changes saved", {
      timeout: within(6000),
    });

    await instructions(bob).fill("Bob's instructions.");
    const conflict = bob.getByRole("dialog", { name: "Save conflict" });
    await expect(conflict).toBeVisible({ timeout: within(6000) });
    await expect(conflict).toContainText("This agent was changed elsewhere.");
    await conflict.getByRole("button", { name: "Compare changes" }).click();
    const compare = bob.getByRole("dialog", { name: "Compare changes" });
    await expect(compare.getByTestId("change-agentInstructions")).toContainText("Alice's instructions.");
    await expect(compare.getByTestId("change-agentInstructions")).toContainText("Bob's instructions.");
    await compare.getByRole("button", { name: "Close" }).click();

    await conflict.getByRole("button", { name: "Keep my changes" }).click();
    await expect(conflict).toBeHidden();
    await expect(editor(bob).getByTestId("save-status")).toHaveText("All changes saved");

    await alice.reload();
    await expect(instructions(alice)).toHaveValue("Bob's instructions.");
  } finally {
    await first.close();
    await second.close();
  }
});

test("favourites come first, and a new agent is made from a template", async ({ page }) => {
  const name = uniqueName("Starred");
  await createAgent(page.request, name, "Take messages.");
  await signInAs(page, DEMO.owner, "/app/agents");
  const all = page.getByRole("table", { name: "All agents" });
  await all.getByRole("button", { name: `Add ${name} to favourites` }).click();
  const favourites = page.getByRole("region", { name: "Favourites" });
  await expect(favourites.getByTestId("favorite-agent").first()).toContainText(name);

  await page.getByRole("button", { name: "New agent" }).click();
  const setup = page.getByRole("dialog", { name: "New agent" });
  await setup.getByText("Restaurant reservations").click();
  const agentName = uniqueName("Trattoria");
  await setup.getByRole("textbox", { name: "Agent name" }).fill(agentName);
  await setup.getByRole("button", { name: "Create agent" }).click();
  await expect(editor(page).getByRole("heading", { name: agentName })).toBeVisible();
  await editor(page).getByRole("navigation", { name: "Agent editor panels" }).getByText("Template").click();
  await expect(editor(page).getByText("Made from the template")).toContainText("Restaurant reservations");
});

test("a template made from an agent is edited, and its agents migrate after a dry-run preview", async ({
  page,
}) => {
  const agentId = await createAgent(page.request, uniqueName("Source"), "Greet callers of {business}.");
  const templateName = uniqueName("House style");
  await openEditor(page, agentId, "template");
  await editor(page).getByRole("button", { name: "Save as a new template" }).click();
  const create = page.getByRole("dialog", { name: "New template" });
  await create.getByRole("textbox", { name: "Template name" }).fill(templateName);
  await create.getByRole("button", { name: "Create template" }).click();
  await expect(create).toBeHidden();

  // An agent made from the new template, then a change to the template.
  const token = encodeURIComponent(await rootSession(page.request, DEMO.owner));
  const templates = await page.request.get(`/api/v2/templates?token=${token}`);
  const made = ((await templates.json()) as { templates: { id: number; name: string }[] }).templates.find(
    (template) => template.name === templateName,
  );
  expect(made, "the new template is listed").toBeTruthy();
  const child = await page.request.post(`/api/v2/createAgentFromTemplate?token=${token}`, {
    data: { templateId: made?.id, name: uniqueName("Child"), templateFields: { business: "Bluebird" } },
  });
  expect(child.ok(), await child.text()).toBe(true);
  const childId = ((await child.json()) as { account: { id: number } }).account.id;

  await page.goto("/app/agents");
  await page.getByRole("tab", { name: "Templates" }).click();
  const card = page.getByTestId("template-card").filter({ hasText: templateName });
  await card.getByRole("button", { name: "Edit" }).click();
  await card
    .getByRole("textbox", { name: "Template instructions" })
    .fill("Greet callers of {business} warmly.");
  await card.getByRole("button", { name: "Save template" }).click();
  await expect(card.getByRole("textbox", { name: "Template instructions" })).toBeHidden();

  await card.getByRole("button", { name: "Preview the migration" }).click();
  await expect(card.getByRole("list", { name: "Migration preview" })).toContainText(`Agent #${childId}`);
  await expect(card.getByRole("list", { name: "Migration preview" })).toContainText("agentInstructions");
  const before = await page.request.get(`/api/v2/campaigns?token=${token}&agentId=${childId}`);
  expect(
    ((await before.json()) as { staging: { agentInstructions: string } }).staging.agentInstructions,
  ).not.toContain("warmly");
  await card.getByRole("button", { name: /^Migrate 1 agent$/ }).click();
  await expect(card.getByRole("list", { name: "Migration preview" })).toBeHidden();
  const after = await page.request.get(`/api/v2/campaigns?token=${token}&agentId=${childId}`);
  expect(
    ((await after.json()) as { staging: { agentInstructions: string } }).staging.agentInstructions,
  ).toContain("warmly");
});

test("a new organization installs an app from an agent's Actions, enables its function and removes it", async ({
  page,
}) => {
  const email = await signUpOwner(page, `Harbour Plumbing ${Math.random().toString(36).slice(2, 6)}`, "apps");
  await expect(page.getByRole("dialog", { name: "Build your agent" })).toBeVisible();
  const token = encodeURIComponent(await rootSession(page.request, email));
  const created = await page.request.post(`/api/v2/createAccount?token=${token}`, {
    data: { name: "Dispatch" },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const agentId = ((await created.json()) as { account: { id: number } }).account.id;
  const prompt = await page.request.post(`/api/v2/campaign?token=${token}`, {
    data: { agentId, agentInstructions: "You take plumbing jobs for Harbour Plumbing.", greeting: "Hello!" },
  });
  expect(prompt.ok(), await prompt.text()).toBe(true);

  // A new organization has no apps: the Actions panel offers the catalogue's apps to install.
  await page.goto(`/app/agents?editAgent=${agentId}/actions`);
  await expect(editor(page).getByTestId("agent-editor")).toBeVisible();
  await expect(
    editor(page).getByText("No apps are installed for this organization yet: install one below."),
  ).toBeVisible();
  await editor(page).getByRole("button", { name: "Install Collect data" }).click();
  const app = page.getByRole("dialog", { name: "App" });
  await expect(app.getByText("Stores structured answers from the conversation")).toBeVisible();
  await expect(app.getByText("saveData")).toBeVisible();
  await checkA11y(page, "the install window of an app");
  await app.getByRole("button", { name: "Install", exact: true }).click();
  await expect(app.getByText("Installed", { exact: true })).toBeVisible();
  await expect(
    page.getByText("Collect data installed. Its functions are in every agent’s Actions."),
  ).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(app).toBeHidden();

  // Its function can be enabled for the agent; the app is no longer offered.
  const saveData = editor(page).getByRole("switch", { name: "saveData" });
  await saveData.check();
  await expect(saveData).toBeChecked();
  await expect(editor(page).getByTestId("save-status")).toHaveText("All changes saved", {
    timeout: within(6000),
  });
  await expect(editor(page).getByRole("button", { name: "Install Collect data" })).toHaveCount(0);
  const saved = await page.request.get(`/api/v2/campaigns?token=${token}&agentId=${agentId}`);
  const { staging } = (await saved.json()) as { staging: { enabledFunctions: Record<string, string[]> } };
  expect(staging.enabledFunctions["collect-data@1.0.0"]).toEqual(["saveData"]);

  // Removed again from its window: offered to install once more.
  await page.goto(`/app/agents?editAgent=${agentId}/actions&install=collect-data@1.0.0`);
  await app.getByRole("button", { name: "Remove" }).click();
  const ask = page.getByRole("dialog", { name: "Remove Collect data?" });
  await ask.getByRole("button", { name: "Remove" }).click();
  await expect(page.getByText("Collect data removed.")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(editor(page).getByRole("button", { name: "Install Collect data" })).toBeVisible();
});

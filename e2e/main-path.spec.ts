import type { Locator } from "@playwright/test";
import { expect, sidebar, signUpOwner, test } from "./helpers.ts";

// Issue #23 item 12: a fresh sign-up meets no "not built yet" screen on the main path. Where a feature has
// not landed (numbers, money, tasks, knowledge base), the screen says what it is for, what is missing and
// what to do instead, with a link that works.

const NOT_BUILT = /not built yet/i;

async function expectHonestScreen(scope: Locator) {
  await expect(scope.getByText("Not available yet")).toBeVisible();
  await expect(scope.getByText("What you can do now")).toBeVisible();
  await expect(scope.getByText(NOT_BUILT)).toHaveCount(0);
}

async function closeDialog(dialog: Locator) {
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
}

test("a fresh sign-up's main-path buttons never lead to a 'not built yet' screen", async ({ page }) => {
  test.slow();
  const business = `Main Path ${Date.now().toString(36)}`;
  await signUpOwner(page, business, "mainpath");
  // A new owner may be taken straight into the onboarding wizard: leave it for the dashboard.
  const wizard = page.getByRole("dialog", { name: "Build your agent" });
  if (await wizard.isVisible()) await closeDialog(wizard);

  // Every product area of the sidebar.
  const links = sidebar(page).getByRole("link");
  const labels = (await links.allTextContents()).map((label) => label.trim()).filter(Boolean);
  expect(labels).toEqual(expect.arrayContaining(["Inbox", "Numbers", "Knowledge base", "Developers"]));
  for (const label of labels) {
    await sidebar(page).getByRole("link", { name: label, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByText(NOT_BUILT), `the ${label} page`).toHaveCount(0);
  }

  // Inbox → New message: a new organisation is not premium, so it lands on the upgrade overlay.
  await sidebar(page).getByRole("link", { name: "Inbox" }).click();
  await page.getByRole("button", { name: "New message" }).click();
  const upgrade = page.getByRole("dialog", { name: "Upgrade to premium" });
  await expectHonestScreen(upgrade);
  await expect(upgrade.getByText("Plans and payments are not in Switchboard yet")).toBeVisible();
  // Its way forward works: the phone simulator under Developers.
  await upgrade.getByRole("link", { name: "Open the phone simulator" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Developers" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Phone simulator" })).toBeVisible();
  await expect(upgrade).toBeHidden();

  // The other overlays the main path opens: numbers, access to SMS, premium, plans, forwarding.
  const overlays: [query: string, title: string][] = [
    ["selectNumber=true", "Choose a phone number"],
    ["number=%2B15035550123", "Phone number"],
    ["requestAccess=sms", "Request access"],
    ["premium=true", "Premium"],
    ["selectPlan=true", "Choose a plan"],
    ["forwardingInstructions=true", "Forward your calls"],
  ];
  for (const [query, title] of overlays) {
    await page.goto(`/app/dashboard?${query}`);
    const dialog = page.getByRole("dialog", { name: title });
    await expectHonestScreen(dialog);
    await expect(
      dialog
        .getByRole("link")
        .or(dialog.getByRole("button", { name: /^(Test|Go|Open)/ }))
        .first(),
    ).toBeVisible();
  }

  // Without an agent named in its value, selectNumber's first way forward is the Agents page and its Test.
  await page.goto("/app/agents?selectNumber=true");
  const select = page.getByRole("dialog", { name: "Choose a phone number" });
  await select.getByRole("link", { name: "Test an agent" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Agents" })).toBeVisible();
});

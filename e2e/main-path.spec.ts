import type { Locator, Page } from "@playwright/test";
import { expect, sidebar, signUpOwner, test, within } from "./helpers.ts";

// Issue #23 item 12: a fresh sign-up meets no "not built yet" screen on the main path. Where a feature has
// not landed (numbers, money, tasks, knowledge base), the screen says what it is for, what is missing and
// what to do instead, with a link that works.

const NOT_BUILT = /not built yet/i;

async function closeDialog(dialog: Locator) {
  // A click during the modal's opening transition may be lost: press Close until it has gone.
  await expect(async () => {
    if (await dialog.isVisible())
      await dialog.getByRole("button", { name: "Close" }).click({ timeout: within(2_000) });
    await expect(dialog).toBeHidden({ timeout: within(2_000) });
  }).toPass({ timeout: within(15_000) });
}

/**
 * Opens a product area from the sidebar and waits until the address is its own (the heading alone was
 * still the last page's). A click that landed while the last page's chunk was loading is made again.
 */
async function openArea(page: Page, label: string) {
  const link = sidebar(page).getByRole("link", { name: label, exact: true });
  const href = (await link.getAttribute("href")) ?? "";
  await expect(async () => {
    await link.click();
    await expect(page).toHaveURL((url) => url.pathname === href, { timeout: within(5_000) });
  }).toPass({ timeout: within(30_000) });
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
}

test("a fresh sign-up's main-path buttons never lead to a 'not built yet' screen", async ({ page }) => {
  test.slow();
  const business = `Main Path ${Date.now().toString(36)}`;
  await signUpOwner(page, business, "mainpath");
  // A new owner is taken into the onboarding wizard (issue #23 item 11): leave it for the dashboard. Waited
  // for, not looked for once: the dialog's code is a chunk of its own and may still be on its way.
  const wizard = page.getByRole("dialog", { name: "Build your agent" });
  await expect(wizard).toBeVisible();
  await closeDialog(wizard);

  // Every product area of the sidebar.
  const links = sidebar(page).getByRole("link");
  const labels = (await links.allTextContents()).map((label) => label.trim()).filter(Boolean);
  expect(labels).toEqual(expect.arrayContaining(["Inbox", "Numbers", "Knowledge base", "Developers"]));
  for (const label of labels) {
    await openArea(page, label);
    await expect(page.getByText(NOT_BUILT), `the ${label} page`).toHaveCount(0);
  }

  // Inbox → New message: a new organisation is not premium, so it lands on the upgrade overlay.
  await openArea(page, "Inbox");
  await page.getByRole("button", { name: "New message" }).click();
  const upgrade = page.getByRole("dialog", { name: "Upgrade to premium" });
  // Plans are built: the premium plans to subscribe to (e2e/billing.spec.ts pays for one).
  await expect(upgrade.getByRole("button", { name: "Subscribe to Pro" })).toBeVisible({
    timeout: within(15_000),
  });
  await expect(upgrade.getByText(NOT_BUILT)).toHaveCount(0);
  await expect(upgrade.getByText("Not available yet")).toHaveCount(0);
  await closeDialog(upgrade);

  // The other overlays the main path opens. Numbers (selectNumber, number, forwardingInstructions) are
  // built now: they must show their own content.
  const built: [query: string, title: string][] = [
    ["selectNumber=true", "Choose a phone number"],
    ["number=%2B15035550123", "Phone number"],
    ["forwardingInstructions=true", "Forward your calls"],
    ["premium=true", "Premium"],
    ["selectPlan=true", "Choose a plan"],
  ];
  for (const [query, title] of built) {
    await page.goto(`/app/dashboard?${query}`);
    const dialog = page.getByRole("dialog", { name: title });
    await expect(dialog.getByRole("heading", { name: title })).toBeVisible({ timeout: within(15_000) });
    await expect(dialog.getByText(NOT_BUILT)).toHaveCount(0);
    await expect(dialog.getByText("Not available yet")).toHaveCount(0);
  }
  // Access to SMS is asked for from the app (issue 32 item 23): the request is sent, not a dead end.
  await page.goto("/app/dashboard?requestAccess=sms");
  const access = page.getByRole("dialog", { name: "Request access" });
  await expect(access.getByRole("button", { name: "Send request" })).toBeVisible({ timeout: within(15_000) });
  await expect(access.getByText(NOT_BUILT)).toHaveCount(0);
  await expect(access.getByText("Not available yet")).toHaveCount(0);
});

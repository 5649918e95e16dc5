import { DEMO, DEMO_NAMES, expect, findAccountId, signInAs, signUpOwner, test, within } from "./helpers.ts";

// Issue 32 item 10: one call read "1:15 PM" in Calls and "3:15:45 PM" in its transcript, and a new
// organisation's calls read in UTC. Every date and time is now in the account's zone, followed by the
// zone's abbreviation where it is not the browser's. The tester was in Chicago.
test.use({ timezoneId: "America/Chicago" });

/** "1:15 PM PST" at the end of a text: the time and the zone's abbreviation. */
const TIME_WITH_ZONE = /(\d{1,2}:\d{2}\s[AP]M) (P[SD]T)$/;

test("a call reads the same time in Calls and in its transcript, in the account's zone", async ({ page }) => {
  test.setTimeout(within(90_000));
  // The clinic's zone is Los Angeles; its owner is travelling in Chicago.
  await signInAs(page, DEMO.owner, "/app/settings");
  await expect(page.getByTestId("account-time-zone")).toContainText(
    "Dates and times are shown in America/Los_Angeles.",
  );

  await page.goto("/app/logs");
  const row = page.getByRole("table", { name: "Calls" }).locator("tbody tr").first();
  const when = row.getByRole("cell").filter({ hasText: TIME_WITH_ZONE }).first();
  await expect(when).toBeVisible({ timeout: within(20_000) });
  const rowText = ((await when.textContent()) ?? "").trim();
  const [, rowTime, rowZone] = TIME_WITH_ZONE.exec(rowText) ?? [];

  await row.getByRole("button", { name: "Transcript" }).click();
  const drawer = page.getByRole("dialog", { name: "Transcript" });
  // The transcript's start is the row's very text (date, time and zone), and its first turn the same time.
  await expect(drawer.getByText(rowText, { exact: true })).toBeVisible({ timeout: within(15_000) });
  await expect(drawer.getByText(`${rowTime} ${rowZone}`, { exact: true }).first()).toBeVisible();
});

test("a new organisation reads its times in the zone it signed up in, not UTC", async ({ page }) => {
  test.setTimeout(within(90_000));
  await signUpOwner(page, "Prairie Dental", "tz-owner");
  await page.goto("/app/settings");
  // The account's own zone is the browser's (Chicago): times carry no abbreviation, and none reads in UTC.
  await expect(page.getByTestId("account-time-zone")).toHaveText(
    "Dates and times are shown in America/Chicago.",
    { timeout: within(20_000) },
  );
});

test("a partner reads the clinic and its agent in the clinic's zone, not the browser's", async ({ page }) => {
  test.setTimeout(within(90_000));
  // The agent has no zone of its own and the partner none either: the agent reads in its organisation's.
  const orgId = await findAccountId(page.request, DEMO.partner, DEMO_NAMES.organization);
  const agentId = await findAccountId(page.request, DEMO.partner, "After Hours");
  await signInAs(page, DEMO.partner, `/app/agent/${agentId}/settings`);
  await expect(page.getByTestId("account-time-zone")).toContainText(
    "Dates and times are shown in America/Los_Angeles (its organisation's zone).",
    { timeout: within(20_000) },
  );
  await page.goto(`/app/org/${orgId}/settings`);
  await expect(page.getByTestId("account-time-zone")).toContainText(
    "Dates and times are shown in America/Los_Angeles.",
    { timeout: within(20_000) },
  );
});

import { DEMO, expect, rootSession, sidebar, signInAs, test, within } from "./helpers.ts";
import { layoutProblems } from "./layout.ts";

// Issue 32 items 23 and 14: the super admin reviews flagged calls of every tenant from Accounts, whose tab
// is kept in the address; an owner on their own organisation is not told they are "viewing as" anyone.

test("the super admin reviews flagged calls; the Accounts tab survives a reload", async ({ page }) => {
  const token = await rootSession(page.request, DEMO.superAdmin);
  const answer = await page.request.get(
    `/internal/fetchCallsForReview?token=${encodeURIComponent(token)}&adminToken=${encodeURIComponent(token)}&pageSize=20`,
  );
  expect(answer.ok()).toBe(true);
  const { calls } = (await answer.json()) as { calls: { accountName: string | null; reasons: string[] }[] };

  await signInAs(page, DEMO.superAdmin);
  await sidebar(page).getByRole("link", { name: "Accounts" }).click();
  await page.getByRole("tab", { name: "Calls for review" }).click();
  await expect(page).toHaveURL(/[?&]tab=review\b/);
  if (calls.length > 0) {
    const rows = page.getByTestId("review-row");
    await expect(rows).toHaveCount(calls.length);
    const first = calls[0] as { accountName: string | null; reasons: string[] };
    await expect(rows.first()).toContainText(first.accountName ?? "Organization");
    await expect(rows.first()).toContainText(first.reasons[0] ?? "");
  } else {
    await expect(page.getByText("No calls need a review")).toBeVisible();
  }

  await page.reload();
  await expect(page.getByRole("tab", { name: "Calls for review" })).toHaveAttribute("aria-selected", "true");
  await page.getByRole("tab", { name: "Organizations" }).click();
  await expect(page).toHaveURL(/[?&]tab=organizations\b/);
  await page.reload();
  await expect(page.getByRole("tab", { name: "Organizations" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("table", { name: "Organizations" })).toBeVisible();
});

test("an owner on their own organisation sees no Viewing as badge", async ({ page }) => {
  await signInAs(page, DEMO.owner, "/app/dashboard");
  await expect(page.getByTestId("account-name")).toHaveText("Bluebird Dental");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByTestId("viewing-as")).toHaveCount(0);
});

test("calls for review fit a 390 px phone", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAs(page, DEMO.superAdmin, "/app/accounts?tab=review");
  await expect(
    page.getByRole("table", { name: "Calls for review" }).or(page.getByText("No calls need a review")),
  ).toBeVisible({ timeout: within(15_000) });
  expect(await layoutProblems(page)).toEqual([]);
});

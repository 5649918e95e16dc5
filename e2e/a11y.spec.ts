import { checkA11y, DEMO, expect, signInAs, test, within } from "./helpers.ts";

// Accessibility (issue #23): axe's WCAG 2.1 A/AA rules find no serious or critical violation on the pages
// and overlays a user meets first — signed out, and as the organisation's owner on every area of the sidebar.

test("the sign-in and sign-up pages have no serious accessibility violation", async ({ page }) => {
  await page.goto("/signin");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await checkA11y(page, "sign-in");
  await page.goto("/signup");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await checkA11y(page, "sign-up");
});

// The sidebar's areas in three groups, each its own test: one area takes a browser seconds of axe alone.
const AREA_GROUPS = 3;
for (let group = 0; group < AREA_GROUPS; group++) {
  test(`the owner's areas have no serious accessibility violation (${group + 1} of ${AREA_GROUPS})`, async ({
    page,
  }) => {
    test.setTimeout(within(60_000));
    await signInAs(page, DEMO.owner, "/app");
    const links = page.getByRole("navigation").first().getByRole("link");
    const paths = new Set<string>();
    for (const href of await links.evaluateAll((anchors) => anchors.map((a) => a.getAttribute("href") ?? "")))
      if (href.startsWith("/app")) paths.add(href);
    expect(paths.size).toBeGreaterThan(5);
    const mine = [...paths].filter((_, index) => index % AREA_GROUPS === group);
    for (const path of mine) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
      // Let the area's lists load: axe checks what the user sees, not the loading skeleton.
      await expect(page.getByRole("status", { name: "Loading" })).toHaveCount(0);
      await expect(page.locator("main")).not.toContainText(/Loading…/);
      await checkA11y(page, path);
    }
  });
}

test("the agent editor and the new-agent flow have no serious accessibility violation", async ({ page }) => {
  await signInAs(page, DEMO.owner, "/app/agents");
  await page.getByRole("button", { name: /edit/i }).first().click();
  await expect(page.getByRole("dialog").first()).toBeVisible();
  await page.waitForLoadState("networkidle");
  await checkA11y(page, "edit agent");
  await page.goto("/app?onboard=true");
  await expect(page.getByRole("dialog", { name: "Build your agent" })).toBeVisible();
  await checkA11y(page, "onboarding");
});

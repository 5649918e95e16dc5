import { DEMO, expect, rootSession, signInAs, test, within } from "./helpers.ts";
import { layoutProblems } from "./layout.ts";

// Issue 32 item 23: the link page is edited in its own screens — editPage (the links, their order) and
// editPageProfile (what the top of the page shows) — and a visitor sees the result. The other overlays that
// said "not built yet" open real screens.

async function organizationUsername(request: Parameters<typeof rootSession>[0]): Promise<string> {
  const token = await rootSession(request, DEMO.owner);
  const response = await request.get(`/api/v1/account?token=${encodeURIComponent(token)}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { account: { username: string } }).account.username;
}

test("the owner edits the page's links and bio; a visitor sees them in order", async ({ page, browser }) => {
  test.setTimeout(within(90_000));
  await signInAs(page, DEMO.owner, "/app/settings");
  await expect(page.getByRole("heading", { name: "Public page" })).toBeVisible();
  const origin = new URL(page.url()).origin;
  const mark = Date.now().toString(36);

  await page.getByRole("button", { name: "Edit links" }).click();
  const editor = page.getByRole("dialog", { name: "Edit your page's links" });
  await expect(editor.getByRole("button", { name: "Add link" })).toBeVisible({ timeout: within(15_000) });
  const before = await editor.getByTestId("profile-link-row").count();
  await editor.getByRole("button", { name: "Add link" }).click();
  await editor.getByLabel(`Link ${before + 1} title`).fill(`Parking ${mark}`);
  await editor.getByLabel(`Link ${before + 1} address`).fill(`${origin}/healthz`);
  await editor.getByRole("button", { name: "Add link" }).click();
  await editor.getByLabel(`Link ${before + 2} title`).fill(`Prices ${mark}`);
  await editor.getByLabel(`Link ${before + 2} address`).fill(`${origin}/readyz`);
  // Prices first.
  await editor.getByRole("button", { name: `Move link ${before + 2} up` }).click();
  await editor.getByRole("button", { name: "Save public page" }).click();
  await expect(editor).toBeHidden({ timeout: within(15_000) });
  const summary = page.getByTestId("profile-link-summary");
  await expect(summary.filter({ hasText: `Prices ${mark}` })).toBeVisible();
  await expect(summary.nth(before)).toContainText(`Prices ${mark}`);
  await expect(summary.nth(before + 1)).toContainText(`Parking ${mark}`);

  await page.getByRole("button", { name: "Edit profile" }).click();
  const profile = page.getByRole("dialog", { name: "Edit your page's profile" });
  await expect(profile.getByLabel("Name on the page")).toHaveValue("Bluebird Dental", {
    timeout: within(15_000),
  });
  const bio = `Family dentistry, open late on Thursdays (${mark}).`;
  await profile.getByRole("textbox", { name: "Bio" }).fill(bio);
  await profile.getByRole("button", { name: "Save" }).click();
  await expect(profile).toBeHidden({ timeout: within(15_000) });
  await expect(page.getByTestId("link-page-status")).toContainText(bio);

  // A signed-out visitor.
  const username = await organizationUsername(page.request);
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  try {
    const response = await visitor.goto(`/${username}`);
    expect(response?.status()).toBe(200);
    await expect(visitor.getByText(bio)).toBeVisible();
    const prices = visitor.getByRole("link", { name: `Prices ${mark}` });
    const parking = visitor.getByRole("link", { name: `Parking ${mark}` });
    await expect(prices).toBeVisible();
    await expect(parking).toBeVisible();
    const pricesBox = await prices.boundingBox();
    const parkingBox = await parking.boundingBox();
    expect(pricesBox && parkingBox && pricesBox.y < parkingBox.y).toBe(true);
  } finally {
    await visitorContext.close();
  }
});

test("billing, checkout, mobile and a legacy sign-in link open real screens", async ({ page, problems }) => {
  // The legacy link below is refused on purpose.
  problems.allow(/answer 401 GET \/api\/v1\/oneTimeAuth/);
  await signInAs(page, DEMO.owner, "/app/dashboard?billing=true");
  const billing = page.getByRole("dialog", { name: "Billing" });
  await expect(billing.getByTestId("current-plan-name")).toBeVisible({ timeout: within(15_000) });
  await expect(billing.getByRole("link", { name: "Open Billing" })).toBeVisible();

  await page.goto("/app/dashboard?checkout=40");
  const checkout = page.getByRole("dialog", { name: "Pay by card" });
  await expect(checkout.getByLabel("Amount (USD)")).toHaveValue("40", { timeout: within(15_000) });
  await expect(checkout.getByRole("button", { name: "Continue to card payment" })).toBeVisible();

  await page.goto("/app/dashboard?mobile=true");
  const mobile = page.getByRole("dialog", { name: "Switchboard on your phone" });
  await mobile.getByRole("button", { name: "Show a code to sign in on your phone" }).click();
  await expect(mobile.getByRole("img", { name: "QR code that signs your phone in" })).toBeVisible();

  await page.goto("/app/dashboard?legacyLogin=an-expired-link");
  const legacy = page.getByRole("dialog", { name: "Sign-in link" });
  await expect(legacy.getByText("Could not authenticate with token")).toBeVisible({
    timeout: within(15_000),
  });
  await expect(legacy.getByText(DEMO.owner)).toBeVisible();
  await legacy.getByRole("button", { name: "Continue" }).click();
  await expect(legacy).toBeHidden();
  await expect(page.getByTestId("account-name")).toHaveText("Bluebird Dental");
  for (const dialog of [billing, checkout, mobile, legacy])
    await expect(dialog.getByText(/not built yet/)).toHaveCount(0);
});

test("the new screens fit a 390 px phone", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAs(page, DEMO.owner, "/app/settings?editPage=true");
  const editor = page.getByRole("dialog", { name: "Edit your page's links" });
  await expect(editor.getByRole("button", { name: "Add link" })).toBeVisible({ timeout: within(15_000) });
  await editor.getByRole("button", { name: "Add link" }).click();
  expect(await layoutProblems(page), "editPage at 390 px").toEqual([]);
  for (const [query, title] of [
    ["editPageProfile=true", "Edit your page's profile"],
    ["requestAccess=sms", "Request access"],
    ["billing=true", "Billing"],
    ["mobile=true", "Switchboard on your phone"],
  ] as const) {
    await page.goto(`/app/settings?${query}`);
    const dialog = page.getByRole("dialog", { name: title });
    await expect(dialog.getByRole("button").last()).toBeVisible({ timeout: within(15_000) });
    await expect(dialog.getByRole("status", { name: "Loading" })).toHaveCount(0);
    expect(await layoutProblems(page), `${query} at 390 px`).toEqual([]);
  }
});

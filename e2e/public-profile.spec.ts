import { DEMO, expect, findAccountId, signInAs, test, within } from "./helpers.ts";

// Public pages (issue 22): the owner gives the After Hours agent an address and a link; a signed-out
// visitor opens the page, clicks the link (the owner sees the count rise) and chats with the agent; the
// conversation is in the organisation's inbox as a web chat.

test("the owner publishes a page with a link; a visitor clicks it and chats with the agent", async ({
  page,
  browser,
  problems,
}) => {
  test.setTimeout(within(120_000));
  // The inbox refetches on each realtime event (the agent's reply) until the page closes.
  problems.allow(/request failed net::ERR_ABORTED GET \/api\/v1\/(conversations|activity|activityAgent)\b/);
  const agentId = await findAccountId(page.request, DEMO.owner, "After Hours");
  await signInAs(page, DEMO.owner, `/app/agent/${agentId}/settings`);
  await expect(page.getByRole("heading", { name: "Public page" })).toBeVisible();

  // A new address through the editSlug overlay.
  const slug = `after-hours-${Date.now().toString(36)}`;
  await page.getByRole("button", { name: "Change address" }).click();
  const dialog = page.getByRole("dialog", { name: "Username" });
  await dialog.getByLabel("Username").fill(slug);
  await dialog.getByRole("button", { name: "Save" }).click();
  // (The toast closes after a second: wait for what the save did instead.)
  await expect(dialog).toBeHidden({ timeout: within(15_000) });

  // A link to a page of this server (the machine has no outside network).
  const origin = new URL(page.url()).origin;
  await page.getByRole("button", { name: "Edit links" }).click();
  const editor = page.getByRole("dialog", { name: "Edit your page's links" });
  await editor.getByRole("button", { name: "Add link" }).click();
  const last = editor.getByTestId("profile-link-row").last();
  await last.getByLabel(/title/).fill("Are we open?");
  await last.getByLabel(/address/).fill(`${origin}/healthz`);
  await editor.getByRole("button", { name: "Save public page" }).click();
  await expect(editor).toBeHidden({ timeout: within(15_000) });
  await page.getByRole("button", { name: "Edit profile" }).click();
  const profile = page.getByRole("dialog", { name: "Edit your page's profile" });
  await profile
    .getByRole("textbox", { name: "Bio" })
    .fill("Evening and weekend answers for Bluebird Dental.");
  await profile.getByRole("button", { name: "Save" }).click();
  await expect(profile).toBeHidden({ timeout: within(15_000) });
  await expect
    .poll(async () => (await (await page.request.get(`/api/v1/publicPage/${slug}`)).json()).links?.length, {
      timeout: within(15_000),
    })
    .toBe(1);

  // Sharing: the link and its QR code.
  await page.getByRole("button", { name: "Share" }).click();
  const share = page.getByRole("dialog", { name: "Share your page" });
  await expect(share.getByRole("textbox", { name: "Link" })).toHaveValue(`${origin}/${slug}`);
  await expect(share.getByRole("img", { name: `QR code of ${origin}/${slug}` })).toBeVisible();
  await page.keyboard.press("Escape");

  // A signed-out visitor.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  try {
    const response = await visitor.goto(`/${slug}`);
    expect(response?.status()).toBe(200);
    await expect(visitor).toHaveTitle("After Hours");
    await expect(visitor.locator('meta[property="og:image"]')).toHaveAttribute(
      "content",
      /card\.svg|https?:/,
    );
    await expect(visitor.getByRole("heading", { name: "After Hours", level: 1 })).toBeVisible();
    await expect(visitor.getByText("Evening and weekend answers for Bluebird Dental.")).toBeVisible();

    const question = `Are you open on Sunday? (${Date.now().toString(36)})`;
    await visitor.getByRole("textbox", { name: "Your message" }).fill(question);
    await visitor.getByRole("button", { name: "Send" }).click();
    const log = visitor.getByRole("log", { name: "Conversation" });
    await expect(log.getByText(question)).toBeVisible();
    // The greeting, then the agent's answer to the question.
    await expect(log.locator(".msg.agent")).toHaveCount(2, { timeout: within(20_000) });

    await visitor.getByRole("link", { name: "Are we open?" }).click();
    await expect(visitor).toHaveURL(`${origin}/healthz`);

    // The owner sees the click counted, and the conversation in the inbox.
    await page.reload();
    await expect(page.getByLabel("Link 1 clicks")).toHaveText("1 click");
    await expect(page.getByTestId("link-clicks-total")).toContainText("1 click");
    await page.goto("/app/inbox");
    const row = page
      .getByRole("listitem")
      .filter({ hasText: /Web visitor/ })
      .first();
    await expect(row).toBeVisible({ timeout: within(10_000) });
    await row.click();
    await expect(page.getByText(question)).toBeVisible();
    await page.waitForLoadState("networkidle"); // the inbox finishes loading before the page closes
  } finally {
    await visitorContext.close();
  }
});

test("until its script runs, the public page offers no chat form to send", async ({ page }) => {
  // A form shown before its script ran was sent by the browser itself: a page load without the chat's
  // frame permission, blocked inside the website widget.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/public-page.js", async (route) => {
    await held;
    await route.continue();
  });
  // The page's script is deferred: the document is shown, but not loaded, while it is held back.
  await page.goto("/bluebird-front-desk", { waitUntil: "commit" });
  await expect(page.getByRole("log", { name: "Conversation" })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Your message" })).toBeHidden();
  await expect(page.getByRole("button", { name: "Send" })).toBeHidden();
  await expect(page.getByRole("log", { name: "Call" })).toBeHidden();
  release();
  await expect(page.getByRole("textbox", { name: "Your message" })).toBeVisible();
});

// Issue 32 item 22: the public page, its "not found" page and the sandbox pages name the product's icon,
// so a browser does not ask for a /favicon.ico that is not there.
test("the public and sandbox pages name an icon that is there", async ({ page, problems }) => {
  problems.allow(/answer 404 GET \/no-such-page-here/);
  for (const path of ["/bluebird-front-desk", "/no-such-page-here"]) {
    await page.goto(path);
    const icon = await page.locator('link[rel="icon"]').getAttribute("href");
    expect(icon, path).toBe("/favicon.svg");
    const answer = await page.request.get(icon as string);
    expect(answer.status(), path).toBe(200);
  }
});

import { DEMO, expect, signInAs, test, within } from "./helpers.ts";

// The inbox (issue 7): a text from the phone simulator reaches the open inbox of another browser within a
// second, the AI agent answers it on the handset, a person switches the AI agent off and replies by hand,
// and everything is still there after a reload.

test("an inbound text, the AI agent's answer, a person taking over, across two browsers", async ({
  browser,
}) => {
  const digits = String(Math.floor(1000 + Math.random() * 8999));
  const handset = `+1503555${digits}`;
  const shown = `+1 (503) 555-${digits}`;

  const inboxContext = await browser.newContext();
  const phoneContext = await browser.newContext();
  const inbox = await inboxContext.newPage();
  const phone = await phoneContext.newPage();
  try {
    await signInAs(inbox, DEMO.owner, "/app/inbox");
    await expect(inbox.getByRole("heading", { name: "Inbox" })).toBeVisible();
    await expect(inbox.getByText("Live", { exact: true })).toBeVisible();
    // The demo conversations are there on first start.
    await expect(inbox.getByRole("listitem", { name: /Maria Lopez/ })).toBeVisible();

    await signInAs(phone, DEMO.admin, "/app/developers");
    const simulator = phone.getByLabel("Phone simulator");
    await simulator.getByLabel("Handset number").fill(handset);
    await simulator.getByRole("button", { name: "Use number" }).click();
    await expect(simulator.getByText("No messages on this handset yet.")).toBeVisible();
    await expect(simulator.getByRole("combobox", { name: "Text to" })).toHaveValue(/Front Desk/);

    // The text goes out from the handset...
    await simulator
      .getByRole("textbox", { name: "Text message from the handset" })
      .fill("What are your opening hours?");
    const stored = phone.waitForResponse((r) => r.url().includes("/api/v1/sandbox/sms/inbound") && r.ok());
    await simulator.getByRole("button", { name: "Send text" }).click();
    await stored;
    // ...and is in the other browser's open inbox within a second, unread, without a reload.
    const row = inbox.getByRole("listitem", { name: new RegExp(shown.replace(/[()+]/g, "\\$&")) });
    await expect(row).toBeVisible({ timeout: within(1000) });

    // The AI agent answers; the handset receives it.
    await expect(simulator.getByText("Opening hours: Mon-Fri 8am-5pm.")).toBeVisible({
      timeout: within(10_000),
    });
    await row.click();
    const conversation = inbox.getByLabel(`Conversation with ${shown}`);
    const messages = conversation.getByLabel("Messages");
    await expect(messages.getByText("What are your opening hours?")).toBeVisible();
    await expect(messages.getByText("Opening hours: Mon-Fri 8am-5pm.")).toBeVisible();
    await expect(messages.getByText(/Front Desk \(AI agent\)/)).toBeVisible();

    // The person takes over: AI agent off, a reply by hand.
    const aiSwitch = conversation.getByRole("switch", { name: "AI agent" });
    await expect(aiSwitch).toBeChecked();
    await aiSwitch.click({ force: true });
    await expect(aiSwitch).not.toBeChecked();
    await conversation
      .getByRole("textbox", { name: "Reply" })
      .fill("Hi, this is Olive at the front desk. How can I help?");
    await conversation.getByRole("button", { name: "Send" }).click();
    await expect(messages.getByText("Hi, this is Olive at the front desk. How can I help?")).toBeVisible();
    await expect(simulator.getByText("Hi, this is Olive at the front desk. How can I help?")).toBeVisible({
      timeout: within(5000),
    });

    // The handset writes again: it reaches the person, and the AI agent stays quiet.
    await simulator
      .getByRole("textbox", { name: "Text message from the handset" })
      .fill("Can I come in tomorrow?");
    await simulator.getByRole("button", { name: "Send text" }).click();
    await expect(messages.getByText("Can I come in tomorrow?")).toBeVisible({ timeout: within(1000) });
    await inbox.waitForTimeout(1500);
    await expect(messages.locator('[data-role="assistant"]')).toHaveCount(1);
    await expect(simulator.locator('[data-direction="outbound"]')).toHaveCount(2);

    // A reload keeps everything, in both browsers.
    await inbox.reload();
    const reloaded = inbox.getByLabel(`Conversation with ${shown}`);
    await expect(reloaded.getByRole("switch", { name: "AI agent" })).not.toBeChecked();
    const again = reloaded.getByLabel("Messages");
    for (const text of [
      "What are your opening hours?",
      "Opening hours: Mon-Fri 8am-5pm.",
      "Hi, this is Olive at the front desk. How can I help?",
      "Can I come in tomorrow?",
    ])
      await expect(again.getByText(text)).toBeVisible();
    await phone.reload();
    const phoneAgain = phone.getByLabel("Phone simulator");
    await expect(phoneAgain.locator('[data-direction="inbound"]')).toHaveCount(2);
    await expect(phoneAgain.locator('[data-direction="outbound"]')).toHaveCount(2);
  } finally {
    await inboxContext.close();
    await phoneContext.close();
  }
});

test("a new message is created by its first text: a draft left without one leaves no conversation", async ({
  page,
}) => {
  // Issue #23 item 7: Enter in "To" created the room at once and left a "No messages yet" row forever.
  const digits = String(Math.floor(1000 + Math.random() * 8999));
  const number = `+1503556${digits}`;
  const row = page.getByRole("listitem", { name: new RegExp(`\\(503\\) 556-${digits}`) });
  await signInAs(page, DEMO.owner, "/app/inbox");
  await expect(page.getByRole("listitem", { name: /Maria Lopez/ })).toBeVisible();

  await page.getByRole("button", { name: "New message" }).click();
  const compose = page.getByLabel("New message", { exact: true });
  await compose.getByRole("textbox", { name: "To" }).fill(number);
  await compose.getByRole("textbox", { name: "To" }).press("Enter");
  // Enter goes on to the message; nothing is created yet.
  await expect(compose).toBeVisible();
  await expect(compose.getByRole("textbox", { name: "Message" })).toBeFocused();
  await expect(compose.getByText("Write a message to send.")).toBeVisible();
  await compose.getByRole("button", { name: "Cancel", exact: true }).click();
  await expect(compose).toBeHidden();
  await expect(row).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("listitem", { name: /Maria Lopez/ })).toBeVisible();
  await expect(row).toHaveCount(0);

  // With a message, the conversation starts with it.
  await page.getByRole("button", { name: "New message" }).click();
  await compose.getByRole("textbox", { name: "To" }).fill(number);
  await compose.getByRole("textbox", { name: "Message" }).fill("Your crown is ready for pick-up.");
  await compose.getByRole("button", { name: "Send" }).click();
  const conversation = page.getByLabel(/^Conversation with /);
  await expect(
    conversation.getByLabel("Messages").getByText("Your crown is ready for pick-up."),
  ).toBeVisible();
  // The list refreshes after the send; give it the time a busy machine takes.
  await expect(row).toContainText("Your crown is ready for pick-up.", { timeout: within(15_000) });
});

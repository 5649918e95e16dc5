import type { Page } from "@playwright/test";
import { DEMO, expect, rootSession, signInAs, test } from "./helpers.ts";

// Contacts (issue 7): the demo owner adds a contact with free nested fields, finds it by search, edits a
// nested field, previews and deletes it; a contact whose number has an inbox conversation shows its name
// there, and its preview opens that conversation.

/** The Front Desk agent's number in the demo inbox (apps/server/src/demo/demo-inbox.ts). */
const DEMO_AGENT_NUMBER = "+15035550123";

function unique() {
  const digits = String(Math.floor(1000 + Math.random() * 8999));
  const tag = `${Date.now().toString(36).slice(-4)}${Math.random().toString(36).slice(2, 5)}`;
  return { digits, name: `Ellie E2e${tag}`, number: `+1503555${digits}`, shown: `+1 (503) 555-${digits}` };
}

async function addContact(page: Page, name: string, number: string, insurance?: string) {
  await page.getByRole("button", { name: "New contact" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New contact" });
  await dialog.getByRole("textbox", { name: "Name", exact: true }).fill(name);
  await dialog.getByRole("textbox", { name: "Phone number" }).fill(number);
  await dialog.getByRole("textbox", { name: "Company" }).fill("E2E Testing Co");
  if (insurance) {
    // A nested object of one's own: a group "insurance" with a field "provider".
    await dialog.getByRole("button", { name: "Add group" }).click();
    await dialog.getByRole("textbox", { name: "Field name", exact: true }).fill("insurance");
    await dialog.getByRole("textbox", { name: "Insurance field name" }).fill("provider");
    await dialog.getByRole("textbox", { name: "Insurance provider" }).fill(insurance);
  }
  await dialog.getByRole("button", { name: "Add contact" }).click();
  await expect(page.getByText(`${name} added.`)).toBeVisible();
  await expect(dialog).toBeHidden();
}

test("the owner adds a contact, finds it, edits a nested field, previews and deletes it", async ({
  page,
}) => {
  const contact = unique();
  await signInAs(page, DEMO.owner, "/app/contacts");
  await expect(page.getByRole("heading", { name: "Contacts" })).toBeVisible();
  await addContact(page, contact.name, contact.number, "Delta");

  // Found by name, then by number as people type it.
  const search = page.getByRole("textbox", { name: "Search contacts" });
  const table = page.getByRole("table", { name: "Contacts" });
  await search.fill(contact.name);
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(table.getByText(contact.shown)).toBeVisible();
  // Issue #23 item 11: the new contact is marked in place, long after its toast has gone.
  await expect(table.getByRole("row").nth(1).getByText("Added", { exact: true })).toBeVisible();
  await search.fill(`555-${contact.digits}`);
  await expect(table.getByRole("button", { name: `Preview ${contact.name}` })).toBeVisible();

  // The nested field is edited; the rest stays.
  await table.getByRole("button", { name: "Edit" }).first().click();
  const edit = page.getByRole("dialog", { name: "Edit contact" });
  const provider = edit.getByRole("textbox", { name: "Insurance provider" });
  await expect(provider).toHaveValue("Delta");
  await provider.fill("Cigna");
  await edit.getByRole("button", { name: "Save contact" }).click();
  await expect(page.getByText(`${contact.name} saved.`)).toBeVisible();
  await expect(edit).toBeHidden();
  await expect(page.getByText(`${contact.name} saved.`)).toBeHidden();
  await expect(table.getByRole("row").nth(1).getByText("Saved", { exact: true })).toBeVisible();

  // The preview shows the saved fields; a reload keeps them.
  await page.reload();
  await page.getByRole("textbox", { name: "Search contacts" }).fill(contact.name);
  await page.getByRole("button", { name: `Preview ${contact.name}` }).click();
  const preview = page.getByRole("dialog", { name: "Contact" });
  await expect(preview.getByTestId("contact-name")).toHaveText(contact.name);
  await expect(preview.getByText("Cigna")).toBeVisible();
  await expect(preview.getByText("E2E Testing Co")).toBeVisible();
  await expect(preview.getByText(contact.shown).first()).toBeVisible();
  await expect(preview.getByText("No conversations yet.")).toBeVisible();

  // Deleted after a confirmation: gone from the list.
  await preview.getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete contact" });
  await expect(confirm.getByText(contact.name)).toBeVisible();
  await confirm.getByRole("button", { name: "Delete contact" }).click();
  await expect(page.getByText(`${contact.name} deleted.`)).toBeVisible();
  await expect(page.getByText(`No contacts match “${contact.name}”.`)).toBeVisible();
});

test("a contact whose number has a conversation shows its name in the inbox", async ({ page }) => {
  // The seeded contact: its preview opens its demo conversation, which carries its name.
  await signInAs(page, DEMO.owner, "/app/contacts");
  await page.getByRole("textbox", { name: "Search contacts" }).fill("Maria Lopez");
  await page.getByRole("button", { name: "Preview Maria Lopez" }).click();
  const preview = page.getByRole("dialog", { name: "Contact" });
  await expect(preview.getByText("Prefers morning visits.")).toBeVisible();
  await preview.getByRole("link", { name: "Open in inbox" }).first().click();
  await expect(page).toHaveURL(/\/app\/inbox\?active=/);
  await expect(page.getByLabel("Conversation with Maria Lopez")).toBeVisible();
  await expect(page.getByRole("listitem", { name: /^Maria Lopez/ })).toBeVisible();

  // A new contact, then a text from its number: the inbox names the conversation after it.
  const contact = unique();
  await page.goto("/app/contacts");
  await addContact(page, contact.name, `(503) 555-${contact.digits}`);
  const token = await rootSession(page.request, DEMO.owner);
  const inbound = await page.request.post(`/api/v1/sandbox/sms/inbound?token=${encodeURIComponent(token)}`, {
    data: { from: contact.number, to: DEMO_AGENT_NUMBER, text: "Hello from a contact" },
  });
  expect(inbound.ok(), await inbound.text()).toBe(true);

  await page.getByRole("textbox", { name: "Search contacts" }).fill(contact.name);
  await page.getByRole("button", { name: `Preview ${contact.name}` }).click();
  const own = page.getByRole("dialog", { name: "Contact" });
  // (Its last message is the AI agent's answer or the text itself, whichever is stored last.)
  await own.getByRole("link", { name: "Open in inbox" }).click();
  const conversation = page.getByLabel(`Conversation with ${contact.name}`);
  await expect(conversation).toBeVisible();
  await expect(conversation.getByText("Hello from a contact")).toBeVisible();
  await expect(page.getByRole("listitem", { name: new RegExp(`^${contact.name}`) })).toBeVisible();
  await expect(
    page.getByRole("listitem", { name: new RegExp(contact.shown.replace(/[()+]/g, "\\$&")) }),
  ).toHaveCount(0);

  // The compose finds the contact's name as the number is typed (the contact-display-names cache).
  await page.getByRole("button", { name: "New message" }).click();
  const compose = page.getByLabel("New message");
  await compose.getByRole("textbox", { name: "To" }).fill(`503 555 ${contact.digits}`);
  await expect(compose.getByText(contact.name)).toBeVisible();

  // ...or picks the contact from the contacts overlay.
  await compose.getByRole("textbox", { name: "To" }).fill("");
  await compose.getByRole("button", { name: "Contacts" }).click();
  const picker = page.getByRole("dialog", { name: "Contacts" });
  await picker.getByRole("textbox", { name: "Search contacts" }).fill(contact.name);
  await picker.getByRole("listitem", { name: contact.name }).click();
  await expect(picker).toBeHidden();
  await expect(compose.getByRole("textbox", { name: "To" })).toHaveValue(contact.number);
  await expect(compose.getByText(contact.name)).toBeVisible();
});

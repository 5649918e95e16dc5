import type { Page } from "@playwright/test";
import {
  DEMO,
  DEMO_NAMES,
  expect,
  findAccountId,
  homeAccountId,
  linkFor,
  openUserMenu,
  outboxMark,
  rootSession,
  sidebar,
  signInAs,
  test,
  uniqueEmail,
} from "./helpers.ts";

// The account hierarchy in the web app (issue 3): take-over, view as, permission-gated menus, the lists
// with paging, create/delete/enable/disable, and members with invitations.

function toast(page: Page, text: string) {
  return page.getByRole("alert").filter({ hasText: text });
}

async function expectInView(page: Page, name: string, type: string) {
  await expect(page.getByTestId("account-name")).toHaveText(name);
  await expect(page.getByTestId("account-type")).toHaveText(type);
}

test.describe("take-over and view as", () => {
  test("a reseller takes over an organisation and sees its view", async ({ page }) => {
    await signInAs(page, DEMO.reseller);
    await expectInView(page, DEMO_NAMES.reseller, "Reseller");
    await sidebar(page).getByRole("link", { name: "Accounts" }).click();
    const organizations = page.getByRole("table", { name: "Organizations" });
    await expect(organizations.getByRole("row", { name: new RegExp(DEMO_NAMES.organization) })).toBeVisible();

    await page.getByRole("button", { name: `Take over ${DEMO_NAMES.organization}` }).click();
    const dialog = page.getByRole("dialog", { name: "Take over organization" });
    await expect(dialog.getByTestId("summary-name")).toHaveText(DEMO_NAMES.organization);
    await dialog.getByRole("button", { name: "Take over" }).click();

    const orgId = await findAccountId(page.request, DEMO.reseller, DEMO_NAMES.organization);
    await expect(page).toHaveURL(new RegExp(`/app/org/${orgId}$`));
    await expectInView(page, DEMO_NAMES.organization, "Organization");
    await expect(page.getByTestId("viewing-as")).toHaveText("Viewing as Reseller");
    // The organisation's own areas, with everything a reseller may do there.
    await expect(sidebar(page).getByRole("link", { name: "Billing" })).toBeVisible();
    await sidebar(page).getByRole("link", { name: "Accounts" }).click();
    const agents = page.getByRole("table", { name: "Agent accounts" });
    await expect(agents.getByText("Front Desk")).toBeVisible();
    await expect(agents.getByText("After Hours")).toBeVisible();

    await openUserMenu(page);
    await page.getByRole("menuitem", { name: "Back to my account" }).click();
    await expect(page).toHaveURL(/\/app$/);
    await expectInView(page, DEMO_NAMES.reseller, "Reseller");
  });

  test("a super admin finds an account with the account search and jumps to it", async ({ page }) => {
    await signInAs(page, DEMO.superAdmin);
    await page.getByTestId("account-in-view").click();
    const dialog = page.getByRole("dialog", { name: "Switch account" });
    await dialog.getByLabel("Search accounts").fill("Bluebird");
    await dialog.getByRole("button", { name: `${DEMO_NAMES.organization} (Organization)` }).click();
    await expect(page).toHaveURL(/\/app\/org\/\d+$/);
    await expectInView(page, DEMO_NAMES.organization, "Organization");
    expect(new URL(page.url()).searchParams.has("accountSearch")).toBe(false);
  });

  test("viewing as admin hides billing; the choice is kept in localStorage viewingAs", async ({ page }) => {
    const orgId = await findAccountId(page.request, DEMO.superAdmin, DEMO_NAMES.organization);
    await signInAs(page, DEMO.superAdmin, `/app/org/${orgId}`);
    await expect(sidebar(page).getByRole("link", { name: "Billing" })).toBeVisible();

    await openUserMenu(page);
    await page.getByRole("menuitem", { name: "View as…" }).click();
    const dialog = page.getByRole("dialog", { name: "View as" });
    await dialog.getByRole("radio", { name: "Admin", exact: true }).check();
    await dialog.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByTestId("viewing-as")).toHaveText("Viewing as Admin");
    await expect(sidebar(page).getByRole("link", { name: "Billing" })).toHaveCount(0);
    await expect(sidebar(page).getByRole("link", { name: "Wallet" })).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem("viewingAs"))).toBe("admin");

    // Kept across a reload, then back to super admin.
    await page.reload();
    await expect(page.getByTestId("viewing-as")).toHaveText("Viewing as Admin");
    await page.goto(`/app/org/${orgId}?viewAs=true`);
    await page.getByRole("dialog", { name: "View as" }).getByRole("radio", { name: "Super admin" }).check();
    await page.getByRole("dialog", { name: "View as" }).getByRole("button", { name: "Apply" }).click();
    await expect(sidebar(page).getByRole("link", { name: "Billing" })).toBeVisible();
  });
});

test.describe("permission flags", () => {
  test("an organisation admin does not see billing items", async ({ page }) => {
    await signInAs(page, DEMO.admin);
    await expectInView(page, DEMO_NAMES.organization, "Organization");
    await expect(sidebar(page).getByRole("link", { name: "Inbox" })).toBeVisible();
    await expect(sidebar(page).getByRole("link", { name: "Billing" })).toHaveCount(0);
    await expect(sidebar(page).getByRole("link", { name: "Wallet" })).toHaveCount(0);
    await page.goto("/app/billing");
    await expect(page.getByText("This area is not available for the account in view.")).toBeVisible();
  });

  test("the organisation's owner does see them", async ({ page }) => {
    await signInAs(page, DEMO.owner);
    await expect(sidebar(page).getByRole("link", { name: "Billing" })).toBeVisible();
    await expect(sidebar(page).getByRole("link", { name: "Wallet" })).toBeVisible();
  });

  test("a super admin is sent to an organisation for its contacts, and finds them there", async ({
    page,
  }) => {
    await signInAs(page, DEMO.superAdmin);
    await expect(sidebar(page).getByRole("link", { name: "Accounts" })).toBeVisible();
    await expect(sidebar(page).getByRole("link", { name: "Contacts" })).toHaveCount(0);
    await expect(sidebar(page).getByRole("link", { name: "Developers" })).toHaveCount(0);
    await page.goto("/app/contacts");
    await expect(page.getByText("Each organisation has its own contacts.")).toBeVisible();
    await page.getByRole("link", { name: "Go to Accounts" }).click();
    await expect(page).toHaveURL(/\/app\/accounts$/);
    await page.getByTestId("account-in-view").click();
    const dialog = page.getByRole("dialog", { name: "Switch account" });
    await dialog.getByLabel("Search accounts").fill("Bluebird");
    await dialog.getByRole("button", { name: `${DEMO_NAMES.organization} (Organization)` }).click();
    await expectInView(page, DEMO_NAMES.organization, "Organization");
    await sidebar(page).getByRole("link", { name: "Contacts" }).click();
    await expect(page.getByRole("heading", { name: "Contacts", level: 1 })).toBeVisible();
  });

  test("an address naming another account type fails with Account type does not match", async ({ page }) => {
    const orgId = await homeAccountId(page.request, DEMO.owner);
    await signInAs(page, DEMO.owner);
    await page.goto(`/app/reseller/${orgId}`);
    await expect(page.getByText("Account type does not match")).toBeVisible();
    await page.getByRole("link", { name: "Go to my account" }).click();
    await expectInView(page, DEMO_NAMES.organization, "Organization");
  });
});

test.describe("members", () => {
  test("the owner invites a member, who signs in from the e-mailed link", async ({ page, browser }) => {
    const email = uniqueEmail("member");
    await signInAs(page, DEMO.owner);
    await openUserMenu(page);
    await page.getByRole("menuitem", { name: "Members" }).click();
    const members = page.getByRole("dialog", { name: "Members" });
    await expect(members.getByRole("table", { name: "Members" }).getByText(DEMO.admin)).toBeVisible();
    await members.getByRole("button", { name: "Invite" }).click();

    const invite = page.getByRole("dialog", { name: "Invite a member" });
    await invite.getByLabel("E-mail address").fill(email);
    await expect(invite.getByRole("checkbox", { name: "Make them an owner" })).not.toBeChecked();
    const mark = await outboxMark(page.request);
    await invite.getByRole("button", { name: "Send invitation" }).click();
    await expect(toast(page, `Invitation sent to ${email}.`)).toBeVisible();
    await expect(page.getByRole("dialog", { name: "Members" }).getByText(email)).toBeVisible();
    // Issue #23 item 11: only invited until their first sign-in.
    const row = () =>
      page.getByRole("dialog", { name: "Members" }).getByRole("row", { name: new RegExp(email) });
    await expect(row().getByText("Invited")).toBeVisible();

    const link = await linkFor(page.request, email, mark);
    expect(link).toContain("oneTimeToken=");
    const invitee = await browser.newContext();
    try {
      const inviteePage = await invitee.newPage();
      await inviteePage.goto(link);
      await expect(inviteePage).toHaveURL(/\/app$/);
      await expectInView(inviteePage, DEMO_NAMES.organization, "Organization");
      // An admin: no billing.
      await expect(sidebar(inviteePage).getByRole("link", { name: "Inbox" })).toBeVisible();
      await expect(sidebar(inviteePage).getByRole("link", { name: "Billing" })).toHaveCount(0);
      await inviteePage.getByRole("button", { name: "User menu" }).click();
      await expect(inviteePage.getByRole("menu").getByText(email)).toBeVisible();
    } finally {
      await invitee.close();
    }
    // Signed in once: a member like the others.
    await page.reload();
    await expect(row()).toBeVisible();
    await expect(row().getByText("Invited")).toHaveCount(0);
  });

  test("the owner removes a member", async ({ page }) => {
    const email = uniqueEmail("leaver");
    const token = await rootSession(page.request, DEMO.owner);
    const invited = await page.request.post(`/api/v2/inviteAdminUser?token=${token}`, { data: { email } });
    expect(invited.ok()).toBe(true);
    await signInAs(page, DEMO.owner, "/app?members=true");
    const members = page.getByRole("dialog", { name: "Members" });
    await members.getByRole("button", { name: `Remove ${email}` }).click();
    const dialog = page.getByRole("dialog", { name: "Remove a member" });
    await dialog.getByRole("button", { name: "Remove" }).click();
    await expect(toast(page, "User removed.")).toBeVisible();
    await expect(page.getByRole("dialog", { name: "Members" }).getByText(email)).toHaveCount(0);
  });
});

test.describe("the hierarchy", () => {
  test("a reseller creates and deletes an organisation", async ({ page }) => {
    const name = `E2E Clinic ${Date.now().toString(36)}`;
    await signInAs(page, DEMO.reseller, "/app/accounts");
    await page.getByRole("button", { name: "New organization" }).click();
    const create = page.getByRole("dialog", { name: "New organization" });
    await create.getByRole("button", { name: "Create organization" }).click();
    await expect(create.getByText("Enter a name.")).toBeVisible();
    await create.getByLabel("Organization name").fill(name);
    await create.getByRole("button", { name: "Create organization" }).click();
    await expect(toast(page, `${name} created.`)).toBeVisible();
    const organizations = page.getByRole("table", { name: "Organizations" });
    await expect(organizations.getByText(name)).toBeVisible();

    await page.getByRole("button", { name: `Details of ${name}` }).click();
    await page.getByRole("dialog", { name: "Organization" }).getByRole("button", { name: "Delete" }).click();
    const remove = page.getByRole("dialog", { name: "Delete organization" });
    const confirmButton = remove.getByRole("button", { name: "Delete organization" });
    await expect(confirmButton).toBeDisabled();
    await remove.getByLabel(`Type “${name}” to confirm`).fill(name);
    await confirmButton.click();
    await expect(remove).toBeHidden();
    await expect(organizations.getByText(name)).toHaveCount(0);
  });

  test("lists page by 20", async ({ page }) => {
    test.slow();
    const partner = await rootSession(page.request, DEMO.partner);
    const created = await page.request.post(`/api/v2/createReseller?token=${partner}`, {
      data: { name: `E2E Paging ${Date.now().toString(36)}` },
    });
    expect(created.ok(), await created.text()).toBe(true);
    const resellerId = ((await created.json()) as { account: { id: number } }).account.id;
    for (let index = 1; index <= 21; index += 1) {
      const response = await page.request.post(`/api/v2/createOrganization?token=${partner}`, {
        data: { targetResellerId: resellerId, name: `Paging org ${String(index).padStart(2, "0")}` },
      });
      expect(response.ok(), await response.text()).toBe(true);
    }

    await signInAs(page, DEMO.partner, `/app/reseller/${resellerId}/accounts`);
    await expect(page.getByText("21 organizations")).toBeVisible();
    const rows = page.getByRole("table", { name: "Organizations" }).locator("tbody tr");
    await expect(rows).toHaveCount(20);
    await page.getByRole("button", { name: "Page 2" }).click();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("Paging org 01");
  });

  test("a super admin disables and enables an organisation with the spec's messages", async ({ page }) => {
    const partner = await rootSession(page.request, DEMO.partner);
    const name = `E2E Disable ${Date.now().toString(36)}`;
    const created = await page.request.post(`/api/v2/createOrganization?token=${partner}`, {
      data: { name },
    });
    expect(created.ok(), await created.text()).toBe(true);
    const orgId = ((await created.json()) as { account: { id: number } }).account.id;

    await signInAs(page, DEMO.superAdmin, `/app?orgAdmin=${orgId}`);
    const admin = page.getByRole("dialog", { name: "Administer organization" });
    await expect(admin.getByTestId("summary-name")).toHaveText(name);
    await admin.getByLabel("Reason").fill("E2E check");
    await admin.getByRole("button", { name: "Disable account" }).click();
    await expect(toast(page, "Organization disabled!")).toBeVisible();
    await expect(admin.getByRole("button", { name: "Enable account" })).toBeVisible();
    await admin.getByRole("button", { name: "Enable account" }).click();
    await expect(toast(page, "Account enabled!")).toBeVisible();
    await expect(admin.getByRole("button", { name: "Disable account" })).toBeVisible();
  });
});

test.describe("settings", () => {
  test("the owner changes the account's username (checked with the API's schema)", async ({ page }) => {
    await signInAs(page, DEMO.owner, "/app?settings=true");
    const settings = page.getByRole("dialog", { name: "Settings" });
    await settings.getByRole("button", { name: "Edit username" }).click();
    const slug = page.getByRole("dialog", { name: "Username" });
    await slug.getByLabel("Username").fill("No Spaces Allowed");
    await slug.getByRole("button", { name: "Save" }).click();
    await expect(slug.getByText("A username has 3 to 30 characters")).toBeVisible();
    const username = `bluebird-${Date.now().toString(36)}`;
    await slug.getByLabel("Username").fill(username);
    await slug.getByRole("button", { name: "Save" }).click();
    await expect(toast(page, `Username is now ${username}.`)).toBeVisible();
    await expect(page.getByRole("dialog", { name: "Settings" }).getByText(username)).toBeVisible();
  });
});

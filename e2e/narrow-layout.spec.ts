import type { Page } from "@playwright/test";
import { DEMO, expect, rootSession, signInAs, test, within } from "./helpers.ts";
import { layoutProblems } from "./layout.ts";

// Issue #23 item 9: every signed-in main-path page at 550 px wide. No page scrolls sideways
// (document.scrollingElement.scrollWidth <= innerWidth) and no control is clipped (a button, link, label,
// tab or switch, or anything inside one, whose content is wider than its box; text ending in an ellipsis
// is cut on purpose and allowed). The inbox shows one pane at a time below the sm breakpoint, with a way
// back to the list.

const NARROW = { width: 550, height: 900 };

/** Opens `path` and waits until the page (or overlay) has settled enough to be measured. */
async function measure(page: Page, path: string, ready: (page: Page) => Promise<void>) {
  await test.step(path, async () => {
    await page.goto(path);
    await ready(page);
    // Lazy sections and counts fill in after the heading.
    await page.waitForLoadState("networkidle");
    expect(await layoutProblems(page), `${path} at ${NARROW.width} px`).toEqual([]);
  });
}

const heading = (page: Page) =>
  expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible({ timeout: within(15_000) });
const dialog = (name: string | RegExp) => (page: Page) =>
  expect(page.getByRole("dialog", { name })).toBeVisible({ timeout: within(10_000) });

/** The product areas the sidebar offers the person, as paths (it is folded at this width: opened first). */
async function areaPaths(page: Page): Promise<string[]> {
  await page.getByRole("button", { name: "Open navigation" }).click();
  await expect(
    page.getByRole("navigation", { name: "Product areas" }).getByRole("link").first(),
  ).toBeVisible();
  const hrefs = await page
    .getByRole("navigation", { name: "Product areas" })
    .locator("a[href]")
    .evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
  expect(hrefs.length).toBeGreaterThan(5);
  return hrefs;
}

async function createAgent(page: Page, name: string): Promise<number> {
  const token = encodeURIComponent(await rootSession(page.request, DEMO.owner));
  const created = await page.request.post(`/api/v2/createAccount?token=${token}`, { data: { name } });
  expect(created.ok(), await created.text()).toBe(true);
  return ((await created.json()) as { account: { id: number } }).account.id;
}

test.describe("at 550 px", () => {
  test.use({ viewport: NARROW });

  test("the inbox shows one pane at a time, with a way back to the list", async ({ page }) => {
    await signInAs(page, DEMO.owner, "/app/inbox");
    const list = page.getByRole("list", { name: "Conversations" });
    const row = page.getByRole("listitem", { name: /Maria Lopez/ });
    await expect(row).toBeVisible();
    await expect(page.getByText("No conversation open.")).toBeHidden();
    expect(await layoutProblems(page)).toEqual([]);
    // The realtime pill hugs its word (it was stretched to a fixed 136 px around "Live").
    const live = page.getByLabel("Realtime live");
    await expect(live).toBeVisible({ timeout: within(15_000) });
    expect((await live.boundingBox())?.width ?? 0).toBeLessThan(80);

    await row.click();
    const conversation = page.getByLabel(/^Conversation with Maria Lopez/);
    await expect(conversation).toBeVisible();
    await expect(list).toBeHidden();
    // The header keeps the name on one line and the AI-agent switch whole.
    const title = conversation.getByRole("heading", { name: /Maria Lopez/ });
    const lineHeight = await title.evaluate((element) =>
      Number.parseFloat(getComputedStyle(element).lineHeight),
    );
    const titleBox = await title.boundingBox();
    expect(titleBox?.height ?? 0).toBeLessThan(lineHeight * 1.5);
    await expect(conversation.getByRole("switch", { name: "AI agent" })).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(await layoutProblems(page)).toEqual([]);

    await page.getByRole("button", { name: "Back to conversations" }).click();
    await expect(list).toBeVisible();
    await expect(conversation).toBeHidden();
  });

  test("the owner's pages neither scroll sideways nor clip a control", async ({ page }) => {
    test.setTimeout(within(300_000));
    const agentId = await createAgent(page, `Narrow ${Math.random().toString(36).slice(2, 7)}`);
    await signInAs(page, DEMO.owner, "/app");
    const paths = await areaPaths(page);
    for (const path of paths) await measure(page, path, heading);
    await measure(page, `/app/agents?editAgent=${agentId}`, dialog("Edit agent"));
    await measure(page, `/app/agents?schedule=${agentId}`, dialog("Schedule"));
    await measure(page, "/app?onboard=true", dialog("Build your agent"));
    await measure(page, "/app/inbox", async (p) => {
      await p.getByRole("listitem", { name: /Maria Lopez/ }).click();
      await expect(p.getByLabel(/^Conversation with Maria Lopez/)).toBeVisible();
    });
  });

  test("the super admin's pages neither scroll sideways nor clip a control", async ({ page }) => {
    test.setTimeout(within(300_000));
    await signInAs(page, DEMO.superAdmin, "/app");
    for (const path of await areaPaths(page)) await measure(page, path, heading);
  });
});

// Issue 32 item 13: the agent editor at a phone's 390 px (it was 458 px wide, Publish cut off), and the
// Calls table at a laptop's 1366 px (numbers wrapped over four lines: five rows a screen).
test.describe("at 390 px", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the agents list and the agent editor fit the screen, Publish whole", async ({ page }) => {
    await signInAs(page, DEMO.owner, "/app/agents");
    await expect(page.getByRole("table", { name: "All agents" })).toBeVisible();
    expect(await layoutProblems(page), "agents list").toEqual([]);
    await page.getByRole("button", { name: "Edit" }).first().click();
    const editor = page.getByRole("dialog", { name: "Edit agent" });
    await expect(editor.getByTestId("agent-editor")).toBeVisible();
    const publish = editor.getByRole("button", { name: "Publish" });
    await expect(publish).toBeVisible();
    const box = await publish.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
    expect(await layoutProblems(page), "agent editor").toEqual([]);
  });
});

test.describe("at 1366 px", () => {
  test.use({ viewport: { width: 1366, height: 768 } });

  test("Calls keeps numbers and times on one line", async ({ page }) => {
    await signInAs(page, DEMO.owner, "/app/dashboard");
    await page
      .getByRole("navigation", { name: "Product areas" })
      .getByRole("link", { name: "Calls" })
      .click();
    const table = page.getByRole("table", { name: "Calls" });
    await expect(table.getByRole("row").nth(5)).toBeVisible();
    const heights = await table
      .locator("tbody tr")
      .evaluateAll((rows) => rows.slice(0, 5).map((row) => row.getBoundingClientRect().height));
    const lineHeight = await table
      .locator("tbody td")
      .first()
      .evaluate((cell) => Number.parseFloat(getComputedStyle(cell).lineHeight));
    // Two lines at most (a long name may wrap), where a number alone took four.
    for (const height of heights) expect(height).toBeLessThan(lineHeight * 2 + 24);
    expect(await layoutProblems(page)).toEqual([]);
  });
});

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { APIRequestContext } from "@playwright/test";
import { DEMO, expect, rootSession, signInAs, test, within } from "./helpers.ts";

// The knowledge base (issue 19): the owner ingests a website served on loopback from its sitemap, watches
// the pages get indexed, tries a question, gives an agent the knowledge base, and the agent's test chat
// answers from the site naming the source; deleting the page removes what the agent could find.

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><nav><a href="/">Home</a></nav><main><h1>${title}</h1>${body}</main></body></html>`;

async function startSite() {
  const pages = new Map<string, { type: string; body: string }>();
  const server = createServer((req, res) => {
    const found = pages.get((req.url ?? "/").split("?")[0] ?? "/");
    if (!found) res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    else res.writeHead(200, { "content-type": found.type }).end(found.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = (path: string) => `http://127.0.0.1:${port}${path}`;
  pages.set("/robots.txt", { type: "text/plain", body: "User-agent: *\nDisallow: /admin/\n" });
  pages.set("/about", {
    type: "text/html",
    body: page(
      "About Sunny Paws",
      "<p>Sunny Paws Veterinary Clinic has cared for the pets of Portland since 1998. We are open Monday to Saturday from 8am to 6pm.</p>",
    ),
  });
  pages.set("/faq", {
    type: "text/html",
    body: page(
      "Sunny Paws FAQ",
      "<p>Answers to common questions. Q: Do you treat reptiles? A: Yes, our exotic pet specialist sees reptiles on Thursdays. Q: Can I pay in instalments? A: Yes, treatments over $500 can be paid over six months.</p>",
    ),
  });
  pages.set("/prices", {
    type: "text/html",
    body: page("Prices", "<p>A puppy vaccination course costs $95 and includes three visits.</p>"),
  });
  pages.set("/sitemap.xml", {
    type: "application/xml",
    body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${["/about", "/faq", "/prices"].map((p) => `<url><loc>${url(p)}</loc></url>`).join("")}</urlset>`,
  });
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A fresh agent of the demo organisation, so that parallel journeys never share one. */
async function createAgent(request: APIRequestContext, name: string): Promise<number> {
  const token = encodeURIComponent(await rootSession(request, DEMO.owner));
  const created = await request.post(`/api/v2/createAccount?token=${token}`, { data: { name } });
  expect(created.ok(), await created.text()).toBe(true);
  const agentId = ((await created.json()) as { account: { id: number } }).account.id;
  const saved = await request.post(`/api/v2/campaign?token=${token}`, {
    data: { agentId, agentInstructions: "You are the receptionist of Sunny Paws.", greeting: "Hello!" },
  });
  expect(saved.ok(), await saved.text()).toBe(true);
  return agentId;
}

test("the owner ingests a site from its sitemap and the test chat answers from it, naming the source", async ({
  page: browser,
}) => {
  test.setTimeout(within(150_000));
  const site = await startSite();
  const suffix = Math.random().toString(36).slice(2, 7);
  const title = `Sunny Paws website ${suffix}`;
  try {
    const agentId = await createAgent(browser.request, `Paws ${suffix}`);
    await signInAs(browser, DEMO.owner, "/app/knowledge-base");
    await expect(browser.getByRole("heading", { name: "Knowledge base", level: 1 })).toBeVisible();

    const create = browser.getByRole("form", { name: "Create a knowledge base" });
    await create.getByRole("textbox", { name: "New knowledge base" }).fill(title);
    await create.getByRole("button", { name: "Create" }).click();
    const detail = browser.getByLabel(`Knowledge base ${title}`);
    await expect(detail.getByRole("heading", { name: title })).toBeVisible();
    await expect(detail.getByText("No documents yet.", { exact: false })).toBeVisible();

    // The sitemap: its pages listed, all picked, added, and indexed one by one.
    await detail.getByRole("tab", { name: "Sitemap" }).click();
    const sitemap = detail.getByRole("form", { name: "Read a sitemap" });
    await sitemap.getByRole("textbox", { name: "Sitemap address" }).fill(site.url("/sitemap.xml"));
    await sitemap.getByRole("button", { name: "Read sitemap" }).click();
    await expect(detail.getByText("3 pages listed; 3 chosen")).toBeVisible();
    await expect(detail.getByRole("checkbox", { name: site.url("/faq") })).toBeChecked();
    await detail.getByRole("button", { name: "Add 3 pages" }).click();
    await expect(detail.getByTestId("kb-progress")).toHaveText("3 of 3 indexed", { timeout: within(30_000) });
    const faqRow = detail.getByTestId("kb-document").filter({ hasText: site.url("/faq") });
    await expect(faqRow.getByTestId("kb-document-state")).toHaveText("indexed");
    await expect(faqRow).toContainText("Sunny Paws FAQ");

    // Try a question: the passage with its title and address.
    const ask = browser.getByRole("form", { name: "Try a question" });
    await ask.getByRole("textbox", { name: "Question" }).fill("Do you treat reptiles?");
    await ask.getByRole("button", { name: "Search" }).click();
    const passage = browser.getByTestId("kb-passage").first();
    await expect(passage).toContainText("Sunny Paws FAQ");
    await expect(passage).toContainText(site.url("/faq"));
    await expect(passage).toContainText("exotic pet specialist");

    // The agent is given the knowledge base in the agent editor.
    await browser.goto(`/app/agents?editAgent=${agentId}/knowledge`);
    const editor = browser.getByRole("dialog", { name: "Edit agent" });
    await editor.getByPlaceholder("Choose knowledge bases").click();
    await browser.getByRole("option", { name: new RegExp(title) }).click();
    await expect(editor.getByTestId("save-status")).toHaveText("All changes saved", {
      timeout: within(8000),
    });

    // Its test chat answers from the site and names the source.
    await browser.goto(`/app/agents?testAgent=${agentId}`);
    const chat = browser.getByRole("dialog", { name: "Test agent" });
    const log = chat.getByRole("log");
    await expect(log.getByTestId("chat-assistant").first()).toContainText("Hello!", {
      timeout: within(20_000),
    });
    await chat.getByRole("textbox", { name: "Message" }).fill("Do you treat reptiles?");
    await chat.getByRole("textbox", { name: "Message" }).press("Enter");
    const answer = log.getByTestId("chat-assistant").nth(1);
    await expect(answer).toContainText("Yes, our exotic pet specialist sees reptiles on Thursdays.", {
      timeout: within(20_000),
    });
    await expect(answer).toContainText(`Source: Sunny Paws FAQ (${site.url("/faq")})`);
    await chat.getByRole("button", { name: "Close" }).click();

    // Deleting the page (after confirming) removes its passages.
    await browser.goto("/app/knowledge-base");
    await browser
      .getByRole("listitem")
      .filter({ hasText: title })
      .getByRole("button", { name: "Open" })
      .click();
    const row = detail.getByTestId("kb-document").filter({ hasText: site.url("/faq") });
    await row.getByRole("button", { name: "Delete" }).click();
    await browser.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await expect(row).toHaveCount(0);
    await expect(detail.getByTestId("kb-progress")).toHaveText("2 of 2 indexed");
    await ask.getByRole("textbox", { name: "Question" }).fill("Do you treat reptiles?");
    await ask.getByRole("button", { name: "Search" }).click();
    await expect(browser.getByText("No passage matches this question.")).toBeVisible();
  } finally {
    await site.close();
  }
});

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, within } from "./helpers.ts";

// The website widget (issue 22): a plain HTML page of another site (another port on loopback) with one
// script tag opens the Front Desk agent's chat in a frame, and the agent answers there.

async function startSite(scriptUrl: string) {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bluebird Dental site</title></head>
<body><h1>Welcome to Bluebird Dental</h1>
<script src="${scriptUrl}" data-username="bluebird-front-desk" async></script></body></html>`;
  const server = createServer((req, res) => {
    if (req.url === "/") res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
    else res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test("one script tag on another site opens the agent's chat", async ({ page, baseURL }) => {
  const script = await page.request.get("/widget.js");
  expect(script.ok()).toBe(true);
  expect(script.headers()["content-type"]).toContain("javascript");
  const site = await startSite(`${baseURL}/widget.js`);
  try {
    await page.goto(site.url);
    await expect(page.getByRole("heading", { name: "Welcome to Bluebird Dental" })).toBeVisible();
    const button = page.getByRole("button", { name: "Chat with us" });
    await button.click();
    await expect(page.getByRole("button", { name: "Close chat" })).toHaveAttribute("aria-expanded", "true");
    const chat = page.frameLocator('iframe[title="Chat with us"]');
    await expect(chat.getByRole("heading", { name: "Front Desk" })).toBeVisible();
    const log = chat.getByRole("log", { name: "Conversation" });
    // The greeting has the agent's variables filled in, never "{clinicName}" (issue 32 item 5).
    await expect(log.locator(".msg.agent").first()).toHaveText(
      "Thank you for calling Bluebird Dental, how can I help you today?",
    );
    const question = `Do you see children? (${Date.now().toString(36)})`;
    await chat.getByRole("textbox", { name: "Your message" }).fill(question);
    await chat.getByRole("button", { name: "Send" }).click();
    await expect(log.getByText(question)).toBeVisible();
    await expect(log.locator(".msg.agent")).toHaveCount(2, { timeout: within(20_000) });
    await page.getByRole("button", { name: "Close chat" }).click();
    await expect(page.getByRole("button", { name: "Chat with us" })).toHaveAttribute(
      "aria-expanded",
      "false",
    );
  } finally {
    await site.close();
  }
});

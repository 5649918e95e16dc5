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

// Issue 32 item 12: after three exchanges the box and the newest reply had scrolled out of view.
test("the widget keeps its message box and the newest reply in view as the chat grows", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(within(90_000));
  const site = await startSite(`${baseURL}/widget.js`);
  try {
    await page.goto(site.url);
    await page.getByRole("button", { name: "Chat with us" }).click();
    const frame = page.frameLocator('iframe[title="Chat with us"]');
    const log = frame.getByRole("log", { name: "Conversation" });
    await expect(log.locator(".msg.agent").first()).toBeVisible();
    const box = frame.getByRole("textbox", { name: "Your message" });
    for (let turn = 1; turn <= 5; turn++) {
      await box.fill(`Question number ${turn}: do you see children on Saturdays?`);
      await frame.getByRole("button", { name: "Send" }).click();
      await expect(log.locator(".msg.agent")).toHaveCount(turn + 1, { timeout: within(20_000) });
    }
    // Inside the frame's own window: the box and the last answer are on screen, not scrolled away.
    await expect(box).toBeInViewport();
    await expect(log.locator(".msg.agent").last()).toBeInViewport();
    // Answered: the agent is no longer "writing".
    await expect(frame.getByText("The agent is writing…")).toBeHidden();
  } finally {
    await site.close();
  }
});

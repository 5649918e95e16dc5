import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { DEMO, expect, signInAs, test } from "./helpers.ts";

// Webhooks and API tokens (issue 20): the demo owner adds a webhook on the Developers page (its secret
// shown once), sends a test event that a receiver on loopback verifies as Standard Webhooks says, sees
// the delivery with a resend; makes an API token that then calls the API as Bearer, and revokes it.

type Received = { headers: Record<string, string>; body: string };

async function startReceiver() {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      received.push({
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body,
      });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/e2e-hooks/${Date.now().toString(36)}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test("the owner adds a webhook, sees its secret once, tests it and resends the delivery", async ({
  page,
  problems,
}) => {
  const receiver = await startReceiver();
  try {
    await signInAs(page, DEMO.owner, "/app/developers");
    const card = page.locator('[aria-label="Webhooks"]');
    await expect(page.getByRole("heading", { name: "Webhooks" })).toBeVisible();
    const form = page.getByRole("form", { name: "Add a webhook" });
    await form.getByRole("textbox", { name: "Endpoint URL" }).fill(receiver.url);
    await form.getByRole("textbox", { name: "Label" }).fill("E2E receiver");
    await form.getByRole("button", { name: "Add webhook" }).click();
    const secret = (await card.getByTestId("shown-once-value").textContent())?.trim() ?? "";
    expect(secret).toMatch(/^whsec_/);
    await card.getByRole("button", { name: "Done" }).click();
    await expect(card.getByTestId("shown-once-value")).toBeHidden();

    const row = page.getByRole("row").filter({ hasText: receiver.url });
    await expect(row).toBeVisible();
    await row.getByRole("button", { name: "Send test" }).click();
    await expect(page.getByText("Test event delivered (200).")).toBeVisible();
    // Only the test events: the endpoint takes all events, and other journeys running meanwhile on this
    // organisation make some (a contact created).
    const testEvents = () =>
      receiver.received.filter(
        (event) => (JSON.parse(event.body) as { type: string }).type === "webhook.test",
      );
    expect(testEvents()).toHaveLength(1);
    const [test] = testEvents();
    expect(new Webhook(secret).verify(test?.body ?? "", test?.headers ?? {})).toMatchObject({
      type: "webhook.test",
    });

    // The delivery is listed with its attempt; resending it sends the same event again.
    // (Other journeys' events reach this all-events endpoint too: the test event's row is the one looked at.)
    const delivery = page
      .getByTestId("webhook-delivery")
      .filter({ hasText: receiver.url })
      .filter({ hasText: "webhook.test" })
      .first();
    await expect(delivery).toContainText("webhook.test");
    await expect(delivery).toContainText("succeeded");
    await delivery.getByRole("button", { name: "Resend" }).click();
    await expect(page.getByText("Sending it again.")).toBeVisible();
    await expect.poll(() => testEvents().length).toBe(2);
    expect(testEvents()[1]?.headers["webhook-id"]).toBe(test?.headers["webhook-id"]);

    // A private address is refused with the guard's message.
    problems.allow(/^answer 400 POST \/api\/v2\/webhooks\?/);
    await form.getByRole("textbox", { name: "Endpoint URL" }).fill("http://10.1.2.3/hook");
    await form.getByRole("button", { name: "Add webhook" }).click();
    await expect(
      page.getByText("This address is on a private network and cannot be reached from Switchboard."),
    ).toBeVisible();

    await row.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await expect(page.getByText("Webhook deleted.")).toBeVisible();
    await expect(row).toBeHidden();

    // The same form as a window (?createWebhook), its secret shown once, then closed.
    await page.goto("/app/developers?createWebhook");
    const dialog = page.getByRole("dialog", { name: "Add a webhook" });
    await dialog.getByRole("textbox", { name: "Endpoint URL" }).fill(`${receiver.url}/window`);
    await dialog.getByRole("button", { name: "Add webhook" }).click();
    await expect(dialog.getByTestId("shown-once-value")).toHaveText(/^whsec_/);
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("row").filter({ hasText: `${receiver.url}/window` })).toBeVisible();
  } finally {
    await receiver.close();
  }
});

test("the owner makes an API token that calls the API, sees it masked with its last use, and revokes it", async ({
  page,
}) => {
  const description = `E2E token ${Date.now().toString(36)}`;
  await signInAs(page, DEMO.owner, "/app/developers");
  const form = page.getByRole("form", { name: "Create an API token" });
  await form.getByRole("textbox", { name: "Description" }).fill(description);
  await form.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("shown-once-value").textContent())?.trim() ?? "";
  expect(token).toMatch(/^sbk_/);

  // The token calls the API from "a server": Bearer, no browser session.
  const account = await page.request.get("/api/v1/account", {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(account.status()).toBe(200);
  expect((await account.json()).account.accountType).toBe("organization");

  await page.getByRole("button", { name: "Done" }).click();
  await page.reload();
  const row = page.getByTestId("api-token-row").filter({ hasText: description });
  await expect(row).toBeVisible();
  await expect(row).not.toContainText(token);
  await expect(row).not.toContainText("Never");

  await row.getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByText("API token revoked.")).toBeVisible();
  await expect(row).toBeHidden();
  const refused = await page.request.get("/api/v1/account", {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(refused.status()).toBe(401);
});

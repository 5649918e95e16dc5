import { DEMO, expect, signInAs, test, within } from "./helpers.ts";

// Issue 32 item 19: the web app sends the session in the Authorization header (and, for WebSockets, the
// Sec-WebSocket-Protocol header), never as ?token= in an address, where logs, history and referrers keep it.

const TOKEN_IN_ADDRESS = /[?&](token|adminToken)=/;

test("no request or WebSocket of a signed-in journey carries the token in its address", async ({ page }) => {
  const addresses: string[] = [];
  const sockets: string[] = [];
  page.on("request", (request) => addresses.push(request.url()));
  page.on("websocket", (socket) => sockets.push(socket.url()));

  await signInAs(page, DEMO.owner, "/app/dashboard");
  await page.goto("/app/inbox");
  // The inbox's realtime socket signs in with its subprotocol and goes live.
  await expect(page.getByLabel("Realtime live")).toBeVisible({ timeout: within(15_000) });
  await page.goto("/app/logs");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.goto("/app/wallet");
  await expect(page.getByTestId("wallet-balance")).toBeVisible({ timeout: within(15_000) });

  const apiCalls = addresses.filter((url) => new URL(url).pathname.startsWith("/api/"));
  expect(apiCalls.length).toBeGreaterThan(5);
  expect(apiCalls.filter((url) => TOKEN_IN_ADDRESS.test(url))).toEqual([]);
  expect(sockets.length).toBeGreaterThan(0);
  expect(sockets.filter((url) => TOKEN_IN_ADDRESS.test(url))).toEqual([]);
});

test("the super admin's calls carry no adminToken in the address either", async ({ page }) => {
  const addresses: string[] = [];
  page.on("request", (request) => addresses.push(request.url()));
  await signInAs(page, DEMO.superAdmin, "/app/accounts?tab=review");
  await expect(page.getByRole("tab", { name: "Calls for review" })).toHaveAttribute("aria-selected", "true");
  await expect(
    page.getByRole("table", { name: "Calls for review" }).or(page.getByText("No calls need a review")),
  ).toBeVisible({ timeout: within(15_000) });
  const review = addresses.filter((url) => url.includes("/internal/fetchCallsForReview"));
  expect(review.length).toBeGreaterThan(0);
  expect(addresses.filter((url) => TOKEN_IN_ADDRESS.test(url))).toEqual([]);
});

test("a public page's visitor chats without the session in any address", async ({ page }) => {
  const addresses: string[] = [];
  page.on("request", (request) => addresses.push(request.url()));
  await page.goto("/bluebird-front-desk");
  await page.getByRole("textbox", { name: "Your message" }).fill("Are you open on Saturday?");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("log", { name: "Conversation" })).toContainText("Are you open on Saturday?");
  expect(addresses.some((url) => url.includes("/api/v1/messages/"))).toBe(true);
  expect(addresses.filter((url) => TOKEN_IN_ADDRESS.test(url))).toEqual([]);
});

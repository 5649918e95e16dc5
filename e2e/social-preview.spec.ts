import { expect, test } from "./helpers.ts";

// Issue 32 item 18: what a link preview reads from a public page — its own title, a description naming
// the agent once, a PNG card — and a real 404 for a name that is no page.

test("a public page previews with its title, a PNG card, and an unknown name is a 404", async ({
  page,
  problems,
}) => {
  problems.allow(/answer 404 GET \/nobody-has-this-name/);
  const response = await page.goto("/bluebird-front-desk");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle("Front Desk");
  const description = await page.locator('meta[name="description"]').getAttribute("content");
  expect(description).not.toMatch(/Front Desk of Front Desk/);
  const image = (await page.locator('meta[property="og:image"]').getAttribute("content")) ?? "";
  expect(image).toMatch(/\/card\.png$/);
  const card = await page.request.get(new URL(image).pathname);
  expect(card.status()).toBe(200);
  expect(card.headers()["content-type"]).toBe("image/png");
  expect((await card.body()).subarray(1, 4).toString("latin1")).toBe("PNG");

  const missing = await page.goto("/nobody-has-this-name");
  expect(missing?.status()).toBe(404);
  await expect(page).toHaveTitle("Page not found");
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});

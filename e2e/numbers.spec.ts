import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEMO, expect, signInAs, test, within } from "./helpers.ts";
import { CHROMIUM_ARGS } from "./playwright.config.ts";

// Phone numbers (issue 17): the owner searches the sandbox marketplace by area code, gives the After Hours
// agent a number, calls it from the sandbox phone's dial pad (Developers) through the browser's fake
// microphone, and releases it. The After Hours agent is used so the Front Desk's demo number stays as the
// other journeys expect it.

/** The fake microphone: quiet (the agent greets first; nobody speaks). */
function quietWav(): string {
  const dir = path.join(os.tmpdir(), "switchboard-e2e-numbers");
  const file = path.join(dir, "quiet.wav");
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const out = path.join(dir, `quiet.${process.pid}.wav`);
  execFileSync("sox", [
    "-n",
    "-r",
    "16000",
    "-c",
    "1",
    "-b",
    "16",
    "-e",
    "signed-integer",
    out,
    "trim",
    "0",
    "20",
  ]);
  renameSync(out, file);
  return file;
}

test.use({
  permissions: ["microphone"],
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: [
      ...CHROMIUM_ARGS,
      "--use-fake-device-for-media-stream",
      "--use-fake-ui-for-media-stream",
      `--use-file-for-fake-audio-capture=${quietWav()}`,
    ],
  },
});

test("the owner searches, assigns, calls from the sandbox phone and releases a number", async ({ page }) => {
  test.setTimeout(within(120_000));
  await signInAs(page, DEMO.owner, "/app/numbers");
  await expect(page.getByRole("heading", { name: "Numbers", level: 1 })).toBeVisible();
  // The demo Front Desk number is listed.
  const numbers = page.getByRole("table", { name: "Your phone numbers" });
  await expect(numbers).toContainText("+1 (503) 555-0123");

  // Search the marketplace by area code and give the After Hours agent the first number.
  await page.getByRole("button", { name: "Get a number" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Choose a phone number" });
  await dialog.getByRole("combobox", { name: "Agent that answers" }).click();
  await page.getByRole("option", { name: "After Hours" }).click();
  await dialog.getByRole("textbox", { name: "Area code" }).fill("971");
  await dialog.getByRole("button", { name: "Search" }).click();
  const results = dialog.getByRole("table", { name: "Available numbers" });
  const first = results.getByRole("row").first();
  await expect(first).toContainText("Portland, OR");
  const number = (await first.getAttribute("data-number")) as string;
  expect(number).toMatch(/^\+1971\d{7}$/);
  await first.getByRole("button", { name: "Assign" }).click();
  await expect(dialog).toBeHidden();
  const row = numbers.locator(`tr[data-number="${number}"]`);
  await expect(row).toContainText("After Hours");
  await expect(row).toContainText("Sandbox carrier");

  // Call it from the sandbox phone's dial pad: the After Hours agent answers.
  await page.goto("/app/developers");
  const phone = page.getByRole("region", { name: "Sandbox phone" }).or(page.getByLabel("Sandbox phone"));
  await phone.getByRole("textbox", { name: "Number to call" }).fill(number);
  await phone.getByRole("button", { name: "Dial" }).click();
  const panel = phone.getByTestId("call-panel");
  await panel.getByRole("button", { name: "Call", exact: true }).click();
  await expect(panel.getByTestId("call-status")).toHaveText("On the call", { timeout: within(20_000) });
  await expect(panel.getByTestId("caption-agent").first()).not.toBeEmpty({ timeout: within(20_000) });
  await panel.getByRole("button", { name: "Hang up" }).click();
  await expect(panel.getByTestId("call-status")).toHaveText("Call ended");

  // Release it: gone from the list.
  await page.goto("/app/numbers");
  await numbers.locator(`tr[data-number="${number}"]`).getByRole("button", { name: "Release" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Release" }).click();
  await expect(numbers.locator(`tr[data-number="${number}"]`)).toHaveCount(0);
  await expect(numbers).toContainText("+1 (503) 555-0123");
});

// Issue 31 item 5: phone calls are 8 kHz audio, which the offline recogniser (the default) cannot hear.
test("the Numbers page warns when the agents cannot hear phone calls, and names the fix", async ({
  page,
}) => {
  await signInAs(page, DEMO.owner, "/app/numbers");
  const warning = page.getByRole("alert").filter({ hasText: "Your agents cannot hear phone calls well" });
  await expect(warning).toBeVisible();
  await expect(warning).toContainText("STT_PROVIDER=deepgram or openai");
});

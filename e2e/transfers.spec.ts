import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { DEMO, expect, rootSession, signInAs, test, within } from "./helpers.ts";
import { ownerApi as api, frontDeskId } from "./owner-api.ts";
import { CHROMIUM_ARGS } from "./playwright.config.ts";
import { expectListDone } from "./task-list.ts";

// Transfers and keypad menus (issue 35 items 1 and 2): the owner adds a transfer destination in the agent
// editor and, in a browser test call, asks for it: the agent puts the call through, the sandbox carrier's
// simulated person answers (its words in the captions), and Calls shows the transfer and its result. An
// outbound task's agent walks the sandbox's two-level phone menu with keys, and the task and Calls show
// the menu's prompts and the keys pressed. Named after the server file that runs transfers
// (apps/server/src/modules/voice/call-transfer.ts).

const REQUEST = "I want to speak to sales.";
const DESTINATION_SAYS = "Sales, this is Sam.";
const digits = () => String(Math.floor(1000 + Math.random() * 8999));
const suffix = () => Math.random().toString(36).slice(2, 7);

/** The fake microphone's file: 5 s of quiet (the agent greets first), the request, 10 s of quiet. */
function requestWav(): string {
  const dir = path.join(os.tmpdir(), "switchboard-e2e-voice");
  const file = path.join(dir, "i-want-to-speak-to-sales.wav");
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const raw = path.join(dir, `transfer.${process.pid}.raw.wav`);
  const out = path.join(dir, `transfer.${process.pid}.wav`);
  execFileSync("text2wave", ["-eval", "(voice_cmu_us_slt_arctic_hts)", "-o", raw], { input: REQUEST });
  execFileSync("sox", [
    raw,
    "-r",
    "16000",
    "-c",
    "1",
    "-b",
    "16",
    "-e",
    "signed-integer",
    out,
    "pad",
    "5",
    "10",
  ]);
  renameSync(out, file);
  return file;
}

// Only this file's browser has the fake microphone (launch options are per worker, set here).
test.use({
  permissions: ["microphone"],
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: [
      ...CHROMIUM_ARGS,
      "--use-fake-device-for-media-stream",
      "--use-fake-ui-for-media-stream",
      `--use-file-for-fake-audio-capture=${requestWav()}`,
    ],
  },
});

test("an owner defines a transfer destination and hears the transfer happen in a browser test call", async ({
  page,
}) => {
  test.setTimeout(within(90_000));
  const sales = `+1503556${digits()}`;
  // The sandbox carrier's simulated person at that number (there is no screen for the sandbox's callees).
  await api(page.request, "POST", "/api/v1/sandbox/callee", {
    number: sales,
    behaviour: "person",
    says: DESTINATION_SAYS,
  });
  const agentId = await frontDeskId(page.request);
  await signInAs(page, DEMO.owner, `/app/agents?editAgent=${agentId}`);
  const editor = page.getByRole("dialog", { name: "Edit agent" });
  await expect(editor.getByTestId("agent-editor")).toBeVisible();
  await editor.getByRole("navigation", { name: "Agent editor panels" }).getByText("Voices").click();
  await expect(editor.getByRole("heading", { name: "Transfer destinations" })).toBeVisible();
  // The demo agent is shared: a "sales" left by an earlier try of this journey goes first.
  const stale = editor.getByRole("button", { name: "Remove sales", exact: true });
  while ((await stale.count()) > 0) await stale.first().click();
  await editor.getByRole("button", { name: "Add destination" }).click();
  const row = editor.locator('[aria-label^="Transfer destination "]').last();
  await row.getByRole("textbox", { name: "Name" }).fill("sales");
  // A number that is not one is refused before anything is saved.
  const number = row.getByRole("textbox", { name: "Number or SIP address" });
  await number.fill("sales desk");
  await expect(editor.getByRole("button", { name: "Save destinations" })).toBeDisabled();
  await number.fill(sales);
  await editor.getByRole("button", { name: "Save destinations" }).click();
  await expect(page.getByText("Transfer destinations saved.")).toBeVisible();

  await editor.getByRole("button", { name: "Call", exact: true }).click();
  const call = page.getByRole("dialog", { name: "Test call" });
  await call.getByRole("button", { name: "Call", exact: true }).click();
  await expect(call.getByTestId("call-status")).toHaveText("On the call", { timeout: within(15_000) });
  const captions = call.getByRole("log");
  // Chromium's microphone plays the request 5 s in (and loops it every ~17 s).
  await expect(captions.getByTestId("caption-caller").first()).toContainText(/speak to sales/i, {
    timeout: within(40_000),
  });
  // The agent names the destination the owner added, and puts the call through.
  await expect(
    captions.getByTestId("caption-agent").filter({ hasText: "Transferring to sales" }),
  ).toContainText("Transferring to sales (cold).", { timeout: within(15_000) });
  // The sandbox carrier's simulated person answers: its words are captioned as the destination's.
  const destination = captions.getByTestId("caption-destination");
  await expect(destination).toContainText(DESTINATION_SAYS, { timeout: within(15_000) });
  await expect(destination).toContainText("Transfer destination");
  await call.getByRole("button", { name: "Hang up" }).click();
  await expect(call.getByTestId("call-status")).toHaveText("Call ended");

  // Calls: the call was transferred, with the transfer's leg, result and what the person said.
  await call.getByRole("link", { name: "See the call in Calls" }).click();
  const table = page.getByRole("table", { name: "Calls" });
  const callRow = table.getByRole("row").nth(1);
  await callRow.getByRole("button", { name: "Transcript" }).click();
  const transcript = page.getByRole("dialog", { name: "Transcript" });
  await expect(transcript).toContainText(/speak to sales/i, { timeout: within(10_000) });
  await expect(transcript).toContainText("transferCall: Transferring to sales (cold)");
  await expect(transcript).toContainText(
    new RegExp(
      `Transfer to sales \\(\\${sales}, cold, bridged\\): answered \\(ringing after \\d+\\.\\d s\\)\\.`,
    ),
  );
  await expect(transcript).toContainText(`sales: ${DESTINATION_SAYS}`);
  await expect(transcript).toContainText(/The caller ended the transferred call after \d+(\.\d)? s\./);
  await page.keyboard.press("Escape");
  await expect(transcript).toBeHidden();
  // The transfer's result is a column the owner can show (still filtered to this call: other journeys
  // call the same agent meanwhile).
  const thisCall = new URL(page.url());
  thisCall.searchParams.set("fields", "timestamp,transfer,transferResult");
  await page.goto(`${thisCall.pathname}${thisCall.search}`);
  await expect(table.getByRole("columnheader", { name: "Transfer result" })).toBeVisible();
  await expect(table.getByRole("row")).toHaveCount(2);
  const newest = table.getByRole("row").nth(1);
  await expect(newest.getByRole("cell", { name: "Yes", exact: true })).toBeVisible();
  await expect(newest.getByRole("cell", { name: "answered", exact: true })).toBeVisible();
});

/** An agent of its own that presses keys on the menus it calls (the Keypad app), published. */
async function menuAgent(request: APIRequestContext, name: string): Promise<number> {
  const token = encodeURIComponent(await rootSession(request, DEMO.owner));
  const created = await request.post(`/api/v2/createAccount?token=${token}`, { data: { name } });
  expect(created.ok(), await created.text()).toBe(true);
  const agentId = ((await created.json()) as { account: { id: number } }).account.id;
  await api(request, "POST", "/api/v2/apps/keypad/1.0.0", { data: {} });
  await api(request, "POST", "/api/v2/campaign", {
    agentId,
    agentInstructions:
      // No keys named: the agent chooses each from what the menu says (sales for an order, then new orders).
      "You call Acme to place a new order of gloves for Bluebird Dental.",
    apps: [{ appId: "keypad", version: "1.0.0" }],
    enabledFunctions: { "keypad@1.0.0": ["sendDtmf"] },
  });
  await api(request, "POST", "/api/v2/agent/publish", { agentId });
  return agentId;
}

test("an outbound task walks a two-level sandbox IVR with keys", async ({ page }) => {
  test.setTimeout(within(90_000));
  const agentName = `Orders ${suffix()}`;
  await menuAgent(page.request, agentName);
  const menu = `+1503557${digits()}`;
  await api(page.request, "POST", "/api/v1/sandbox/callee", { number: menu, behaviour: "ivr" });
  await api(page.request, "POST", "/api/v2/tasks/limits", {
    callingHoursStart: "00:00",
    callingHoursEnd: "23:59",
    dailyLimit: 1000,
    maxConcurrent: 5,
  });

  await signInAs(page, DEMO.owner, "/app/tasks");
  await expect(page.getByText("Live", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Upload list" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Upload a list" });
  const agent = dialog.getByRole("combobox", { name: "Agent" });
  await agent.click();
  await page.getByRole("option", { name: new RegExp(agentName) }).click();
  await expect(agent).toHaveValue(new RegExp(agentName));
  await dialog.getByText("Call", { exact: true }).click();
  await dialog.locator('input[type="file"]').setInputFiles({
    name: "suppliers.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`Phone,Name\n${menu},Acme Supplies\n`),
  });
  const listName = `Supplies ${suffix()}`;
  await dialog.getByRole("textbox", { name: "List name" }).fill(listName);
  await dialog.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(dialog.getByRole("status").filter({ hasText: "Imported 1 of 1 row into" })).toBeVisible({
    timeout: within(15_000),
  });
  await dialog.getByRole("button", { name: "Done" }).click();

  const list = page.getByRole("region", { name: `List ${listName}` });
  await expectListDone(page, list, 1, "1 completed", 60_000);
  await list.getByRole("button", { name: "Show its tasks" }).click();
  const taskRow = page.getByRole("table", { name: "Tasks" }).getByTestId("task-row").filter({
    hasText: "Acme Supplies",
  });
  await expect(taskRow.getByTestId("task-outcome")).toHaveText("Answered");
  await taskRow.getByTestId("open-task").click();
  const task = page.getByRole("dialog", { name: "Task" });
  await expect(task.getByTestId("task-detail-outcome")).toHaveText("Answered");
  // The menu's prompts as the agent heard them (the sandbox line tells its words), each answered by a key:
  // 1 (sales), then 3 (new orders), the end of the menu; no key was refused.
  const transcript = task.getByRole("region", { name: "Transcript" });
  const heard = transcript.locator('[data-role="user"]');
  await expect(heard).toHaveText([
    /Welcome to Acme\. For sales, press 1\. For support, press 2\.$/,
    /Sales\. For new orders, press 3\. For billing, press 4\.$/,
    /You have reached new orders\. Please hold for the next agent\. Goodbye\.$/,
  ]);
  await expect(transcript).not.toContainText("Sorry, that is not an option.");

  // Calls: the keys are the call's collected data.
  await task.getByRole("button", { name: "Full transcript" }).click();
  const full = page.getByRole("dialog", { name: "Transcript" });
  await expect(full).toContainText("sendDtmf: Pressed 1");
  await expect(full).toContainText("sendDtmf: Pressed 3");
  await page.goto("/app/logs?fields=timestamp,toNumber,keysPressed");
  const table = page.getByRole("table", { name: "Calls" });
  await expect(table.getByRole("columnheader", { name: "Keys pressed" })).toBeVisible();
  const callRow = table.getByRole("row").filter({ hasText: menu.slice(-4) });
  await expect(callRow.getByRole("cell", { name: "1 3", exact: true })).toBeVisible();
});

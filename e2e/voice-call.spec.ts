import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { DEMO, expect, rootSession, signInAs, test, within } from "./helpers.ts";
import { CHROMIUM_ARGS } from "./playwright.config.ts";

// The browser test call (issue 16, transport 1): Chromium's fake microphone plays a question synthesised at
// test time (festival's HTS voice, as the offline recogniser knows it best; sox makes it 16 kHz mono with
// silence around it, and Chromium loops the file), the web app streams it to the call's WebSocket through
// its AudioWorklet, and the agent's answer comes back as speech and captions. Named after the web feature
// (apps/web/src/features/voice) and the server module (apps/server/src/modules/voice).

const QUESTION = "Do you see children?";
/** The default recording notice, and the refusal of a notice out of range (packages/api routes/voice.ts). */
const NOTICE = "This call may be recorded.";
const RECORDING_NOTICE_MESSAGE =
  "Enter a recording notice of 1 to 300 characters; callers hear it before the greeting.";

/** The fake microphone's file: 5 s of quiet (the agent greets first), the question, 10 s of quiet. */
function questionWav(): string {
  const dir = path.join(os.tmpdir(), "switchboard-e2e-voice");
  const file = path.join(dir, "do-you-see-children.wav");
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const raw = path.join(dir, `question.${process.pid}.raw.wav`);
  const out = path.join(dir, `question.${process.pid}.wav`);
  execFileSync("text2wave", ["-eval", "(voice_cmu_us_slt_arctic_hts)", "-o", raw], { input: QUESTION });
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
      `--use-file-for-fake-audio-capture=${questionWav()}`,
    ],
  },
});

async function frontDeskId(request: APIRequestContext): Promise<number> {
  const token = encodeURIComponent(await rootSession(request, DEMO.owner));
  const response = await request.get(`/api/v2/listAccounts?token=${token}&pagination=false`);
  const { accounts } = (await response.json()) as { accounts: { id: number; displayName: string }[] };
  const agent = accounts.find((account) => account.displayName === "Front Desk");
  expect(agent, "the demo Front Desk agent").toBeTruthy();
  return (agent as { id: number }).id;
}

test("the owner calls the Front Desk agent from the editor, asks a question and hears the answer", async ({
  page,
}) => {
  test.setTimeout(within(120_000));
  const agentId = await frontDeskId(page.request);
  await signInAs(page, DEMO.owner, `/app/agents?editAgent=${agentId}`);
  const editor = page.getByRole("dialog", { name: "Edit agent" });
  await expect(editor.getByTestId("agent-editor")).toBeVisible();
  // Recording is on by default (Voices panel), with the notice callers hear before the greeting.
  await editor.getByRole("navigation", { name: "Agent editor panels" }).getByText("Voices").click();
  await expect(editor.getByRole("switch", { name: "Record calls" })).toBeChecked();
  const notice = editor.getByRole("textbox", { name: "Recording notice" });
  await expect(notice).toHaveValue(NOTICE);
  // A notice that is too long is refused with a clear message, and nothing is saved.
  await notice.fill("x".repeat(301));
  await expect(editor.getByText(RECORDING_NOTICE_MESSAGE)).toBeVisible();
  await expect(editor.getByRole("button", { name: "Save call settings" })).toBeDisabled();
  await notice.fill(NOTICE);
  await editor.getByRole("button", { name: "Call", exact: true }).click();

  const call = page.getByRole("dialog", { name: "Test call" });
  await call.getByRole("button", { name: "Call", exact: true }).click();
  await expect(call.getByTestId("call-status")).toHaveText("On the call", { timeout: within(15_000) });
  const captions = call.getByRole("log");
  // The call is recorded: the agent's first words are the notice, then its greeting.
  await expect(captions.getByTestId("caption-agent").first()).toContainText(NOTICE, {
    timeout: within(15_000),
  });
  // The greeting, as far as the caller heard it: whole, or on a busy machine it starts late enough for the
  // question (the looping microphone file) to start over it, and the caller's words cut it (seen on CI:
  // "…Bluebird Dental, how can I").
  await expect(
    captions.getByTestId("caption-agent").filter({ hasText: "Thank you for calling Bluebird Dental" }),
  ).toBeVisible({ timeout: within(15_000) });
  // The microphone is live: its level moves while the question plays. Chromium loops the file (about 17 s);
  // on a busy machine the greeting can end after the question's first pass, so this waits up to a loop more.
  const meter = call.getByRole("progressbar", { name: "Microphone level" });
  await expect
    .poll(async () => Number(await meter.getAttribute("aria-valuenow")), { timeout: within(30_000) })
    .toBeGreaterThan(0);
  await expect(captions.getByTestId("caption-caller").first()).toHaveText(/do you see children/i, {
    timeout: within(40_000),
  });
  await expect(
    captions.getByTestId("caption-agent").filter({ hasText: "Yes, we see children from age 3" }),
  ).toContainText("Yes, we see children from age 3, and their first visit is free.", {
    timeout: within(15_000),
  });

  await call.getByRole("button", { name: "Mute" }).click();
  await expect(call.getByRole("button", { name: "Unmute" })).toHaveAttribute("aria-pressed", "true");
  await call.getByRole("button", { name: "Hang up" }).click();
  await expect(call.getByTestId("call-status")).toHaveText("Call ended");
  await expect(call.getByTestId("call-ended")).toHaveText("You hung up.");

  // The call is in Calls, with its transcript.
  await call.getByRole("link", { name: "See the call in Calls" }).click();
  const row = page.getByRole("table", { name: "Calls" }).getByRole("row").nth(1);
  await row.getByRole("button", { name: "Transcript" }).click();
  const transcript = page.getByRole("dialog", { name: "Transcript" });
  await expect(transcript).toContainText("do you see children", { timeout: within(10_000) });
  await expect(transcript).toContainText("Yes, we see children from age 3, and their first visit is free.");

  // Its recording plays in the call details (a stereo WAV, caller left, agent right), with the transcript
  // following along: the line being heard is marked, and clicking a line plays from there.
  await page.keyboard.press("Escape");
  await expect(transcript).toBeHidden();
  await row.getByRole("button", { name: "More about this call" }).click();
  await page.getByRole("menuitem", { name: "Call details" }).click();
  const details = page.getByRole("dialog", { name: "Call details" });
  const audio = details.getByLabel("Call recording");
  await expect(audio).toBeVisible();
  const src = (await audio.getAttribute("src")) as string;
  expect(src).toMatch(/\/files\/recordings\/[0-9a-f]+\.wav$/);
  await expect
    .poll(async () => audio.evaluate((element: HTMLAudioElement) => element.readyState), {
      timeout: within(10_000),
    })
    .toBeGreaterThanOrEqual(1);
  expect(await audio.evaluate((element: HTMLAudioElement) => element.duration)).toBeGreaterThan(5);
  const lines = details.getByRole("group", { name: "Transcript" });
  // (The greeting may be cut short by the question, which the fake microphone plays after 5 s whatever the
  // agent is saying, and then loops: a line that was not heard at all is not listed.)
  const line = (text: string | RegExp) => lines.getByRole("button").filter({ hasText: text }).first();
  await expect(lines.getByRole("button").first()).toContainText(NOTICE);
  await expect(line("Yes, we see children from age 3")).toBeVisible();
  await line(/do you see children/i).click();
  await expect(line(/do you see children/i)).toHaveAttribute("aria-current", "true");
  await expect
    .poll(async () => audio.evaluate((element: HTMLAudioElement) => element.currentTime))
    .toBeGreaterThan(1);
  // Back to the start: the notice is the line being heard.
  await audio.evaluate((element: HTMLAudioElement) => {
    element.pause();
    element.currentTime = 0.05;
  });
  await expect(lines.getByRole("button").first()).toHaveAttribute("aria-current", "true");
  await expect(line(/do you see children/i)).not.toHaveAttribute("aria-current", "true");
  const wav = await page.request.get(src);
  expect(wav.headers()["content-type"]).toBe("audio/wav");
  const bytes = await wav.body();
  expect(bytes.readUInt16LE(22)).toBe(2); // channels
  expect(bytes.readUInt32LE(24)).toBe(16_000); // sample rate
});

test("a colleague sees the call in progress in Calls, listens in, and hangs it up", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(within(90_000));
  const agentId = await frontDeskId(page.request);
  await signInAs(page, DEMO.admin, `/app/agents?editAgent=${agentId}`);
  const editor = page.getByRole("dialog", { name: "Edit agent" });
  await expect(editor.getByTestId("agent-editor")).toBeVisible();
  await editor.getByRole("button", { name: "Call", exact: true }).click();
  const call = page.getByRole("dialog", { name: "Test call" });
  await call.getByRole("button", { name: "Call", exact: true }).click();
  await expect(call.getByTestId("call-status")).toHaveText("On the call", { timeout: within(15_000) });

  // The owner, in another browser, sees it among the calls in progress and listens in.
  const watcherContext = await browser.newContext({ baseURL });
  try {
    const watcher = await watcherContext.newPage();
    await signInAs(watcher, DEMO.owner, "/app/logs");
    await watcher.getByRole("button", { name: /^Live calls \d+ in progress$/ }).click();
    const list = watcher.getByRole("dialog", { name: "Calls in progress" });
    const row = list.getByRole("row").filter({ hasText: DEMO.admin });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("Front Desk");
    await expect(row).toContainText("Test call");
    await row.getByRole("button", { name: /^Listen in/ }).click();
    const live = watcher.getByRole("dialog", { name: "Live call" });
    await expect(live.getByText("Live", { exact: true })).toBeVisible();
    const transcript = live.getByLabel("Live transcript");
    // The call opens with the recording notice, as far as it was heard: Chromium's looping microphone may
    // ask the question over it, and then the caller is answered rather than greeted.
    await expect(transcript).toContainText("This", { timeout: within(15_000) });
    await expect(transcript).toContainText(/do you see children/i, { timeout: within(25_000) });
    await expect(transcript).toContainText("Yes, we see children from age 3", { timeout: within(15_000) });

    await live.getByRole("button", { name: "Hang up" }).click();
    await expect(live.getByRole("status").filter({ hasText: "The call has ended." })).toBeVisible();
    await expect(live.getByText("Ended", { exact: true })).toBeVisible();
    // The caller hears the agent end the call.
    await expect(call.getByTestId("call-status")).toHaveText("Call ended", { timeout: within(10_000) });
    await expect(call.getByTestId("call-ended")).toHaveText("Someone in your team ended the call.");
  } finally {
    await watcherContext.close();
  }
});

test("a visitor of the agent's public page talks to it in the browser", async ({ page }) => {
  test.setTimeout(within(90_000));
  await page.goto("/bluebird-front-desk");
  const chat = page.getByRole("region", { name: "Chat with Front Desk" });
  await chat.getByRole("button", { name: "Talk to Front Desk" }).click();
  const status = chat.locator("#call-status");
  await expect(status).toHaveText("On the call", { timeout: within(15_000) });
  const call = chat.getByRole("log", { name: "Call" });
  // The recording notice first (cut short if the visitor's looping microphone talks over it, and then the
  // visitor is answered rather than greeted).
  await expect(call.locator(".msg.agent").first()).toContainText("This", {
    timeout: within(15_000),
  });
  await expect(call.locator(".msg.visitor").first()).toHaveText(/do you see children/i, {
    timeout: within(25_000),
  });
  await expect(
    call
      .locator(".msg.agent")
      .filter({ hasText: "Yes, we see children from age 3, and their first visit is free." }),
  ).toHaveCount(1, { timeout: within(15_000) });
  await expect(call).not.toContainText("{");
  await chat.getByRole("button", { name: "Hang up" }).click();
  await expect(status).toHaveText("You hung up.");
  await expect(chat.getByRole("button", { name: "Talk to Front Desk" })).toBeVisible();
});

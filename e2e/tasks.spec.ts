import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { DEMO, expect, signInAs, test, within } from "./helpers.ts";
import { layoutProblems } from "./layout.ts";
import { ownerApi as api, frontDeskId } from "./owner-api.ts";
import { expectListDone } from "./task-list.ts";

// Tasks (issue 18): the owner uploads a CSV with a bad row, sees the row's error, and watches the good
// rows run as texts through the sandbox carrier with counts and outcomes updating live (a handset's reply
// makes one "Replied"); pauses a list and resumes it; adds one task by hand; and a call list is answered
// by the sandbox's simulated person and voicemail, which gets the voicemail message the owner set in the
// agent's editor. The journeys change the organisation's task limits, so
// they run one after the other.

test.describe.configure({ mode: "serial" });

/** The demo Front Desk agent's number (apps/server/src/demo/demo-inbox.ts), which the tasks text from. */
const AGENT_NUMBER = "+15035550123";

const digits = () => String(Math.floor(1000 + Math.random() * 8999));
const suffix = () => Math.random().toString(36).slice(2, 7);

/** Calling hours that are always open and room for the day, so the journeys do not depend on the clock. */
async function openAllDay(request: APIRequestContext) {
  await api(request, "POST", "/api/v2/tasks/limits", {
    callingHoursStart: "00:00",
    callingHoursEnd: "23:59",
    dailyLimit: 1000,
    maxConcurrent: 5,
  });
}

/**
 * Chooses the demo Front Desk agent in a dialog's Agent select. The dialog preselects the first agent with
 * a number, which another journey running meanwhile may change (numbers.spec.ts gives one a number).
 */
async function chooseFrontDesk(page: Page, dialog: Locator): Promise<void> {
  const agent = dialog.getByRole("combobox", { name: "Agent" });
  await expect(agent).not.toHaveValue("");
  if (!(await agent.inputValue()).includes("Front Desk")) {
    await agent.click();
    await page.getByRole("option", { name: /Front Desk/ }).click();
  }
  await expect(agent).toHaveValue(/Front Desk/);
}

async function uploadList(
  page: Page,
  options: { name: string; csv: string; channel: "Text" | "Call"; message?: string },
): Promise<Locator> {
  // The header's button (the empty state offers one too).
  await page.getByRole("button", { name: "Upload list" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Upload a list" });
  await chooseFrontDesk(page, dialog);
  if (options.channel === "Call") await dialog.getByText("Call", { exact: true }).click();
  await dialog
    .locator('input[type="file"]')
    .setInputFiles({ name: "people.csv", mimeType: "text/csv", buffer: Buffer.from(options.csv) });
  await dialog.getByRole("textbox", { name: "List name" }).fill(options.name);
  if (options.message) await dialog.getByRole("textbox", { name: "Message" }).fill(options.message);
  return dialog;
}

test("a CSV with a bad row: the row's error, the good rows texted with live counts and outcomes", async ({
  page,
}) => {
  test.setTimeout(within(120_000));
  const ann = `+1503557${digits()}`;
  const bo = `+1503558${digits()}`;
  const listName = `Recall ${suffix()}`;
  await signInAs(page, DEMO.owner, "/app/tasks");
  await expect(page.getByRole("heading", { level: 1, name: "Tasks" })).toBeVisible();
  await expect(page.getByText("Live", { exact: true })).toBeVisible();
  // The journeys of this file run side by side in the demo organisation, so its list may already hold another
  // journey's tasks: the empty state is asserted in tasks-page.test.tsx.

  // The limits through the taskSettings overlay: open all day.
  await page.getByRole("button", { name: "Settings" }).click();
  const settings = page.getByRole("dialog", { name: "Task settings" });
  await expect(settings.getByRole("textbox", { name: "Attempts a day" })).toHaveValue(/\d/);
  await settings.getByLabel("Calling hours from").fill("00:00");
  await settings.getByLabel("Calling hours until").fill("23:59");
  await settings.getByRole("textbox", { name: "Attempts a day" }).fill("1000");
  await settings.getByRole("button", { name: "Save settings" }).click();
  await expect(settings).toBeHidden();

  // The upload: the mapping preview of the first rows, then the result with the bad row's line and reason.
  const csv = `Phone,Name,Appointment\n${ann},Ann Test,Tuesday\nnot a number,Bad Row,Wednesday\n${bo},Bo Test,Thursday\n`;
  const dialog = await uploadList(page, {
    name: listName,
    csv,
    channel: "Text",
    message: "Hi {name}, see you {Appointment}. Reply to confirm.",
  });
  const mapping = dialog.getByRole("table", { name: "Column mapping preview" });
  await expect(mapping.getByRole("columnheader", { name: /Phone\s*Phone number/ })).toBeVisible();
  await expect(mapping.getByRole("columnheader", { name: /Name\s*Name/ })).toBeVisible();
  await expect(mapping.getByRole("columnheader", { name: /Appointment\s*\{Appointment\}/ })).toBeVisible();
  await expect(mapping.getByRole("row")).toHaveCount(4);
  await expect(dialog.getByRole("combobox", { name: "Phone number column" })).toHaveValue("Phone");
  // A check first (dryRun): the bad row is named and nothing is imported yet.
  await dialog.getByRole("button", { name: "Check rows" }).click();
  await expect(dialog.getByRole("status").filter({ hasText: "2 of 3 rows can be imported." })).toBeVisible({
    timeout: within(15_000),
  });
  await expect(dialog.getByTestId("row-error")).toContainText("Not a valid phone number.");
  await dialog.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(dialog.getByRole("status").filter({ hasText: "Imported 2 of 3 rows" })).toBeVisible({
    timeout: within(15_000),
  });
  await expect(dialog.getByText("1 row was left out.", { exact: false })).toBeVisible();
  const error = dialog.getByTestId("row-error");
  await expect(error).toHaveCount(1);
  await expect(error).toContainText("3");
  await expect(error).toContainText("Not a valid phone number.");
  await expect(error).toContainText("not a number");
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();

  // The list runs through the sandbox carrier; its counts come in live, without a reload.
  const list = page.getByRole("region", { name: `List ${listName}` });
  await expectListDone(page, list, 2, "2 completed", 30_000);
  await expect(list.getByText("1 of 3 rows was left out (errors).")).toBeVisible();
  await list.getByRole("button", { name: "Show its tasks" }).click();
  const table = page.getByRole("table", { name: "Tasks" });
  await expect(table.getByTestId("task-row")).toHaveCount(2);
  const annRow = table.getByTestId("task-row").filter({ hasText: "Ann Test" });
  await expect(annRow.getByTestId("task-state")).toHaveText("Completed");
  await expect(annRow.getByTestId("task-outcome")).toHaveText("—");

  // Ann answers on her handset: her task's outcome and the list's outcomes turn "replied" live.
  await api(page.request, "POST", "/api/v1/sandbox/sms/inbound", {
    from: ann,
    to: AGENT_NUMBER,
    text: "Yes, Tuesday works",
  });
  await expect(annRow.getByTestId("task-outcome")).toHaveText("Replied", { timeout: within(15_000) });
  await expect(list.getByTestId("list-outcomes")).toHaveText("1 replied");

  // The outcome filter, and the task's detail with its transcript.
  await page.getByRole("combobox", { name: "Outcome" }).click();
  await page.getByRole("option", { name: "Replied" }).click();
  await expect(table.getByTestId("task-row")).toHaveCount(1);
  await annRow.getByTestId("open-task").click();
  const detail = page.getByRole("dialog", { name: "Task" });
  await expect(detail.getByTestId("task-detail-outcome")).toHaveText("Replied");
  const transcript = detail.getByRole("region", { name: "Transcript" });
  await expect(transcript.getByText("Hi Ann Test, see you Tuesday. Reply to confirm.")).toBeVisible();
  await expect(transcript.getByText("Yes, Tuesday works")).toBeVisible();
  await expect(transcript.getByRole("link", { name: "Open in the inbox" })).toBeVisible();
});

test("pausing a list holds its tasks, resuming runs them; one task added by hand", async ({ page }) => {
  test.setTimeout(within(120_000));
  await openAllDay(page.request);
  const listName = `Reminders ${suffix()}`;
  const people = [`+1503559${digits()}`, `+1503550${digits()}`];
  await signInAs(page, DEMO.owner, "/app/tasks");
  await expect(page.getByText("Live", { exact: true })).toBeVisible();

  // The daily limit is reached (attempts today = the limit): a new list waits.
  const stats = (await api(page.request, "GET", "/api/v2/tasks/stats")) as {
    stats: { attemptsToday: number };
  };
  const reached = Math.max(1, stats.stats.attemptsToday);
  await api(page.request, "POST", "/api/v2/tasks/limits", { dailyLimit: reached });
  const dialog = await uploadList(page, {
    name: listName,
    csv: `phone number,first name\n${people[0]},Cy\n${people[1]},Di\n`,
    channel: "Text",
    message: "Hello {first name}, a reminder from Bluebird Dental.",
  });
  await dialog.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(dialog.getByRole("status").filter({ hasText: "Imported 2 of 2 rows" })).toBeVisible({
    timeout: within(15_000),
  });
  await dialog.getByRole("button", { name: "Done" }).click();
  const list = page.getByRole("region", { name: `List ${listName}` });
  await expect(list.getByTestId("list-counts")).toContainText("0 of 2 done");
  await expect(list.getByTestId("list-counts")).toContainText("2 waiting");

  // Paused, the list's tasks wait even once the limit allows them.
  await list.getByRole("button", { name: "Pause" }).click();
  await expect(list.getByTestId("list-state")).toHaveText("Paused");
  await api(page.request, "POST", "/api/v2/tasks/limits", { dailyLimit: 1000 });
  await page.waitForTimeout(2000);
  await expect(list.getByTestId("list-counts")).toContainText("0 of 2 done");

  // Resumed, they run.
  await list.getByRole("button", { name: "Resume" }).click();
  // Two texts may be sent before the page shows the list running: it may already say it finished.
  await expect(list.getByTestId("list-state")).toHaveText(/^(Running|Finished)$/);
  await expectListDone(page, list, 2, "2 completed", 30_000);
  // Nothing left to run: the list says it finished, as the bell does (issue 32 item 4).
  await expect(list.getByTestId("list-state")).toHaveText("Finished");

  // One task by hand (createTask): it runs and shows in the table.
  const person = `+1503551${digits()}`;
  await page.getByRole("button", { name: "New task" }).click();
  const create = page.getByRole("dialog", { name: "New task" });
  await chooseFrontDesk(page, create);
  await create.getByRole("textbox", { name: "Phone number" }).fill(person);
  await create.getByRole("textbox", { name: "Name" }).fill("Eve Manual");
  await create.getByRole("textbox", { name: "Message" }).fill("Hi {name}, your {item} is ready.");
  await create.getByRole("textbox", { name: "Variables" }).fill("item: night guard");
  await create.getByRole("button", { name: "Add task" }).click();
  await expect(create).toBeHidden();
  const row = page.getByTestId("task-row").filter({ hasText: "Eve Manual" });
  await expect(row.getByTestId("task-state")).toHaveText("Completed", { timeout: within(30_000) });
  await row.getByTestId("open-task").click();
  const detail = page.getByRole("dialog", { name: "Task" });
  await expect(detail.getByText("Hi Eve Manual, your night guard is ready.").first()).toBeVisible();
});

/** The demo Front Desk agent's account id. */

test("a call list: the sandbox's simulated person answers, its simulated voicemail takes the message", async ({
  page,
}) => {
  test.setTimeout(within(240_000));
  await openAllDay(page.request);
  // The owner sets the Front Desk agent's voicemail message ({name} is each row's name) and publishes it.
  const message = `Hi {name}, this is Bluebird Dental returning your call ${suffix()}. Please call us back.`;
  await signInAs(page, DEMO.owner, `/app/agents?editAgent=${await frontDeskId(page.request)}`);
  const editor = page.getByRole("dialog", { name: "Edit agent" });
  await expect(editor.getByTestId("agent-editor")).toBeVisible();
  await expect(editor.getByRole("radio", { name: "Leave a message" })).toBeChecked();
  await editor.getByRole("textbox", { name: "Voicemail message" }).fill(message);
  await expect(editor.getByTestId("save-status")).toHaveText("All changes saved", {
    timeout: within(10_000),
  });
  await editor.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(editor.getByText("Published", { exact: true })).toBeVisible({ timeout: within(10_000) });

  const person = `+1503552${digits()}`;
  const voicemail = `+1503553${digits()}`;
  await api(page.request, "POST", "/api/v1/sandbox/callee", { number: person, behaviour: "person" });
  await api(page.request, "POST", "/api/v1/sandbox/callee", { number: voicemail, behaviour: "voicemail" });
  const listName = `Call back ${suffix()}`;
  await page.goto("/app/tasks");
  await expect(page.getByText("Live", { exact: true })).toBeVisible();
  const dialog = await uploadList(page, {
    name: listName,
    csv: `Phone,Name\n${person},Pat Person\n${voicemail},Vic Voicemail\n`,
    channel: "Call",
  });
  await expect(dialog.getByRole("textbox", { name: "Message" })).toHaveCount(0);
  await dialog.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(dialog.getByRole("status").filter({ hasText: "Imported 2 of 2 rows" })).toBeVisible({
    timeout: within(15_000),
  });
  await dialog.getByRole("button", { name: "Done" }).click();

  // Both calls ring at once (concurrency 5) and end with the answering-machine decision.
  const list = page.getByRole("region", { name: `List ${listName}` });
  await expect(list.getByText("Calls by Front Desk", { exact: false })).toBeVisible();
  await expectListDone(page, list, 2, "2 completed", 150_000);
  await list.getByRole("button", { name: "Show its tasks" }).click();
  const rows = page.getByRole("table", { name: "Tasks" }).getByTestId("task-row");
  const patRow = rows.filter({ hasText: "Pat Person" });
  await expect(patRow.getByTestId("task-outcome")).toHaveText("Answered");
  // The voicemail greeting then its beep is a machine: the agent leaves the owner's message, word for word.
  const vicRow = rows.filter({ hasText: "Vic Voicemail" });
  await expect(vicRow.getByTestId("task-outcome")).toHaveText("Voicemail left");
  await vicRow.getByTestId("open-task").click();
  const vic = page.getByRole("dialog", { name: "Task" });
  await expect(vic.getByTestId("task-detail-outcome")).toHaveText("Voicemail left");
  await expect(vic.getByText(/^machine \(decided in \d+\.\d s\)$/)).toBeVisible();
  const vicTranscript = vic.getByRole("region", { name: "Transcript" }).locator('[data-role="assistant"]');
  await expect(vicTranscript).toHaveCount(1);
  await expect(vicTranscript).toContainText(message.replace("{name}", "Vic Voicemail"));
  await page.keyboard.press("Escape");
  await expect(vic).toBeHidden();

  await patRow.getByTestId("open-task").click();
  const detail = page.getByRole("dialog", { name: "Task" });
  await expect(detail.getByTestId("task-detail-outcome")).toHaveText("Answered");
  await expect(detail.getByText(/^person \(decided in \d+\.\d s\)$/)).toBeVisible();
  const transcript = detail.getByRole("region", { name: "Transcript" });
  await expect(transcript.locator('[data-role="assistant"]').first()).toContainText(
    "This call may be recorded.",
  );
  // The agent placed the call: after the notice it opens as the caller, not with "Thank you for calling"
  // (issue 32 item 8).
  await expect(transcript.locator('[data-role="assistant"]').nth(1)).toContainText(
    "Hi, this is Front Desk from Bluebird Dental.",
  );
  await expect(transcript).not.toContainText("Thank you for calling");
});

test("at 550 px the page, its lists and table, and every task overlay fit", async ({ page }) => {
  test.setTimeout(within(90_000));
  await page.setViewportSize({ width: 550, height: 900 });
  await signInAs(page, DEMO.owner, "/app/tasks");
  // The lists and tasks of the journeys above.
  await expect(page.getByRole("region", { name: "Lists" })).toBeVisible();
  await expect(page.getByTestId("task-row").first()).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(await layoutProblems(page), "the Tasks page at 550 px").toEqual([]);

  await page.getByTestId("task-row").first().getByRole("button").first().click();
  await expect(
    page.getByRole("dialog", { name: "Task" }).getByRole("region", { name: "Transcript" }),
  ).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(await layoutProblems(page), "a task's detail at 550 px").toEqual([]);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "Task" })).toBeHidden();

  const dialog = await uploadList(page, {
    name: "Narrow",
    csv: "Phone,Name,Email,Time zone,Favourite dentist,Next appointment\n+15035550199,A very long name indeed,a.very.long.address@example.com,America/Los_Angeles,Dr. Lee,Tuesday 10am\n",
    channel: "Text",
  });
  await expect(dialog.getByRole("table", { name: "Column mapping preview" })).toBeVisible();
  expect(await layoutProblems(page), "the upload with its preview at 550 px").toEqual([]);
  await dialog.getByRole("button", { name: "Cancel" }).click();

  for (const [overlay, name] of [
    ["createTask", "New task"],
    ["taskSettings", "Task settings"],
  ] as const) {
    await page.goto(`/app/tasks?${overlay}=true`);
    await expect(page.getByRole("dialog", { name }).getByRole("button").last()).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(await layoutProblems(page), `${overlay} at 550 px`).toEqual([]);
  }
});

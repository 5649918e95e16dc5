import type { APIRequestContext } from "@playwright/test";
import { DEMO, expect, signInAs, test, within } from "./helpers.ts";
import { ownerApi as api, frontDeskId } from "./owner-api.ts";

// Issue 32 items 17 and 2: a text task and a call task to the same person make one inbox thread, the call
// in it as a call entry with its transcript; Calls lists the call, never the text as a 0:00 call.

type Task = { id: string; state: string; conversationUuid: string | null };

async function runTask(request: APIRequestContext, body: Record<string, unknown>): Promise<Task> {
  const { task } = (await api(request, "POST", "/api/v2/tasks", body)) as { task: Task };
  let done = task;
  await expect
    .poll(
      async () => {
        done = ((await api(request, "GET", `/api/v2/tasks/${task.id}`)) as { task: Task }).task;
        return done.state;
      },
      { timeout: within(120_000) },
    )
    .toBe("completed");
  return done;
}

test("a text task and a call task to one person: one inbox thread with the text and the call", async ({
  page,
}) => {
  test.setTimeout(within(300_000));
  const digits = String(Math.floor(1000 + Math.random() * 8999));
  const number = `+1503556${digits}`;
  const shown = `+1 (503) 556-${digits}`;
  await api(page.request, "POST", "/api/v2/tasks/limits", {
    callingHoursStart: "00:00",
    callingHoursEnd: "23:59",
    dailyLimit: 1000,
    maxConcurrent: 5,
  });
  await api(page.request, "POST", "/api/v1/sandbox/callee", { number, behaviour: "person" });
  const agentId = await frontDeskId(page.request);
  const reminder = `Your cleaning is on Friday (${digits}).`;
  const text = await runTask(page.request, { agentId, phoneNumber: number, message: reminder });
  const call = await runTask(page.request, { agentId, channel: "call", phoneNumber: number, name: "Ann" });

  // The inbox: one thread for the person, holding the text and the call.
  await signInAs(page, DEMO.owner, "/app/inbox");
  await expect(page.getByRole("heading", { name: "Inbox" })).toBeVisible();
  const rows = page.getByRole("listitem", { name: new RegExp(shown.replace(/[()+]/g, "\\$&")) });
  await expect(rows).toHaveCount(1);
  await rows.click();
  const messages = page.getByLabel(`Conversation with ${shown}`).getByLabel("Messages");
  // The conversation loads on a machine busy with the call pipeline: give it the time a busy machine takes.
  await expect(messages.getByText(reminder)).toBeVisible({ timeout: within(15_000) });
  const callEntry = messages.getByRole("group", { name: /^Call / });
  await expect(callEntry).toHaveCount(1);
  await expect(callEntry.getByText("Hi, this is Front Desk from Bluebird Dental.")).toBeVisible();
  // The text is no line of the call.
  await expect(callEntry.getByText(reminder)).toHaveCount(0);

  // Calls: the call alone (the text is no 0:00 call); the text is listed under Texts.
  const filters = encodeURIComponent(JSON.stringify({ toNumber: number }));
  await page.goto(`/app/logs?filters=${filters}`);
  const table = page.getByRole("table", { name: "Calls" });
  await expect(page.getByLabel("Call count")).toHaveText(/^1 call$/);
  await expect(table.locator("tbody tr")).toHaveCount(1);
  await page.getByRole("radiogroup", { name: "Show" }).getByText("Texts", { exact: true }).click();
  await expect(page.getByLabel("Count", { exact: true })).toHaveText(/^1 text$/);
  await expect(table.locator("tbody tr")).toHaveCount(1);
  expect(text.conversationUuid).not.toBe(call.conversationUuid);
});

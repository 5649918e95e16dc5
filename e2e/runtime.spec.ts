import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { DEMO, expect, rootSession, signInAs, test } from "./helpers.ts";

// Testing an agent in the browser (issue 6): the sandbox model answers from the agent's instructions and
// books through the schedule tool, and the booking shows in the agent's schedule.
// Named as the server module that runs agents and their test chat (apps/server/src/modules/runtime) and
// the web feature with the test overlay (apps/web/src/features/runtime).

async function frontDeskId(request: APIRequestContext): Promise<number> {
  const token = encodeURIComponent(await rootSession(request, DEMO.owner));
  const response = await request.get(`/api/v2/listAccounts?token=${token}&pagination=false`);
  const { accounts } = (await response.json()) as { accounts: { id: number; displayName: string }[] };
  const agent = accounts.find((account) => account.displayName === "Front Desk");
  expect(agent, "the demo Front Desk agent").toBeTruthy();
  return (agent as { id: number }).id;
}

/** Types a message and sends it with Enter once the agent has finished answering (Send is enabled then). */
async function say(dialog: Locator, text: string) {
  await dialog.getByRole("textbox", { name: "Message" }).fill(text);
  await expect(dialog.getByRole("button", { name: "Send" })).toBeEnabled();
  await dialog.getByRole("textbox", { name: "Message" }).press("Enter");
}

/** Opens the test chat of the demo Front Desk agent as its owner; answers the dialog and its conversation. */
async function openTestChat(page: Page) {
  const agentId = await frontDeskId(page.request);
  await signInAs(page, DEMO.owner, `/app/agents?testAgent=${agentId}`);
  const dialog = page.getByRole("dialog", { name: "Test agent" });
  return { agentId, dialog, log: dialog.getByRole("log") };
}

test("the owner tests the Front Desk agent: an answer from its instructions, then a booking", async ({
  page,
}) => {
  const { agentId, dialog, log } = await openTestChat(page);
  await expect(log.getByTestId("chat-assistant").first()).toContainText(
    "Thank you for calling Bluebird Dental, how can I help you today?",
  );
  await expect(dialog.getByTestId("chat-model")).toHaveText("Answered by: Sandbox model");
  // What the sandbox cannot do is said to the owner here, never to the person the agent answers.
  await expect(dialog.getByTestId("chat-model-note")).toContainText("Settings → AI model");

  const message = dialog.getByRole("textbox", { name: "Message" });
  await say(dialog, "What are your opening hours?");
  await expect(log.getByTestId("chat-user")).toContainText("What are your opening hours?");
  await expect(log.getByTestId("chat-assistant").nth(1)).toContainText("Opening hours: Mon-Fri 8am-5pm.");

  await message.fill("I'd like to book a cleaning tomorrow at 3pm, my name is Jane Doe");
  await dialog.getByRole("button", { name: "Send" }).click();
  const step = log.getByTestId("tool-step");
  await expect(step).toContainText("bookAppointment");
  await expect(step).toContainText(/Booked \w{3} \d{1,2} \w{3}, 3:00 pm for Jane Doe/);

  await dialog.getByRole("button", { name: "Close" }).click();
  await page.goto(`/app/agents?schedule=${agentId}`);
  const schedule = page.getByRole("dialog", { name: "Schedule" });
  await expect(schedule.getByTestId("booking").filter({ hasText: "Jane Doe" })).toContainText("3:00");
  await expect(schedule.getByTestId("booking").filter({ hasText: "Jane Doe" })).toContainText("By the agent");

  // The conversation is kept in the conversation logs as a web chat, with its transcript; a test chat is
  // not a call, so Calls does not list it (issue 32 item 2).
  const token = encodeURIComponent(await rootSession(page.request, DEMO.owner));
  const bookings = await page.request.get(`/api/v1/schedule?token=${token}&agentId=${agentId}`);
  const booking = (
    (await bookings.json()) as { bookings: { name: string; uuid: string | null }[] }
  ).bookings.find((item) => item.name === "Jane Doe");
  expect(booking?.uuid, "the booking names its conversation").toBeTruthy();
  const filters = encodeURIComponent(JSON.stringify({ uuid: booking?.uuid }));
  const kept = await page.request.get(`/api/v2/logs?token=${token}&channel=web&filters=${filters}`);
  const [chat] = ((await kept.json()) as { logs: { roomId: string; uuid: string; source: string }[] }).logs;
  expect(chat).toMatchObject({ uuid: booking?.uuid, source: "test" });
  const said = await page.request.get(`/api/v2/conversation/${chat?.roomId}/${chat?.uuid}?token=${token}`);
  expect(JSON.stringify(await said.json())).toContain("Opening hours: Mon-Fri 8am-5pm.");
  await page.goto(`/app/logs?filters=${filters}`);
  await expect(page.getByText("No calls in this date range match these filters.")).toBeVisible();
});

test("restarting starts a new conversation with the greeting, and the published copy can answer", async ({
  page,
}) => {
  const { dialog, log } = await openTestChat(page);
  await expect(log.getByTestId("chat-assistant")).toHaveCount(1);
  await say(dialog, "Is there parking?");
  await expect(log.getByTestId("chat-assistant")).toHaveCount(2);
  await dialog.getByText("Published", { exact: true }).click();
  await expect(log.getByTestId("chat-user")).toHaveCount(0);
  await expect(log.getByTestId("chat-assistant")).toHaveCount(1);
  await expect(log.getByTestId("chat-assistant")).toContainText("Thank you for calling Bluebird Dental");
});

test.describe("in a browser on Tokyo time", () => {
  test.use({ timezoneId: "Asia/Tokyo" });

  test("the organisation's schedule shows a booking at the time the caller booked, in the agent's zone", async ({
    page,
  }) => {
    // Issue #23 item 8: a 10:00 am booking of the Front Desk (Los Angeles) showed in another zone.
    const { dialog, log } = await openTestChat(page);
    await expect(log.getByTestId("chat-assistant").first()).toBeVisible();
    await say(dialog, "I'd like to book a cleaning tomorrow at 10am, my name is Kim Lee");
    await expect(log.getByTestId("tool-step")).toContainText(
      /Booked \w{3} \d{1,2} \w{3}, 10:00 am for Kim Lee/,
    );
    await dialog.getByRole("button", { name: "Close" }).click();
    await page.goto("/app/agents?schedule");
    const schedule = page.getByRole("dialog", { name: "Schedule" });
    const booking = schedule.getByTestId("booking").filter({ hasText: "Kim Lee" });
    await expect(booking).toContainText(/^10:00\sAM – 10:30\sAM/);
    await expect(schedule.getByText(/^Times in .*Pacific/)).toBeVisible();
  });
});

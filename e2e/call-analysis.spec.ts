import { DEMO, expect, signInAs, test, within } from "./helpers.ts";
import { ownerApi as api, frontDeskId } from "./owner-api.ts";

// Post-call analysis (issue 35 item 3): the owner defines a field in the agent editor's Analysis panel, a
// call ends (the agent calls the sandbox carrier's simulated person), and Calls → call details shows its
// summary, verdict and field. Named as the server file that analyses calls (modules/runtime/call-analysis.ts).

test("the owner defines a field; a finished call shows its summary, verdict and field in Calls", async ({
  page,
}) => {
  test.setTimeout(within(120_000));
  const agentId = await frontDeskId(page.request);
  await signInAs(page, DEMO.owner, `/app/agents?editAgent=${agentId}/analysis`);
  const editor = page.getByRole("dialog").filter({ has: page.getByText("Success rule") });
  await editor
    .getByRole("textbox", { name: "Success rule" })
    .fill("booked an appointment or answered the question");
  await editor.getByRole("button", { name: "Add field" }).click();
  const field = editor.getByTestId("analysis-field");
  await field.getByRole("textbox", { name: "Name" }).fill("reason");
  await field.getByRole("textbox", { name: "Description" }).fill("Why they talked with us");
  await expect(page.getByTestId("save-status")).toHaveText("All changes saved", { timeout: within(10_000) });
  const { staging } = await api(page.request, "GET", `/api/v2/campaigns?agentId=${agentId}`);
  expect(staging.analysis.fields).toEqual([
    { name: "reason", type: "text", description: "Why they talked with us", options: [] },
  ]);
  await api(page.request, "POST", "/api/v2/agent/publish", { agentId });

  // A call: the agent calls the simulated person, who answers and talks.
  const person = `+1503554${String(Math.floor(1000 + Math.random() * 8999))}`;
  await api(page.request, "POST", "/api/v1/sandbox/callee", {
    number: person,
    behaviour: "person",
    says: "Hello, I wanted to ask about your opening hours.",
  });
  const placed = await api(page.request, "POST", "/api/v2/outboundCall", { agentId, to: person });
  const callId = placed.call.callId as string;
  await expect
    .poll(async () => (await api(page.request, "GET", `/api/v2/outboundCall/${callId}`)).call.status, {
      timeout: within(90_000),
      intervals: [1000],
    })
    .toBe("completed");

  await page.goto("/app/logs");
  const table = page.getByRole("table", { name: "Calls" });
  const row = table
    .getByRole("row")
    .filter({ hasText: person.slice(-4) })
    .first();
  await row.getByRole("button", { name: "More about this call" }).click();
  await page.getByRole("menuitem", { name: "Call details" }).click();
  const details = page.getByRole("dialog", { name: "Call details" });
  // Written by the analysis job shortly after the call ended: reopen until it is there.
  await expect(async () => {
    if (!(await details.getByTestId("call-analysis").isVisible())) {
      await page.keyboard.press("Escape");
      await page.reload();
      await table
        .getByRole("row")
        .filter({ hasText: person.slice(-4) })
        .first()
        .getByRole("button", { name: "More about this call" })
        .click();
      await page.getByRole("menuitem", { name: "Call details" }).click();
    }
    await expect(details.getByTestId("call-analysis")).toBeVisible({ timeout: within(2000) });
  }).toPass({ timeout: within(30_000) });
  const analysis = details.getByTestId("call-analysis");
  await expect(analysis).toContainText("Analysis");
  await expect(analysis.getByText(/^(Successful|Not successful|No verdict)$/)).toBeVisible();
  // The summary names the agent; the field shows its value or that it could not be determined (the
  // offline recogniser may not make out the simulated person's 8 kHz phone audio).
  await expect(analysis).toContainText("Front Desk");
  await expect(analysis.getByText(/^(Met|Not met|Could not be determined): /)).toBeVisible();
  await expect(analysis.getByRole("row").filter({ hasText: "reason" })).toBeVisible();
});

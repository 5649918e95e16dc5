import { expect, signUpOwner, test, within } from "./helpers.ts";

// Calendars and integrations (issue 20): a new owner connects Google Calendar through the (sandbox) consent
// page, picks the calendar bookings go to, enables Calendly with a personal access token, and checks a JobNimbus key (a refused key shows
// JobNimbus's status; a good one its workflows and team).

test("an owner connects Google Calendar, Calendly and JobNimbus from Integrations", async ({
  page,
  problems,
}) => {
  // Three providers and a trip through the consent page: a long journey.
  test.setTimeout(within(90_000));
  await signUpOwner(page, "Calendar Clinic", "calendar");
  const appPath = new URL(page.url()).pathname;
  await page.goto(`${appPath}?integrations=calendar`);
  const dialog = page.getByRole("dialog", { name: "Integrations" });
  const google = dialog.locator('[aria-label="Google Calendar"]');
  // The overlay is its own chunk, loaded on first open.
  await expect(google.getByText("Not connected")).toBeVisible({ timeout: within(20_000) });

  await google.getByRole("button", { name: "Connect Google Calendar" }).click();
  await expect(page).toHaveURL(/\/sandbox\/google\/consent/);
  await expect(
    page.getByRole("heading", { name: "Switchboard wants to access your Google Calendar" }),
  ).toBeVisible();
  await page
    .getByRole("textbox", { name: "Sandbox Google account" })
    .fill("frontdesk@calendar-clinic.example");
  await page.getByRole("button", { name: "Allow" }).click();

  await expect(page).toHaveURL(/calendarConnected=google/);
  await expect(dialog.getByText("Google Calendar is connected.", { exact: false })).toBeVisible({
    timeout: within(20_000),
  });
  await expect(google.getByText("Connected as frontdesk@calendar-clinic.example")).toBeVisible();
  await google.getByRole("combobox", { name: "Bookings go to" }).click();
  await page.getByRole("option", { name: "Team calendar" }).click();
  await expect(google.getByTestId("saved-note")).toBeVisible();

  const calendly = dialog.locator('[aria-label="Calendly"]');
  await calendly.getByLabel("Personal access token").fill("wrong-token");
  await calendly.getByRole("button", { name: "Enable Calendly" }).click();
  problems.allow(/\/api\/v2\/calendly/);
  await expect(calendly.getByRole("alert")).toContainText("Calendly did not accept this token.");
  await calendly.getByLabel("Personal access token").fill("sandbox_calendar_clinic_pat");
  await calendly.getByRole("button", { name: "Enable Calendly" }).click();
  await expect(calendly.getByText("Your agent books 30 Minute Meeting.", { exact: false })).toBeVisible();

  // Schedule points to the calendars while it has nothing to show.
  await page.goto(`${appPath}?schedule`);
  const schedule = page.getByRole("dialog", { name: "Schedule" });
  await expect(schedule.getByText("No upcoming bookings.", { exact: false })).toBeVisible();
  await schedule.getByRole("button", { name: "Connect a calendar" }).click();
  await expect(
    page.getByRole("dialog", { name: "Integrations" }).locator('[aria-label="Calendly"]'),
  ).toContainText("Enabled for");

  await page.goto(`${appPath}?integrations=jobnimbus`);
  const jobNimbus = page.getByRole("dialog", { name: "Integrations" }).locator('[aria-label="JobNimbus"]');
  await jobNimbus.getByLabel("JobNimbus API key").fill("not-a-jobnimbus-key");
  await jobNimbus.getByRole("button", { name: "Check and save" }).click();
  await expect(jobNimbus.getByRole("alert")).toContainText("JobNimbus refused the key (401)");
  await jobNimbus.getByLabel("JobNimbus API key").fill("sandbox_jobnimbus_key");
  await jobNimbus.getByRole("button", { name: "Check and save" }).click();
  await expect(jobNimbus.getByText("Roof replacement: Lead → Inspection booked")).toBeVisible();
  await expect(jobNimbus.getByText("Connected", { exact: true })).toBeVisible();
  await jobNimbus.getByRole("button", { name: "Show team" }).click();
  await expect(
    jobNimbus.getByRole("table", { name: "JobNimbus team" }).getByText("Dana Ortiz"),
  ).toBeVisible();
});

import * as api from "@switchboard/api";
import { wallTimeOf } from "@switchboard/core";
import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectRefusal, type TestClient, testClient } from "../../../test/api-client.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { parseServerSentEvents } from "../../../test/model-protocol-server.ts";
import { calendarConnections, sandboxCalendarEvents, scheduleBookings } from "../../db/schema/index.ts";
import { encryptSecret } from "../../providers/llm/key-encryption.ts";

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
let client: TestClient;
let token: string;
let agentId: number;
let orgId: number;

const owner = () => client(token);
const agentCall = () => client(token, agentId);

/** The sandbox Google consent, as a browser goes through it: consent page, Allow, back to our callback. */
async function connectSandboxGoogle(email: string, decision: "allow" | "deny" = "allow") {
  const { url } = await owner().call(api.connectGoogle, {
    body: { returnTo: "/app/settings?integrations=calendar" },
  });
  const consent = new URL(url);
  expect(consent.pathname).toBe("/sandbox/google/consent");
  const page = await app.inject({ method: "GET", url: `${consent.pathname}${consent.search}` });
  expect(page.statusCode).toBe(200);
  expect(page.body).toContain("Switchboard wants to access your Google Calendar");
  const answer = await app.inject({
    method: "POST",
    url: "/sandbox/google/consent",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams({
      state: consent.searchParams.get("state") ?? "",
      redirect_uri: consent.searchParams.get("redirect_uri") ?? "",
      email,
      decision,
    }).toString(),
  });
  expect(answer.statusCode).toBe(303);
  const callback = new URL(answer.headers.location as string);
  expect(callback.pathname).toBe("/api/v1/google/callback");
  const back = await app.inject({ method: "GET", url: `${callback.pathname}${callback.search}` });
  expect(back.statusCode).toBe(302);
  return back.headers.location as string;
}

async function chat(message: string, uuid?: string) {
  const res: unknown = await agentCall().call(api.testChat, {
    body: { agentId, ...(uuid ? { uuid, message } : { stage: "staging" as const }) },
  });
  // biome-ignore lint/suspicious/noExplicitAny: events are asserted field by field.
  return parseServerSentEvents(res as string) as { event: string; data: any }[];
}

/** Tomorrow at `hour`:00 in Los Angeles, as the sandbox model reads "tomorrow at 3pm". */
function tomorrowAt(hour: number): Date {
  const today = wallTimeOf(Date.now(), "America/Los_Angeles");
  // Whole quarter hours in UTC are whole quarter hours in Los Angeles too.
  const first = Math.ceil(Date.now() / 900_000) * 900_000;
  for (let t = first; t < first + 3 * 86_400_000; t += 900_000) {
    const wall = wallTimeOf(t, "America/Los_Angeles");
    if (wall.day !== today.day && wall.hour === hour && wall.minute === 0) return new Date(t);
  }
  throw new Error(`no ${hour}:00 tomorrow`);
}

beforeAll(async () => {
  app = await buildTestApp();
  world = await buildHierarchy(app);
  client = testClient(app);
  token = world.members.o1Owner.token;
  agentId = world.accounts.A1.id;
  orgId = world.accounts.O1.id;
  await owner().call(api.saveCampaign, {
    body: {
      agentId,
      agentInstructions: "Opening hours: Mon-Fri 8am-6pm.",
      timezone: "America/Los_Angeles",
      apps: [{ appId: "schedule", version: "1.0.0" }],
      enabledFunctions: { "schedule@1.0.0": ["checkAvailability", "bookAppointment"] },
      actions: [{ name: "schedule", durationMinutes: 30, hours: "08:00-18:00" }],
    },
  });
});
afterAll(async () => {
  await app.close();
});

describe("Google Calendar (sandbox)", () => {
  it("is disconnected until connected", async () => {
    const status = await owner().call(api.getGoogleCalendars, {});
    expect(status).toMatchObject({ connected: false, state: "disconnected", calendars: [], main: null });
    await expectRefusal(
      owner().call(api.setGoogleMainCalendar, { body: { calendar: "x" } }),
      400,
      api.CALENDAR_MESSAGES.googleNotConnected,
    );
  });

  it("says so when the user cancels the consent", async () => {
    const location = await connectSandboxGoogle("frontdesk@bluebird.example", "deny");
    expect(new URL(location, "http://x").searchParams.get("calendarError")).toBe(
      api.CALENDAR_MESSAGES.consentDenied,
    );
    expect((await owner().call(api.getGoogleCalendars, {})).connected).toBe(false);
  });

  it("refuses a forged or stale state", async () => {
    const back = await app.inject({
      method: "GET",
      url: "/api/v1/google/callback?code=abc&state=forged.state",
    });
    expect(back.statusCode).toBe(302);
    expect(new URL(back.headers.location as string, "http://x").searchParams.get("calendarError")).toBe(
      api.CALENDAR_MESSAGES.badState,
    );
  });

  it("connects through the consent page and lists the account's calendars with the primary as main", async () => {
    const location = await connectSandboxGoogle("frontdesk@bluebird.example");
    expect(location).toBe("/app/settings?integrations=calendar&calendarConnected=google");
    const status = await owner().call(api.getGoogleCalendars, {});
    expect(status).toMatchObject({
      connected: true,
      state: "connected",
      account: "frontdesk@bluebird.example",
      main: { id: "frontdesk@bluebird.example" },
      inherited: false,
    });
    expect(status.calendars.map((c) => c.summary)).toEqual(["frontdesk@bluebird.example", "Team calendar"]);
    // An agent without its own connection uses its organisation's.
    expect(await agentCall().call(api.getGoogleCalendars, {})).toMatchObject({
      connected: true,
      inherited: true,
    });
    // Credentials are stored encrypted.
    const [row] = await app.context.database.db
      .select()
      .from(calendarConnections)
      .where(eq(calendarConnections.accountId, orgId));
    expect(row?.credentialsEncrypted).toMatch(/^v1:/);
    expect(row?.credentialsEncrypted).not.toContain("sbxat");
  });

  it("changes the main calendar only to one of the account's", async () => {
    await expectRefusal(
      owner().call(api.setGoogleMainCalendar, { body: { calendar: "someone-else@example.com" } }),
      400,
      api.CALENDAR_MESSAGES.unknownCalendar,
    );
    const { calendars } = await owner().call(api.getGoogleCalendars, {});
    const team = calendars.find((c) => c.summary === "Team calendar");
    const status = await owner().call(api.setGoogleMainCalendar, { body: { calendar: team?.id ?? "" } });
    expect(status.main).toEqual({ id: team?.id, summary: "Team calendar" });
    expect(await owner().call(api.getGoogleMainCalendar, {})).toEqual({
      success: true,
      calendar: status.main,
    });
  });

  it("books the agent's appointment into the main calendar and the schedule", async () => {
    const start = await chat("");
    const uuid = start[0]?.data.uuid as string;
    const events = await chat("I'd like to book a cleaning tomorrow at 3pm, my name is Jane Doe", uuid);
    const result = events.find((e) => e.event === "tool-result")?.data;
    expect(result?.summary).toMatch(/^Booked .* 3:00 pm for Jane Doe$/);
    const { calendar: main } = await owner().call(api.getGoogleMainCalendar, {});
    const inGoogle = await app.context.database.db
      .select()
      .from(sandboxCalendarEvents)
      .where(
        and(
          eq(sandboxCalendarEvents.calendarId, main?.id ?? ""),
          eq(sandboxCalendarEvents.status, "confirmed"),
        ),
      );
    expect(inGoogle).toHaveLength(1);
    expect(inGoogle[0]).toMatchObject({
      title: "Appointment with Jane Doe",
      owner: "frontdesk@bluebird.example",
    });
    expect(inGoogle[0]?.startAt.getTime()).toBe(tomorrowAt(15).getTime());
    const { bookings } = await owner().call(api.getSchedule, {});
    expect(bookings.find((b) => b.name === "Jane Doe")).toMatchObject({
      calendar: "google",
      source: "agent",
    });
  });

  it("does not offer or book a time the Google calendar has busy", async () => {
    const { calendar: main } = await owner().call(api.getGoogleMainCalendar, {});
    const busyStart = tomorrowAt(11);
    await app.context.database.db.insert(sandboxCalendarEvents).values({
      provider: "google",
      owner: "frontdesk@bluebird.example",
      calendarId: main?.id ?? "",
      startAt: busyStart,
      endAt: new Date(busyStart.getTime() + 60 * 60_000),
      title: "Team meeting",
    });
    const refused = await expectRefusal(
      owner().call(api.bookScheduleTime, {
        body: { agentId, start: busyStart.getTime() + 30 * 60_000, name: "Tom" },
      }),
      400,
      api.CALENDAR_MESSAGES.timeTaken,
    );
    expect(refused.status).toBe(400);
    const booked = await owner().call(api.bookScheduleTime, {
      body: { agentId, start: busyStart.getTime() + 60 * 60_000, name: "Tom", notes: "By hand" },
    });
    expect(booked.booking).toMatchObject({
      name: "Tom",
      source: "manual",
      calendar: "google",
      status: "booked",
    });
    const cancelled = await owner().call(api.cancelScheduleBooking, {
      params: { bookingId: booked.booking.id },
    });
    expect(cancelled.booking.status).toBe("cancelled");
    const [external] = await app.context.database.db
      .select()
      .from(sandboxCalendarEvents)
      .where(eq(sandboxCalendarEvents.title, "Appointment with Tom"));
    expect(external?.status).toBe("cancelled");
  });

  it("refreshes an expired access token and keeps working", async () => {
    const db = app.context.database.db;
    const [row] = await db.select().from(calendarConnections).where(eq(calendarConnections.accountId, orgId));
    const refreshToken = (await import("../../providers/llm/key-encryption.ts")).decryptSecret;
    const stored = JSON.parse(refreshToken(app.context.secretKey, row?.credentialsEncrypted ?? ""));
    await db
      .update(calendarConnections)
      .set({
        credentialsEncrypted: encryptSecret(
          app.context.secretKey,
          JSON.stringify({ ...stored, expiresAt: Date.now() - 1000 }),
        ),
      })
      .where(eq(calendarConnections.id, row?.id ?? 0));
    expect((await owner().call(api.getGoogleCalendars, {})).calendars).toHaveLength(2);
    const [after] = await db
      .select()
      .from(calendarConnections)
      .where(eq(calendarConnections.id, row?.id ?? 0));
    const fresh = JSON.parse(refreshToken(app.context.secretKey, after?.credentialsEncrypted ?? ""));
    expect(fresh.expiresAt).toBeGreaterThan(Date.now());
    expect(fresh.refreshToken).toBe(stored.refreshToken);
  });

  it("marks the connection broken when Google refuses it, and the agent says so instead of booking", async () => {
    const db = app.context.database.db;
    const [row] = await db.select().from(calendarConnections).where(eq(calendarConnections.accountId, orgId));
    await db
      .update(calendarConnections)
      .set({
        credentialsEncrypted: encryptSecret(
          app.context.secretKey,
          JSON.stringify({ token: "revoked", refreshToken: "revoked", expiresAt: Date.now() - 1000 }),
        ),
      })
      .where(eq(calendarConnections.id, row?.id ?? 0));
    const refused = await expectRefusal(
      owner().call(api.bookScheduleTime, { body: { agentId, start: tomorrowAt(16).getTime(), name: "Ann" } }),
      400,
    );
    expect(refused.message).toContain("Google Calendar is disconnected");
    const status = await owner().call(api.getGoogleCalendars, {});
    expect(status).toMatchObject({ connected: false, state: "broken" });
    expect(status.brokenReason).toContain("Google refused the connection");
    // A broken connection is skipped: bookings go to the own schedule until it is reconnected.
    const booked = await owner().call(api.bookScheduleTime, {
      body: { agentId, start: tomorrowAt(16).getTime(), name: "Ann" },
    });
    expect(booked.booking.calendar).toBeNull();
    await owner().call(api.disconnectGoogle, {});
    expect((await owner().call(api.getGoogleCalendars, {})).state).toBe("disconnected");
  });
});

describe("Calendly (sandbox)", () => {
  it("refuses a token Calendly does not accept", async () => {
    await expectRefusal(
      owner().call(api.enableCalendly, { body: { userPAT: "not-a-real-token" } }),
      400,
      api.CALENDAR_MESSAGES.badCalendlyToken,
    );
    await expectRefusal(owner().call(api.enableCalendly, { body: { userPAT: "  " } }), 400);
    expect((await owner().call(api.getCalendly, {})).enabled).toBe(false);
  });

  it("enables with a token, lists the event types and books the first one", async () => {
    const status = await agentCall().call(api.enableCalendly, {
      body: { userPAT: "sandbox_pat_bluebird_0001" },
    });
    expect(status).toMatchObject({ enabled: true, state: "connected", inherited: false });
    expect(status.eventTypes.map((t) => t.name)).toEqual(["30 Minute Meeting", "15 Minute Call"]);
    expect(status.eventType).toBe(status.eventTypes[0]?.uri);
    // The organisation itself has none; the agent has its own.
    expect((await owner().call(api.getCalendly, {})).enabled).toBe(false);
    const noEmail = await expectRefusal(
      owner().call(api.bookScheduleTime, { body: { agentId, start: tomorrowAt(9).getTime(), name: "Kim" } }),
      400,
    );
    expect(noEmail.message).toContain("e-mail");
    const booked = await owner().call(api.bookScheduleTime, {
      body: { agentId, start: tomorrowAt(9).getTime(), name: "Kim", email: "kim@example.com" },
    });
    expect(booked.booking).toMatchObject({ calendar: "calendly", status: "booked" });
    const [bookingRow] = await app.context.database.db
      .select()
      .from(scheduleBookings)
      .where(eq(scheduleBookings.id, booked.booking.id));
    expect(bookingRow?.externalId).toMatch(/\/scheduled_events\/\d+$/);
    // The time is now busy in Calendly too.
    await expectRefusal(
      owner().call(api.bookScheduleTime, {
        body: { agentId, start: tomorrowAt(9).getTime(), name: "Lee", email: "lee@example.com" },
      }),
      400,
      api.CALENDAR_MESSAGES.timeTaken,
    );
    await agentCall().call(api.disableCalendly, {});
    expect((await agentCall().call(api.getCalendly, {})).enabled).toBe(false);
  });
});

describe("integration settings and JobNimbus (sandbox)", () => {
  it("keeps app data per slug with secrets masked", async () => {
    expect(await owner().call(api.getIntegration, { params: { slug: "zapier" } })).toMatchObject({
      appData: {},
      updatedAt: null,
    });
    const saved = await owner().call(api.saveIntegration, {
      params: { slug: "zapier" },
      body: { appData: { hookUrl: "https://hooks.example.com/1", apiKey: "zk_live_1234567890" } },
    });
    expect(saved.appData).toEqual({ hookUrl: "https://hooks.example.com/1", apiKey: "zk_…7890" });
    // Sending the masked value back keeps the stored secret.
    const again = await owner().call(api.saveIntegration, {
      params: { slug: "zapier" },
      body: { appData: { hookUrl: "https://hooks.example.com/2", apiKey: "zk_…7890" } },
    });
    expect(again.appData).toEqual({ hookUrl: "https://hooks.example.com/2", apiKey: "zk_…7890" });
    await expectRefusal(owner().call(api.getIntegration, { params: { slug: "Bad Slug" } }), 400);
  });

  it("answers valid false plus status for a key JobNimbus refuses", async () => {
    expect(
      await owner().call(api.jobNimbusSettings, { body: { authorization: "Bearer wrong-key" } }),
    ).toEqual({
      valid: false,
      status: 401,
      message: "JobNimbus answered 401 Unauthorized",
    });
  });

  it("checks and saves a key, then reads the team for a day with the saved key", async () => {
    const settings = await owner().call(api.jobNimbusSettings, {
      body: { authorization: "Bearer sandbox_jn_key_42" },
    });
    expect(settings.valid).toBe(true);
    expect(settings.workflows?.map((w) => w.name)).toContain("Roof replacement");
    const stored = await owner().call(api.getIntegration, { params: { slug: "jobnimbus" } });
    expect(stored.appData.apiKey).toBe("san…y_42");
    const team = await owner().call(api.jobNimbusTeam, { body: { targetDate: "2026-12-01" } });
    expect(team).toMatchObject({ valid: true, targetDate: "2026-12-01" });
    expect(team.team?.map((m) => m.name)).toEqual(["Dana Ortiz", "Lee Park", "Sam Reyes"]);
    await expectRefusal(
      owner().call(api.jobNimbusTeam, { body: { targetDate: "tomorrow" } }),
      400,
      /targetDate/,
    );
  });
});

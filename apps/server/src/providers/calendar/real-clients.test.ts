import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CalendarAuthError, CalendarError } from "./calendar-api.ts";
import { calendlyClient } from "./calendly.ts";
import { googleCalendarClient } from "./google-calendar.ts";

/**
 * The real Google Calendar and Calendly clients against a loopback server that answers as those APIs do
 * (their documented paths, auth headers and bodies): what the clients send is checked request by request.
 */

type Seen = { method: string; path: string; headers: IncomingMessage["headers"]; body: string };
let server: Server;
let base: string;
const seen: Seen[] = [];
let answer: (request: Seen) => [number, unknown] = () => [404, {}];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const request = { method: req.method ?? "GET", path: req.url ?? "/", headers: req.headers, body };
      seen.push(request);
      const [status, json] = answer(request);
      res
        .writeHead(status, { "content-type": "application/json" })
        .end(status === 204 ? undefined : JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const idToken = (email: string) => `x.${Buffer.from(JSON.stringify({ email })).toString("base64url")}.y`;

describe("Google Calendar client", () => {
  const google = () =>
    googleCalendarClient(
      {
        clientId: "cid",
        clientSecret: "csecret",
        accountsUrl: base,
        tokenUrl: `${base}/token`,
        apiUrl: base,
      },
      () => 1_000_000,
    );

  it("sends the user to the consent page with offline access and the calendar scopes", () => {
    const url = new URL(
      google().authorizationUrl({ state: "s1", redirectUri: "https://app.example/cb", loginHint: "a@b.c" }),
    );
    expect(url.pathname).toBe("/o/oauth2/v2/auth");
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: "cid",
      redirect_uri: "https://app.example/cb",
      response_type: "code",
      access_type: "offline",
      prompt: "consent",
      state: "s1",
      login_hint: "a@b.c",
    });
    expect(url.searchParams.get("scope")).toContain("https://www.googleapis.com/auth/calendar.events");
  });

  it("exchanges the code as a form post and reads the e-mail of the ID token", async () => {
    answer = () => [
      200,
      { access_token: "at1", expires_in: 3599, refresh_token: "rt1", id_token: idToken("me@example.com") },
    ];
    const tokens = await google().exchangeCode("code-1", "https://app.example/cb");
    expect(tokens).toEqual({
      accessToken: "at1",
      refreshToken: "rt1",
      expiresAt: 1_000_000 + 3_599_000,
      email: "me@example.com",
    });
    const request = seen.at(-1) as Seen;
    expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({
      code: "code-1",
      redirect_uri: "https://app.example/cb",
      grant_type: "authorization_code",
      client_id: "cid",
      client_secret: "csecret",
    });
  });

  it("turns invalid_grant on refresh into an auth error", async () => {
    answer = () => [400, { error: "invalid_grant", error_description: "Token has been expired or revoked." }];
    await expect(google().refresh("old")).rejects.toThrow(CalendarAuthError);
    await expect(google().refresh("old")).rejects.toThrow("Token has been expired or revoked.");
  });

  it("lists writable calendars, reads free/busy, inserts and deletes events with the bearer token", async () => {
    answer = (request) => {
      if (request.path.startsWith("/calendar/v3/users/me/calendarList")) {
        return [
          200,
          {
            items: [
              { id: "me@example.com", summary: "me@example.com", primary: true, timeZone: "Europe/Paris" },
            ],
          },
        ];
      }
      if (request.path === "/calendar/v3/freeBusy") {
        return [
          200,
          {
            calendars: {
              "me@example.com": { busy: [{ start: "2030-01-01T10:00:00Z", end: "2030-01-01T11:00:00Z" }] },
            },
          },
        ];
      }
      if (request.method === "POST") return [200, { id: "evt1", htmlLink: "https://calendar.example/evt1" }];
      return [204, null];
    };
    const client = google();
    expect(await client.listCalendars("at1")).toEqual([
      { id: "me@example.com", summary: "me@example.com", primary: true, timeZone: "Europe/Paris" },
    ]);
    expect((seen.at(-1) as Seen).headers.authorization).toBe("Bearer at1");
    const busy = await client.freeBusy(
      "at1",
      "me@example.com",
      new Date("2030-01-01T00:00:00Z"),
      new Date("2030-01-02T00:00:00Z"),
    );
    expect(busy).toEqual([
      { start: new Date("2030-01-01T10:00:00Z"), end: new Date("2030-01-01T11:00:00Z") },
    ]);
    expect(JSON.parse((seen.at(-1) as Seen).body)).toEqual({
      timeMin: "2030-01-01T00:00:00.000Z",
      timeMax: "2030-01-02T00:00:00.000Z",
      items: [{ id: "me@example.com" }],
    });
    const created = await client.insertEvent("at1", "me@example.com", {
      start: new Date("2030-01-01T12:00:00Z"),
      end: new Date("2030-01-01T12:30:00Z"),
      title: "Appointment with Jane",
      description: "Phone: +15035550100",
      timeZone: "Europe/Paris",
      attendee: { name: "Jane", email: "jane@example.com" },
    });
    expect(created).toEqual({ id: "evt1" });
    const insert = seen.at(-1) as Seen;
    expect(insert.path).toBe("/calendar/v3/calendars/me%40example.com/events");
    expect(JSON.parse(insert.body)).toMatchObject({
      summary: "Appointment with Jane",
      start: { dateTime: "2030-01-01T12:00:00.000Z", timeZone: "Europe/Paris" },
      attendees: [{ email: "jane@example.com", displayName: "Jane" }],
    });
    await client.deleteEvent("at1", "me@example.com", "evt1");
    expect(seen.at(-1) as Seen).toMatchObject({
      method: "DELETE",
      path: "/calendar/v3/calendars/me%40example.com/events/evt1",
    });
  });

  it("answers 401 as an auth error and 5xx as a calendar error", async () => {
    answer = () => [401, { error: { code: 401, message: "Invalid Credentials" } }];
    await expect(google().listCalendars("bad")).rejects.toThrow(CalendarAuthError);
    answer = () => [503, { error: { code: 503, message: "Backend Error" } }];
    await expect(google().listCalendars("at1")).rejects.toThrow(CalendarError);
    await expect(google().listCalendars("at1")).rejects.toThrow("Google answered 503: Backend Error");
  });
});

describe("Calendly client", () => {
  const calendly = () => calendlyClient(base, () => Date.parse("2030-01-01T00:00:00Z"));

  it("reads the current user and active event types with the token", async () => {
    answer = (request) =>
      request.path === "/users/me"
        ? [
            200,
            {
              resource: {
                uri: `${base}/users/U1`,
                name: "Ann",
                email: "ann@example.com",
                scheduling_url: "https://calendly.com/ann",
                timezone: "America/New_York",
              },
            },
          ]
        : [
            200,
            {
              collection: [
                { uri: `${base}/event_types/E1`, name: "30 Minute Meeting", duration: 30, active: true },
              ],
            },
          ];
    const user = await calendly().currentUser("pat");
    expect(user).toEqual({
      uri: `${base}/users/U1`,
      name: "Ann",
      email: "ann@example.com",
      schedulingUrl: "https://calendly.com/ann",
      timeZone: "America/New_York",
    });
    expect((seen.at(-1) as Seen).headers.authorization).toBe("Bearer pat");
    expect(await calendly().eventTypes("pat", user.uri)).toEqual([
      { uri: `${base}/event_types/E1`, name: "30 Minute Meeting", durationMinutes: 30, active: true },
    ]);
    expect(new URL((seen.at(-1) as Seen).path, base).searchParams.get("user")).toBe(user.uri);
  });

  it("asks busy times a week at a time", async () => {
    answer = () => [
      200,
      { collection: [{ start_time: "2030-01-02T10:00:00Z", end_time: "2030-01-02T10:30:00Z" }] },
    ];
    const before = seen.length;
    const busy = await calendly().busyTimes(
      "pat",
      "U1",
      new Date("2030-01-01T00:00:00Z"),
      new Date("2030-01-16T00:00:00Z"),
    );
    const requests = seen.slice(before);
    expect(requests).toHaveLength(3);
    expect(requests.every((r) => r.path.startsWith("/user_busy_times?"))).toBe(true);
    expect(busy).toHaveLength(3);
  });

  it("books an invitee and cancels the scheduled event", async () => {
    answer = (request) =>
      request.path === "/invitees"
        ? [
            201,
            {
              resource: {
                uri: `${base}/scheduled_events/S1/invitees/I1`,
                event: `${base}/scheduled_events/S1`,
              },
            },
          ]
        : [201, { resource: { canceled_by: "Ann" } }];
    const booked = await calendly().createInvitee("pat", {
      eventTypeUri: `${base}/event_types/E1`,
      start: new Date("2030-01-03T15:00:00Z"),
      timeZone: "America/New_York",
      name: "Jane",
      email: "jane@example.com",
    });
    expect(booked).toEqual({ eventUri: `${base}/scheduled_events/S1` });
    expect(JSON.parse((seen.at(-1) as Seen).body)).toEqual({
      event_type: `${base}/event_types/E1`,
      start_time: "2030-01-03T15:00:00.000Z",
      invitee: { name: "Jane", email: "jane@example.com", timezone: "America/New_York" },
    });
    await calendly().cancelEvent("pat", booked.eventUri, "Cancelled in Switchboard");
    expect(seen.at(-1)).toMatchObject({ method: "POST", path: "/scheduled_events/S1/cancellation" });
  });

  it("reports a refused token as an auth error", async () => {
    answer = () => [401, { title: "Unauthenticated", message: "The access token is invalid" }];
    await expect(calendly().currentUser("bad")).rejects.toThrow(CalendarAuthError);
  });
});

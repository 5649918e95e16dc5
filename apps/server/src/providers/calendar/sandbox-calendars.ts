import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { and, asc, eq, gt, lt } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { sandboxCalendarEvents } from "../../db/schema/index.ts";
import {
  type BusyInterval,
  CalendarAuthError,
  CalendarError,
  type CalendlyApi,
  type GoogleCalendarApi,
} from "./calendar-api.ts";

/**
 * The offline calendars (CALENDARS=sandbox, the default). They keep their events in this database and answer
 * like Google Calendar and Calendly do: a consent page on our own server, expiring access tokens that must be
 * refreshed, free/busy, create and cancel, refusals of bad tokens and of taken times.
 *
 * Sandbox tokens are signed with the server key (`<kind>.<payload>.<hmac>`), so they survive restarts.
 * Calendly: any personal access token that starts with `sandbox_` belongs to a sandbox user.
 */

/** A sandbox access token lives an hour, as Google's do. */
export const SANDBOX_ACCESS_TOKEN_MS = 3_600_000;
export const SANDBOX_CALENDLY_TOKEN_PREFIX = "sandbox_";

type Deps = { db: Database; secretKey: string; publicUrl: string; now?: () => number };

function sign(secretKey: string, kind: string, payload: Record<string, unknown>): string {
  const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
  const mac = createHmac("sha256", secretKey).update(`sandbox-calendar:${kind}.${body}`).digest("base64url");
  return `${kind}.${body}.${mac}`;
}

function verify(secretKey: string, kind: string, token: string): Record<string, unknown> | null {
  const [tokenKind, body, mac] = token.split(".");
  if (tokenKind !== kind || !body || !mac) return null;
  const expected = createHmac("sha256", secretKey).update(`sandbox-calendar:${kind}.${body}`).digest();
  const given = Buffer.from(mac, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    return JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Record<string, unknown>;
  } catch {
    return null;
  }
}

function overlapping(
  db: Database,
  provider: "google" | "calendly",
  owner: string,
  calendarId: string,
  from: Date,
  to: Date,
) {
  return db
    .select()
    .from(sandboxCalendarEvents)
    .where(
      and(
        eq(sandboxCalendarEvents.provider, provider),
        eq(sandboxCalendarEvents.owner, owner),
        eq(sandboxCalendarEvents.calendarId, calendarId),
        eq(sandboxCalendarEvents.status, "confirmed"),
        lt(sandboxCalendarEvents.startAt, to),
        gt(sandboxCalendarEvents.endAt, from),
      ),
    )
    .orderBy(asc(sandboxCalendarEvents.startAt));
}

const toBusy = (row: { startAt: Date; endAt: Date }): BusyInterval => ({
  start: row.startAt,
  end: row.endAt,
});

/** The sandbox Google user's second calendar, beside the primary one named by the e-mail. */
export function sandboxTeamCalendarId(email: string): string {
  return `team-${createHash("sha256").update(email).digest("hex").slice(0, 12)}@group.calendar.sandbox`;
}

export function sandboxGoogleCalendar({
  db,
  secretKey,
  publicUrl,
  now = Date.now,
}: Deps): GoogleCalendarApi & {
  /** The consent page's answer: a code for the e-mail that allowed access. */
  issueCode(email: string): string;
} {
  const tokens = (email: string) => ({
    accessToken: sign(secretKey, "sbxat", { email, exp: now() + SANDBOX_ACCESS_TOKEN_MS }),
    refreshToken: sign(secretKey, "sbxrt", { email }),
    expiresAt: now() + SANDBOX_ACCESS_TOKEN_MS,
    email,
  });
  const userOf = (accessToken: string): string => {
    const claims = verify(secretKey, "sbxat", accessToken);
    if (!claims || typeof claims.email !== "string")
      throw new CalendarAuthError("Google refused the connection: Invalid Credentials");
    if (typeof claims.exp !== "number" || claims.exp <= now()) {
      throw new CalendarAuthError("Google refused the connection: Invalid Credentials (token expired)");
    }
    return claims.email;
  };
  const calendarOf = (email: string, calendarId: string) => {
    if (calendarId !== email && calendarId !== sandboxTeamCalendarId(email)) {
      throw new CalendarError("Google answered 404: Not Found", 404);
    }
    return calendarId;
  };
  return {
    kind: "sandbox",
    authorizationUrl({ state, redirectUri, loginHint }) {
      const url = new URL("/sandbox/google/consent", publicUrl);
      url.search = new URLSearchParams({
        state,
        redirect_uri: redirectUri,
        ...(loginHint ? { login_hint: loginHint } : {}),
      }).toString();
      return url.toString();
    },
    issueCode: (email) => sign(secretKey, "sbxcode", { email, exp: now() + 10 * 60_000 }),
    async exchangeCode(code) {
      const claims = verify(secretKey, "sbxcode", code);
      if (
        !claims ||
        typeof claims.email !== "string" ||
        typeof claims.exp !== "number" ||
        claims.exp <= now()
      ) {
        throw new CalendarAuthError("Google refused the connection: Bad Request (invalid_grant)");
      }
      return tokens(claims.email);
    },
    async refresh(refreshToken) {
      const claims = verify(secretKey, "sbxrt", refreshToken);
      if (!claims || typeof claims.email !== "string") {
        throw new CalendarAuthError("Google refused the connection: Token has been expired or revoked.");
      }
      return { ...tokens(claims.email), refreshToken: null };
    },
    async listCalendars(accessToken) {
      const email = userOf(accessToken);
      return [
        { id: email, summary: email, primary: true, timeZone: null },
        { id: sandboxTeamCalendarId(email), summary: "Team calendar", primary: false, timeZone: null },
      ];
    },
    async freeBusy(accessToken, calendarId, from, to) {
      const email = userOf(accessToken);
      const rows = await overlapping(db, "google", email, calendarOf(email, calendarId), from, to);
      return rows.map(toBusy);
    },
    async insertEvent(accessToken, calendarId, event) {
      const email = userOf(accessToken);
      const [row] = await db
        .insert(sandboxCalendarEvents)
        .values({
          provider: "google",
          owner: email,
          calendarId: calendarOf(email, calendarId),
          startAt: event.start,
          endAt: event.end,
          title: event.title,
          description: event.description,
          attendeeName: event.attendee.name,
          attendeeEmail: event.attendee.email,
        })
        .returning({ id: sandboxCalendarEvents.id });
      return { id: `sbx${row?.id}` };
    },
    async deleteEvent(accessToken, calendarId, eventId) {
      const email = userOf(accessToken);
      await db
        .update(sandboxCalendarEvents)
        .set({ status: "cancelled" })
        .where(
          and(
            eq(sandboxCalendarEvents.provider, "google"),
            eq(sandboxCalendarEvents.owner, email),
            eq(sandboxCalendarEvents.calendarId, calendarOf(email, calendarId)),
            eq(sandboxCalendarEvents.id, Number(eventId.replace(/^sbx/, "")) || 0),
          ),
        );
    },
  };
}

/** The sandbox event types every sandbox Calendly user has. */
const SANDBOX_EVENT_TYPES = [
  { slug: "30min", name: "30 Minute Meeting", durationMinutes: 30 },
  { slug: "15min", name: "15 Minute Call", durationMinutes: 15 },
];

export function sandboxCalendly({ db, publicUrl }: Deps): CalendlyApi {
  const base = `${publicUrl}/sandbox/calendly`;
  const userOf = (token: string) => {
    if (
      !token.startsWith(SANDBOX_CALENDLY_TOKEN_PREFIX) ||
      token.length < SANDBOX_CALENDLY_TOKEN_PREFIX.length + 8
    ) {
      throw new CalendarAuthError("Calendly refused the connection: The access token is invalid");
    }
    const id = createHash("sha256").update(token).digest("hex").slice(0, 16);
    return { id, uri: `${base}/users/${id}` };
  };
  const eventTypeOf = (userId: string, uri: string) => {
    const type = SANDBOX_EVENT_TYPES.find(
      (candidate) => uri === `${base}/event_types/${userId}-${candidate.slug}`,
    );
    if (!type) throw new CalendarError("Calendly answered 404: Resource Not Found", 404);
    return type;
  };
  return {
    kind: "sandbox",
    async currentUser(token) {
      const user = userOf(token);
      return {
        uri: user.uri,
        name: "Sandbox Calendly user",
        email: `calendly-${user.id.slice(0, 6)}@sandbox.example`,
        schedulingUrl: `${base}/${user.id}`,
        timeZone: "UTC",
      };
    },
    async eventTypes(token, userUri) {
      const user = userOf(token);
      if (userUri !== user.uri) throw new CalendarError("Calendly answered 403: Permission Denied", 403);
      return SANDBOX_EVENT_TYPES.map((type) => ({
        uri: `${base}/event_types/${user.id}-${type.slug}`,
        name: type.name,
        durationMinutes: type.durationMinutes,
        active: true,
      }));
    },
    async busyTimes(token, userUri, from, to) {
      const user = userOf(token);
      if (userUri !== user.uri) throw new CalendarError("Calendly answered 403: Permission Denied", 403);
      return (await overlapping(db, "calendly", user.id, "calendly", from, to)).map(toBusy);
    },
    async createInvitee(token, input) {
      const user = userOf(token);
      const type = eventTypeOf(user.id, input.eventTypeUri);
      const end = new Date(input.start.getTime() + type.durationMinutes * 60_000);
      const taken = await overlapping(db, "calendly", user.id, "calendly", input.start, end);
      if (taken.length > 0)
        throw new CalendarError("Calendly answered 400: The selected time is not available", 400);
      const [row] = await db
        .insert(sandboxCalendarEvents)
        .values({
          provider: "calendly",
          owner: user.id,
          calendarId: "calendly",
          startAt: input.start,
          endAt: end,
          title: type.name,
          attendeeName: input.name,
          attendeeEmail: input.email,
        })
        .returning({ id: sandboxCalendarEvents.id });
      return { eventUri: `${base}/scheduled_events/${row?.id}` };
    },
    async cancelEvent(token, eventUri) {
      const user = userOf(token);
      const id = Number(eventUri.split("/").pop());
      await db
        .update(sandboxCalendarEvents)
        .set({ status: "cancelled" })
        .where(
          and(
            eq(sandboxCalendarEvents.provider, "calendly"),
            eq(sandboxCalendarEvents.owner, user.id),
            eq(sandboxCalendarEvents.id, Number.isInteger(id) ? id : 0),
          ),
        );
    },
  };
}

import { createHmac, timingSafeEqual } from "node:crypto";
import type { bookScheduleTime } from "@switchboard/api";
import {
  type Booking,
  CALENDAR_MESSAGES,
  type CalendlyStatus,
  type GoogleCalendarStatus,
} from "@switchboard/api";
import { isValidTimeZone } from "@switchboard/core";
import type { FastifyBaseLogger } from "fastify";
import type { Access, AccountRow } from "../../access/access.ts";
import { badRequest, notFound } from "../../api-error.ts";
import type { BodyOf } from "../../http/routes.ts";
import {
  CalendarAuthError,
  CalendarError,
  type CalendlyApi,
  type GoogleCalendarApi,
  type GoogleCalendarEntry,
} from "../../providers/calendar/calendar-api.ts";
import type { AgentsService } from "../agents/index.ts";
import { type AgentCalendar, CalendarUnavailable } from "./agent-calendar.ts";
import type { CalendarsRepository, ConnectionRow } from "./calendars.repository.ts";
import { type ConnectionAccess, encryptCredentials } from "./connections.ts";
import type { BookingRow, ScheduleRepository } from "./schedule.repository.ts";

/** How long a started Google sign-in may take before its state is refused. */
const STATE_TTL_MS = 15 * 60_000;
const DEFAULT_RETURN = "/app?integrations=calendar";

type Deps = {
  repo: CalendarsRepository;
  connections: ConnectionAccess;
  calendar: AgentCalendar;
  schedule: ScheduleRepository;
  google: GoogleCalendarApi;
  calendly: CalendlyApi;
  secretKey: string;
  publicUrl: string;
  log: FastifyBaseLogger;
  now: () => number;
  agents: AgentsService;
};

/** The account a calendar call acts on: an organisation or one of its agents. */
function ownerOf(access: Access): AccountRow {
  const target = access.target;
  if (target.accountType === "organization" || (target.accountType === "agent" && target.organizationId))
    return target;
  throw badRequest(CALENDAR_MESSAGES.noAccount);
}

const orgIdOf = (account: AccountRow) =>
  account.accountType === "organization" ? account.id : (account.organizationId as number);

export function toBooking(row: BookingRow): Booking {
  return {
    id: row.id,
    agentId: row.agentAccountId,
    start: row.startAt.getTime(),
    end: row.endAt.getTime(),
    name: row.name,
    phoneNumber: row.phoneNumber,
    email: row.email,
    notes: row.notes,
    status: row.status,
    source: row.source,
    calendar: row.calendarProvider ?? null,
    roomId: row.roomId,
    uuid: row.conversationUuid,
    createdAt: row.createdAt.getTime(),
  };
}

export function createCalendarsService(deps: Deps) {
  const { repo, connections, google, calendly, now } = deps;

  function signState(payload: { a: number; u: number; r: string }): string {
    const body = Buffer.from(JSON.stringify({ ...payload, exp: now() + STATE_TTL_MS })).toString("base64url");
    return `${body}.${createHmac("sha256", deps.secretKey).update(`google-state:${body}`).digest("base64url")}`;
  }

  function readState(state: string): { a: number; u: number; r: string } | null {
    const [body, mac] = state.split(".");
    if (!body || !mac) return null;
    const expected = createHmac("sha256", deps.secretKey).update(`google-state:${body}`).digest();
    const given = Buffer.from(mac, "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as {
      a: number;
      u: number;
      r: string;
      exp: number;
    };
    return payload.exp > now() ? payload : null;
  }

  /** The account's own connection of a provider, else (for an agent) its organisation's. */
  async function effective(account: AccountRow, provider: ConnectionRow["provider"]) {
    const own = await repo.find(account.id, provider);
    if (own || account.accountType !== "agent") return { connection: own, inherited: false };
    return { connection: await repo.find(orgIdOf(account), provider), inherited: true };
  }

  const redirectUri = () => `${deps.publicUrl}/api/v1/google/callback`;

  async function googleStatus(access: Access): Promise<GoogleCalendarStatus> {
    const { connection, inherited } = await effective(ownerOf(access), "google");
    if (!connection) {
      return {
        success: true,
        connected: false,
        state: "disconnected",
        brokenReason: null,
        account: null,
        calendars: [],
        main: null,
        inherited: false,
      };
    }
    let calendars: GoogleCalendarEntry[] = [];
    if (connection.state === "connected") {
      try {
        calendars = await connections.withGoogle(connection, (token) => google.listCalendars(token));
      } catch (error) {
        if (!(error instanceof CalendarAuthError || error instanceof CalendarError)) throw error;
        deps.log.warn({ err: error }, "listing Google calendars failed");
      }
    }
    return {
      success: true,
      connected: connection.state === "connected",
      state: connection.state,
      brokenReason: connection.brokenReason,
      account: connection.externalAccount,
      calendars: calendars.map(({ id, summary, primary }) => ({ id, summary, primary })),
      main: connection.mainCalendarId
        ? { id: connection.mainCalendarId, summary: connection.mainCalendarName ?? connection.mainCalendarId }
        : null,
      inherited,
    };
  }

  async function calendlyStatus(access: Access): Promise<CalendlyStatus> {
    const { connection, inherited } = await effective(ownerOf(access), "calendly");
    if (!connection) {
      return {
        success: true,
        enabled: false,
        state: "disconnected",
        brokenReason: null,
        account: null,
        schedulingUrl: null,
        eventTypes: [],
        eventType: null,
        inherited: false,
      };
    }
    const types = (connection.details.eventTypes ?? []) as CalendlyStatus["eventTypes"];
    return {
      success: true,
      enabled: connection.state === "connected",
      state: connection.state,
      brokenReason: connection.brokenReason,
      account: connection.externalAccount,
      schedulingUrl:
        typeof connection.details.schedulingUrl === "string" ? connection.details.schedulingUrl : null,
      eventTypes: types,
      eventType: connection.mainCalendarId,
      inherited,
    };
  }

  return {
    googleStatus,
    calendlyStatus,

    async googleMain(access: Access) {
      const status = await googleStatus(access);
      return { success: true as const, calendar: status.main };
    },

    async connectGoogle(access: Access, returnTo: string | undefined) {
      const account = ownerOf(access);
      const state = signState({ a: account.id, u: access.caller.user.id, r: returnTo ?? DEFAULT_RETURN });
      const url = google.authorizationUrl({
        state,
        redirectUri: redirectUri(),
        loginHint: access.caller.user.email ?? undefined,
      });
      return { success: true as const, url };
    },

    /** Google's return: stores the connection; answers where to send the browser. */
    async googleCallback(query: { code?: string; state?: string; error?: string }): Promise<string> {
      const state = query.state ? readState(query.state) : null;
      const back = (params: Record<string, string>) => {
        const url = new URL(state?.r ?? DEFAULT_RETURN, deps.publicUrl);
        for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
        return `${url.pathname}${url.search}`;
      };
      if (!state) return back({ calendarError: CALENDAR_MESSAGES.badState });
      if (query.error || !query.code) return back({ calendarError: CALENDAR_MESSAGES.consentDenied });
      try {
        const tokens = await google.exchangeCode(query.code, redirectUri());
        const calendars = await google.listCalendars(tokens.accessToken);
        const main = calendars.find((c) => c.primary) ?? calendars[0] ?? null;
        await repo.upsert({
          accountId: state.a,
          provider: "google",
          credentialsEncrypted: encryptCredentials(deps.secretKey, {
            token: tokens.accessToken,
            refreshToken: tokens.refreshToken,
            expiresAt: tokens.expiresAt,
          }),
          externalAccount: tokens.email ?? main?.id ?? null,
          mainCalendarId: main?.id ?? null,
          mainCalendarName: main?.summary ?? null,
          details: {},
        });
        return back({ calendarConnected: "google" });
      } catch (error) {
        if (!(error instanceof CalendarAuthError || error instanceof CalendarError)) throw error;
        return back({ calendarError: `Google Calendar was not connected: ${error.message}` });
      }
    },

    async setGoogleMain(access: Access, calendarId: string) {
      const account = ownerOf(access);
      const connection = await repo.find(account.id, "google");
      if (!connection) throw badRequest(CALENDAR_MESSAGES.googleNotConnected);
      let calendars: GoogleCalendarEntry[];
      try {
        calendars = await connections.withGoogle(connection, (token) => google.listCalendars(token));
      } catch (error) {
        if (error instanceof CalendarAuthError || error instanceof CalendarError)
          throw badRequest(error.message);
        throw error;
      }
      const chosen = calendars.find((c) => c.id === calendarId);
      if (!chosen) throw badRequest(CALENDAR_MESSAGES.unknownCalendar);
      await repo.update(connection.id, { mainCalendarId: chosen.id, mainCalendarName: chosen.summary });
      return googleStatus(access);
    },

    async disconnectGoogle(access: Access) {
      await repo.remove(ownerOf(access).id, "google");
      return { success: true as const };
    },

    async enableCalendly(access: Access, body: { userPAT: string; eventType?: string | undefined }) {
      const account = ownerOf(access);
      try {
        const user = await calendly.currentUser(body.userPAT);
        const types = (await calendly.eventTypes(body.userPAT, user.uri)).filter((type) => type.active);
        const chosen = body.eventType ? types.find((type) => type.uri === body.eventType) : types[0];
        if (body.eventType && !chosen) throw badRequest(CALENDAR_MESSAGES.unknownEventType);
        await repo.upsert({
          accountId: account.id,
          provider: "calendly",
          credentialsEncrypted: encryptCredentials(deps.secretKey, { token: body.userPAT }),
          externalAccount: user.email,
          mainCalendarId: chosen?.uri ?? null,
          mainCalendarName: chosen?.name ?? null,
          details: {
            userUri: user.uri,
            schedulingUrl: user.schedulingUrl,
            eventTypes: types.map(({ uri, name, durationMinutes }) => ({ uri, name, durationMinutes })),
          },
        });
      } catch (error) {
        if (error instanceof CalendarAuthError) throw badRequest(CALENDAR_MESSAGES.badCalendlyToken);
        if (error instanceof CalendarError) throw badRequest(error.message);
        throw error;
      }
      return calendlyStatus(access);
    },

    async disableCalendly(access: Access) {
      await repo.remove(ownerOf(access).id, "calendly");
      return { success: true as const };
    },

    /** A booking by hand, through the same calendar as the agent's. */
    async book(access: Access, body: BodyOf<typeof bookScheduleTime>) {
      const { ref } = await deps.agents.resolveAgent(access, body.agentId, "canEditOrg");
      const start = new Date(body.start);
      if (start.getTime() <= now()) throw badRequest(CALENDAR_MESSAGES.timePassed);
      const zone = (await deps.agents.answeringCampaignOf(ref)).campaign.timezone;
      const timeZone = zone && isValidTimeZone(zone) ? zone : "UTC";
      try {
        const row = await deps.calendar.book(
          {
            orgId: ref.orgId,
            agentAccountId: ref.id,
            startAt: start,
            endAt: new Date(start.getTime() + body.durationMinutes * 60_000),
            name: body.name,
            phoneNumber: body.phoneNumber ?? null,
            email: body.email ?? null,
            notes: body.notes ?? null,
            status: "booked",
            source: "manual",
            roomId: null,
            conversationUuid: null,
          },
          timeZone,
        );
        if (!row) throw badRequest(CALENDAR_MESSAGES.timeTaken);
        return { success: true as const, booking: toBooking(row) };
      } catch (error) {
        if (error instanceof CalendarUnavailable) throw badRequest(error.message);
        throw error;
      }
    },

    async cancel(access: Access, bookingId: number) {
      const account = ownerOf(access);
      const row = await deps.schedule.find(bookingId);
      const visible =
        row &&
        row.orgId === orgIdOf(account) &&
        (account.accountType === "organization" || row.agentAccountId === account.id);
      if (!row || !visible) throw notFound(CALENDAR_MESSAGES.bookingNotFound);
      try {
        return { success: true as const, booking: toBooking(await deps.calendar.cancel(row)) };
      } catch (error) {
        if (error instanceof CalendarUnavailable) throw badRequest(error.message);
        throw error;
      }
    },

    ownerOf,
    orgIdOf,
  };
}

export type CalendarsService = ReturnType<typeof createCalendarsService>;

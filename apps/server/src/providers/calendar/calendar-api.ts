/**
 * The calendars an agent can book into besides the account's own schedule: Google Calendar (OAuth) and
 * Calendly (a personal access token). Each has a real HTTP client and an offline sandbox that answers the
 * same way (`sandbox-calendars.ts`), chosen by CALENDARS (sandbox by default).
 */

export type BusyInterval = { start: Date; end: Date };

export type CalendarEventInput = {
  start: Date;
  end: Date;
  title: string;
  description: string;
  timeZone: string;
  attendee: { name: string; email: string | null };
};

export type OAuthTokens = {
  accessToken: string;
  /** Google answers a refresh token on the first consent only; keep the old one when absent. */
  refreshToken: string | null;
  expiresAt: number;
  /** Who consented, for the UI ("Connected as ..."). */
  email: string | null;
};

export type GoogleCalendarEntry = { id: string; summary: string; primary: boolean; timeZone: string | null };

export type GoogleCalendarApi = {
  kind: "google" | "sandbox";
  /** Where the user is sent to consent; it comes back to redirectUri with `code` and `state`. */
  authorizationUrl(input: { state: string; redirectUri: string; loginHint?: string }): string;
  exchangeCode(code: string, redirectUri: string): Promise<OAuthTokens>;
  refresh(refreshToken: string): Promise<OAuthTokens>;
  listCalendars(accessToken: string): Promise<GoogleCalendarEntry[]>;
  freeBusy(accessToken: string, calendarId: string, from: Date, to: Date): Promise<BusyInterval[]>;
  insertEvent(accessToken: string, calendarId: string, event: CalendarEventInput): Promise<{ id: string }>;
  deleteEvent(accessToken: string, calendarId: string, eventId: string): Promise<void>;
};

export type CalendlyUser = {
  uri: string;
  name: string;
  email: string;
  schedulingUrl: string;
  timeZone: string;
};

export type CalendlyEventType = { uri: string; name: string; durationMinutes: number; active: boolean };

export type CalendlyApi = {
  kind: "calendly" | "sandbox";
  currentUser(token: string): Promise<CalendlyUser>;
  eventTypes(token: string, userUri: string): Promise<CalendlyEventType[]>;
  /** Calendly answers at most 7 days per request: longer ranges are asked in pieces. */
  busyTimes(token: string, userUri: string, from: Date, to: Date): Promise<BusyInterval[]>;
  /** Books an invitee into an event type (Calendly's Scheduling API); answers the scheduled event's uri. */
  createInvitee(
    token: string,
    input: { eventTypeUri: string; start: Date; timeZone: string; name: string; email: string },
  ): Promise<{ eventUri: string }>;
  cancelEvent(token: string, eventUri: string, reason: string): Promise<void>;
};

/** The provider refused the credentials (expired, revoked, wrong token): the connection is broken. */
export class CalendarAuthError extends Error {
  override name = "CalendarAuthError";
}

/** Any other failure of a calendar provider (unreachable, 5xx, a refused booking). */
export class CalendarError extends Error {
  override name = "CalendarError";
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

/** Splits [from, to) into pieces of at most `maxMs`. */
export function splitRange(from: Date, to: Date, maxMs: number): [Date, Date][] {
  const pieces: [Date, Date][] = [];
  for (let start = from.getTime(); start < to.getTime(); start += maxMs) {
    pieces.push([new Date(start), new Date(Math.min(start + maxMs, to.getTime()))]);
  }
  return pieces;
}

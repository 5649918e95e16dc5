import type {
  BusyInterval,
  CalendarEventInput,
  GoogleCalendarApi,
  GoogleCalendarEntry,
  OAuthTokens,
} from "./calendar-api.ts";
import { providerJson } from "./http-json.ts";

export type GoogleCalendarConfig = {
  clientId: string;
  clientSecret: string;
  /** https://accounts.google.com (the consent page) */
  accountsUrl: string;
  /** https://oauth2.googleapis.com/token */
  tokenUrl: string;
  /** https://www.googleapis.com */
  apiUrl: string;
};

/** Read free/busy of every calendar, write events; `openid email` names the account in the UI. */
export const GOOGLE_CALENDAR_SCOPES = [
  "openid",
  "email",
  "https://www.googleapis.com/auth/calendar.readonly",
  "https://www.googleapis.com/auth/calendar.events",
];

type TokenAnswer = {
  access_token: string;
  expires_in: number;
  refresh_token?: string;
  id_token?: string;
};

/** The e-mail claim of an ID token (already checked by Google: it came over TLS from the token endpoint). */
function emailOfIdToken(idToken: string | undefined): string | null {
  const payload = idToken?.split(".")[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { email?: unknown };
    return typeof claims.email === "string" ? claims.email : null;
  } catch {
    return null;
  }
}

/** Google Calendar API v3 with the OAuth 2.0 web-server flow (offline access for refresh tokens). */
export function googleCalendarClient(
  config: GoogleCalendarConfig,
  now: () => number = Date.now,
): GoogleCalendarApi {
  const api = (path: string) => `${config.apiUrl.replace(/\/$/, "")}/calendar/v3${path}`;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  async function token(form: Record<string, string>): Promise<OAuthTokens> {
    const answer = await providerJson<TokenAnswer>("Google", config.tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        ...form,
        client_id: config.clientId,
        client_secret: config.clientSecret,
      }).toString(),
    });
    return {
      accessToken: answer.access_token,
      refreshToken: answer.refresh_token ?? null,
      expiresAt: now() + answer.expires_in * 1000,
      email: emailOfIdToken(answer.id_token),
    };
  }

  return {
    kind: "google",
    authorizationUrl({ state, redirectUri, loginHint }) {
      const url = new URL("/o/oauth2/v2/auth", config.accountsUrl);
      url.search = new URLSearchParams({
        client_id: config.clientId,
        redirect_uri: redirectUri,
        response_type: "code",
        scope: GOOGLE_CALENDAR_SCOPES.join(" "),
        access_type: "offline",
        prompt: "consent",
        include_granted_scopes: "true",
        state,
        ...(loginHint ? { login_hint: loginHint } : {}),
      }).toString();
      return url.toString();
    },
    exchangeCode: (code, redirectUri) =>
      token({ code, redirect_uri: redirectUri, grant_type: "authorization_code" }),
    refresh: (refreshToken) => token({ refresh_token: refreshToken, grant_type: "refresh_token" }),
    async listCalendars(accessToken) {
      const answer = await providerJson<{
        items?: {
          id: string;
          summary?: string;
          summaryOverride?: string;
          primary?: boolean;
          timeZone?: string;
          accessRole?: string;
        }[];
      }>("Google", api("/users/me/calendarList?minAccessRole=writer"), { headers: bearer(accessToken) });
      return (answer.items ?? []).map(
        (item): GoogleCalendarEntry => ({
          id: item.id,
          summary: item.summaryOverride ?? item.summary ?? item.id,
          primary: item.primary === true,
          timeZone: item.timeZone ?? null,
        }),
      );
    },
    async freeBusy(accessToken, calendarId, from, to) {
      const answer = await providerJson<{
        calendars?: Record<string, { busy?: { start: string; end: string }[] }>;
      }>("Google", api("/freeBusy"), {
        method: "POST",
        headers: { ...bearer(accessToken), "content-type": "application/json" },
        body: JSON.stringify({
          timeMin: from.toISOString(),
          timeMax: to.toISOString(),
          items: [{ id: calendarId }],
        }),
      });
      return (answer.calendars?.[calendarId]?.busy ?? []).map(
        (busy): BusyInterval => ({ start: new Date(busy.start), end: new Date(busy.end) }),
      );
    },
    async insertEvent(accessToken, calendarId, event: CalendarEventInput) {
      const answer = await providerJson<{ id: string }>(
        "Google",
        api(`/calendars/${encodeURIComponent(calendarId)}/events`),
        {
          method: "POST",
          headers: { ...bearer(accessToken), "content-type": "application/json" },
          body: JSON.stringify({
            summary: event.title,
            description: event.description,
            start: { dateTime: event.start.toISOString(), timeZone: event.timeZone },
            end: { dateTime: event.end.toISOString(), timeZone: event.timeZone },
            ...(event.attendee.email
              ? { attendees: [{ email: event.attendee.email, displayName: event.attendee.name }] }
              : {}),
          }),
        },
      );
      return { id: answer.id };
    },
    async deleteEvent(accessToken, calendarId, eventId) {
      await providerJson<null>(
        "Google",
        api(`/calendars/${encodeURIComponent(calendarId)}/events/${encodeURIComponent(eventId)}`),
        { method: "DELETE", headers: bearer(accessToken) },
      ).catch((error: unknown) => {
        // Already gone (deleted in Google by the user): nothing left to cancel.
        if ((error as { status?: number }).status === 410 || (error as { status?: number }).status === 404)
          return;
        throw error;
      });
    },
  };
}

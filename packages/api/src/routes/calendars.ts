import { z } from "zod";
import {
  calendarDaySchema,
  idSchema,
  timeMsSchema,
  windowEndsInRange,
  windowRangeMessage,
} from "../fields.ts";
import { defineRoute } from "../route.ts";
import { bookingSchema } from "./runtime.ts";

/**
 * Calendars and integrations (call catalogue "Calendar" and "Integrations"): the account's own schedule,
 * Google Calendar (OAuth consent, one main calendar) and Calendly (a personal access token) behind one
 * calendar the agent's booking tool reads and writes; integration app data per slug; JobNimbus.
 * Connections belong to an organisation or one of its agents; an agent uses its own, else its organisation's.
 */

export const CALENDAR_MESSAGES = {
  noAccount: "Calendars belong to an organisation or an agent: choose one.",
  googleNotConnected: "Google Calendar is not connected.",
  calendlyNotConnected: "Calendly is not connected.",
  unknownCalendar: "That calendar is not in the connected Google account.",
  unknownEventType: "That event type is not in the connected Calendly account.",
  badState: "The Google sign-in expired or was not started here. Connect again.",
  consentDenied: "Google Calendar was not connected: access was not allowed.",
  badCalendlyToken:
    "Calendly did not accept this token. Create a personal access token in Calendly (Integrations → API & Webhooks) and paste it here.",
  bookingNotFound: "Booking not found",
  timeTaken: "That time is already booked. Choose another time.",
  timePassed: "That time has passed. Choose a later time.",
  badSlug: "slug: use lowercase letters, digits and dashes (at most 40).",
  appDataTooLarge: "appData: at most 16 KB.",
} as const;

const returnTo = z
  .string()
  .max(500)
  .regex(/^\/(?![/\\])[^\s]*$/, "returnTo: a path on this site, such as /app")
  .optional();

const calendarEntrySchema = z.object({ id: z.string(), summary: z.string(), primary: z.boolean() });

export const connectionStateSchema = z
  .enum(["connected", "broken", "disconnected"])
  .describe("broken: the provider refused the stored credentials; reconnect");

export const googleCalendarStatusSchema = z.object({
  success: z.literal(true),
  connected: z.boolean(),
  state: connectionStateSchema,
  brokenReason: z.string().nullable(),
  /** The Google account connected (e-mail). */
  account: z.string().nullable(),
  calendars: z.array(calendarEntrySchema),
  main: z.object({ id: z.string(), summary: z.string() }).nullable(),
  /** The connection is the organisation's (an agent without its own uses it). */
  inherited: z.boolean(),
});
export type GoogleCalendarStatus = z.infer<typeof googleCalendarStatusSchema>;

export const calendlyStatusSchema = z.object({
  success: z.literal(true),
  enabled: z.boolean(),
  state: connectionStateSchema,
  brokenReason: z.string().nullable(),
  account: z.string().nullable(),
  schedulingUrl: z.string().nullable(),
  eventTypes: z.array(z.object({ uri: z.string(), name: z.string(), durationMinutes: z.number() })),
  /** The event type the agent books. */
  eventType: z.string().nullable(),
  inherited: z.boolean(),
});
export type CalendlyStatus = z.infer<typeof calendlyStatusSchema>;

const account = { auth: "token", tag: "Calendars" } as const;

export const getGoogleCalendars = defineRoute({
  ...account,
  id: "getGoogleCalendars",
  method: "GET",
  path: "/api/v1/google/calendars",
  summary:
    "The connected Google account's calendars (writable ones), the main calendar and the connection state.",
  permission: "canViewOrg",
  response: googleCalendarStatusSchema,
});

export const getGoogleMainCalendar = defineRoute({
  ...account,
  id: "getGoogleMainCalendar",
  method: "GET",
  path: "/api/v1/google/calendars/main",
  summary: "The calendar bookings go to (null when Google Calendar is not connected).",
  permission: "canViewOrg",
  response: z.object({
    success: z.literal(true),
    calendar: z.object({ id: z.string(), summary: z.string() }).nullable(),
  }),
});

export const setGoogleMainCalendar = defineRoute({
  ...account,
  id: "setGoogleMainCalendar",
  method: "PUT",
  path: "/api/v1/google/calendars/main",
  summary: "Choose the main calendar (calendar: its id) among the connected account's calendars.",
  permission: "canEditOrg",
  body: z.object({ calendar: z.string().trim().min(1).max(300) }),
  response: googleCalendarStatusSchema,
});

export const disconnectGoogle = defineRoute({
  ...account,
  id: "disconnectGoogle",
  method: "DELETE",
  path: "/api/v1/google/disconnect",
  summary: "Forget the Google connection; bookings go to the account's own schedule (or Calendly).",
  permission: "canEditOrg",
  response: z.object({ success: z.literal(true) }),
});

export const connectGoogle = defineRoute({
  ...account,
  id: "connectGoogle",
  method: "POST",
  path: "/api/v1/google/connect",
  summary:
    "Start connecting Google Calendar: answers the consent page's url. Google sends the browser back to /api/v1/google/callback, which returns to returnTo.",
  permission: "canEditOrg",
  sessionOnly: true,
  body: z.object({ returnTo }),
  response: z.object({ success: z.literal(true), url: z.string() }),
});

export const googleCallback = defineRoute({
  id: "googleCallback",
  method: "GET",
  path: "/api/v1/google/callback",
  summary:
    "Where Google's consent page returns (code and state, or error): stores the connection and redirects to the app.",
  tag: "Calendars",
  auth: "none",
  query: z.object({
    code: z.string().max(4000).optional(),
    state: z.string().max(4000).optional(),
    error: z.string().max(200).optional(),
  }),
  produces: "text/html",
});

export const sandboxGoogleConsentPage = defineRoute({
  id: "sandboxGoogleConsentPage",
  method: "GET",
  path: "/sandbox/google/consent",
  summary:
    "The offline sandbox's Google consent page (CALENDARS=sandbox): allow or deny access to a sandbox Google account.",
  tag: "Calendars",
  auth: "none",
  query: z.object({
    state: z.string().max(4000),
    redirect_uri: z.string().max(2000),
    login_hint: z.string().max(320).optional(),
  }),
  produces: "text/html",
});

export const sandboxGoogleConsent = defineRoute({
  id: "sandboxGoogleConsent",
  method: "POST",
  path: "/sandbox/google/consent",
  summary:
    "The sandbox consent page's answer: redirects to redirect_uri with a code (allow) or error=access_denied.",
  tag: "Calendars",
  auth: "none",
  body: z.object({
    state: z.string().max(4000),
    redirect_uri: z.string().max(2000),
    email: z.email().max(320),
    decision: z.enum(["allow", "deny"]),
  }),
  produces: "text/html",
});

export const getCalendly = defineRoute({
  ...account,
  id: "getCalendly",
  method: "GET",
  path: "/api/v2/calendly",
  summary: "Whether Calendly is enabled, for whom, its event types and the one the agent books.",
  permission: "canViewOrg",
  response: calendlyStatusSchema,
});

export const enableCalendly = defineRoute({
  ...account,
  id: "enableCalendly",
  method: "POST",
  path: "/api/v2/calendly",
  summary:
    "Enable Calendly with the user's personal access token (userPAT), checked with Calendly first; eventType picks the event type booked (default: the first active one).",
  permission: "canEditOrg",
  sessionOnly: true,
  body: z.object({
    userPAT: z.string().trim().min(1, "userPAT: paste your Calendly personal access token.").max(4000),
    eventType: z.string().max(500).optional(),
  }),
  response: calendlyStatusSchema,
});

export const disableCalendly = defineRoute({
  ...account,
  id: "disableCalendly",
  method: "DELETE",
  path: "/api/v2/calendly",
  summary: "Disable Calendly and forget its token.",
  permission: "canEditOrg",
  response: z.object({ success: z.literal(true) }),
});

export const bookScheduleTime = defineRoute({
  ...account,
  id: "bookScheduleTime",
  method: "POST",
  path: "/api/v1/schedule",
  summary:
    "Book a time for an agent by hand (source manual): into the connected calendar when there is one, and the account's schedule. Refused when the time is taken.",
  permission: "canEditOrg",
  body: z
    .object({
      agentId: idSchema.optional(),
      start: timeMsSchema,
      durationMinutes: z
        .number()
        .int()
        .min(5)
        .max(8 * 60)
        .default(30),
      name: z.string().trim().min(1, "name: Enter who the booking is for.").max(200),
      phoneNumber: z.string().trim().max(40).optional(),
      email: z.email().max(320).optional(),
      notes: z.string().max(2000).optional(),
    })
    .refine((body) => windowEndsInRange(body.start, body.durationMinutes * 60_000), {
      path: ["start"],
      message: windowRangeMessage("the booking"),
    }),
  response: z.object({ success: z.literal(true), booking: bookingSchema }),
});

export const cancelScheduleBooking = defineRoute({
  ...account,
  id: "cancelScheduleBooking",
  method: "DELETE",
  path: "/api/v1/schedule/{bookingId}",
  summary: "Cancel a booking, in the connected calendar too.",
  permission: "canEditOrg",
  params: z.object({ bookingId: idSchema }),
  response: z.object({ success: z.literal(true), booking: bookingSchema }),
});

const slugSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, CALENDAR_MESSAGES.badSlug);

export const integrationAppDataSchema = z.object({
  success: z.literal(true),
  slug: z.string(),
  /** The saved settings; secret values (keys ending in Key, Token, Secret or Password) answered masked. */
  appData: z.record(z.string(), z.unknown()),
  updatedAt: z.number().nullable(),
});

export const getIntegration = defineRoute({
  ...account,
  id: "getIntegration",
  method: "GET",
  path: "/api/v2/integration/{slug}",
  summary: "The settings (appData) an integration keeps for this account; {} until saved.",
  tag: "Integrations",
  permission: "canViewOrg",
  params: z.object({ slug: slugSchema }),
  response: integrationAppDataSchema,
});

export const saveIntegration = defineRoute({
  ...account,
  id: "saveIntegration",
  method: "POST",
  path: "/api/v2/integration/{slug}",
  summary:
    "Save an integration's settings (appData, a JSON object of at most 16 KB). A masked secret sent back keeps the stored one.",
  tag: "Integrations",
  permission: "canEditOrg",
  params: z.object({ slug: slugSchema }),
  body: z.object({ appData: z.record(z.string(), z.unknown()) }),
  response: integrationAppDataSchema,
});

const jobNimbusBody = z.object({
  /** The JobNimbus API key (`Bearer <key>` or the bare key); the saved one when omitted. */
  authorization: z.string().trim().max(500).optional(),
  /** The day the team's availability is read for (YYYY-MM-DD); today by default. */
  targetDate: calendarDaySchema().optional(),
});

const jobNimbusAnswer = z.object({
  valid: z.boolean(),
  /** JobNimbus's HTTP status when it refused (valid false). */
  status: z.number().int().optional(),
  message: z.string().optional(),
});

export const jobNimbusSettings = defineRoute({
  ...account,
  id: "jobNimbusSettings",
  method: "POST",
  path: "/api/jobnimbus/settings",
  summary:
    "Check a JobNimbus API key and save it for the account: valid true with the account's job workflows, or valid false plus JobNimbus's status.",
  tag: "Integrations",
  permission: "canEditOrg",
  body: jobNimbusBody,
  response: jobNimbusAnswer.extend({
    workflows: z
      .array(z.object({ id: z.number(), name: z.string(), statuses: z.array(z.string()) }))
      .optional(),
  }),
});

export const jobNimbusTeam = defineRoute({
  ...account,
  id: "jobNimbusTeam",
  method: "POST",
  path: "/api/jobnimbus/team",
  summary:
    "The JobNimbus team (active users) and, for targetDate, the tasks each already has: valid false plus status when JobNimbus refuses.",
  tag: "Integrations",
  permission: "canViewOrg",
  body: jobNimbusBody,
  response: jobNimbusAnswer.extend({
    targetDate: z.string().optional(),
    team: z
      .array(
        z.object({
          id: z.string(),
          name: z.string(),
          email: z.string().nullable(),
          busyCount: z.number().int(),
        }),
      )
      .optional(),
  }),
});

export const calendarRoutes = [
  getGoogleCalendars,
  getGoogleMainCalendar,
  setGoogleMainCalendar,
  disconnectGoogle,
  connectGoogle,
  googleCallback,
  sandboxGoogleConsentPage,
  sandboxGoogleConsent,
  getCalendly,
  enableCalendly,
  disableCalendly,
  bookScheduleTime,
  cancelScheduleBooking,
  getIntegration,
  saveIntegration,
  jobNimbusSettings,
  jobNimbusTeam,
] as const;

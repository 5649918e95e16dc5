import type { AppContext } from "../../app-context.ts";
import type { CalendlyApi, GoogleCalendarApi } from "../../providers/calendar/calendar-api.ts";
import { calendlyClient } from "../../providers/calendar/calendly.ts";
import { googleCalendarClient } from "../../providers/calendar/google-calendar.ts";
import { sandboxCalendly, sandboxGoogleCalendar } from "../../providers/calendar/sandbox-calendars.ts";
import { jobNimbusClient, sandboxJobNimbus } from "../../providers/integrations/jobnimbus.ts";
import type { AgentsService } from "../agents/index.ts";
import { createAgentCalendar } from "./agent-calendar.ts";
import { createCalendarsRepository } from "./calendars.repository.ts";
import { calendarsRoutes } from "./calendars.routes.ts";
import { createCalendarsService } from "./calendars.service.ts";
import { createConnectionAccess } from "./connections.ts";
import { createIntegrationsService } from "./integrations.service.ts";
import { createScheduleRepository } from "./schedule.repository.ts";

/**
 * Calendars and integrations: the account's own schedule, Google Calendar and Calendly behind the one agent
 * calendar the booking tool uses, integration settings per slug, and JobNimbus. CALENDARS=sandbox (the
 * default) answers with the offline sandboxes; live uses Google (GOOGLE_CLIENT_ID/SECRET), Calendly and
 * JobNimbus for real.
 */
export function createCalendarsModule(
  context: AppContext,
  deps: { agents: AgentsService; now?: () => number },
) {
  const now = deps.now ?? Date.now;
  const db = context.database.db;
  const settings = context.config.calendars;
  const sandboxGoogle =
    settings.mode === "sandbox"
      ? sandboxGoogleCalendar({ db, secretKey: context.secretKey, publicUrl: context.config.publicUrl, now })
      : null;
  const google: GoogleCalendarApi = sandboxGoogle ?? googleCalendarClient(settings.google, now);
  const calendly: CalendlyApi =
    settings.mode === "sandbox"
      ? sandboxCalendly({ db, secretKey: context.secretKey, publicUrl: context.config.publicUrl, now })
      : calendlyClient(settings.calendlyApiUrl, now);
  const jobNimbus =
    settings.mode === "sandbox" ? sandboxJobNimbus() : jobNimbusClient(settings.jobNimbusApiUrl);

  const repo = createCalendarsRepository(db);
  const schedule = createScheduleRepository(db);
  const connections = createConnectionAccess({
    repo,
    google,
    secretKey: context.secretKey,
    log: context.log,
    now,
  });
  const calendar = createAgentCalendar({ schedule, connections, google, calendly, log: context.log });
  const calendars = createCalendarsService({
    repo,
    connections,
    calendar,
    schedule,
    google,
    calendly,
    secretKey: context.secretKey,
    publicUrl: context.config.publicUrl,
    log: context.log,
    now,
    agents: deps.agents,
  });
  const integrations = createIntegrationsService({
    repo,
    jobNimbus,
    secretKey: context.secretKey,
    ownerOf: calendars.ownerOf,
    now,
  });
  return {
    calendar,
    schedule,
    calendars,
    routes: calendarsRoutes(
      calendars,
      integrations,
      sandboxGoogle,
      `${context.config.publicUrl}/api/v1/google/callback`,
    ),
  };
}

export type CalendarsModule = ReturnType<typeof createCalendarsModule>;

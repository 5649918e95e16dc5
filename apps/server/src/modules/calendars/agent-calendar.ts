import type { FastifyBaseLogger } from "fastify";
import {
  type BusyInterval,
  CalendarAuthError,
  CalendarError,
  type CalendlyApi,
  type GoogleCalendarApi,
} from "../../providers/calendar/calendar-api.ts";
import type { ConnectionRow } from "./calendars.repository.ts";
import type { ConnectionAccess } from "./connections.ts";
import type { BookingRow, NewBooking, ScheduleRepository } from "./schedule.repository.ts";

/**
 * The one calendar an agent books into: the account's own schedule always, plus the connected Google
 * calendar (its main calendar) or Calendly. Free/busy is the union of all of them; a booking is written to
 * the own schedule (so Schedule shows it) and to the first connected calendar (Google before Calendly).
 */

/** A refusal the caller should hear in words: the booking tool passes it to the model. */
export class CalendarUnavailable extends Error {
  override name = "CalendarUnavailable";
}

export type AgentCalendar = {
  busy(orgId: number, agentId: number, from: Date, to: Date): Promise<BusyInterval[]>;
  /** Books unless the time is taken anywhere (null); throws CalendarUnavailable when a calendar fails. */
  book(values: NewBooking, timeZone: string): Promise<BookingRow | null>;
  cancel(booking: BookingRow): Promise<BookingRow>;
};

type Deps = {
  schedule: ScheduleRepository;
  connections: ConnectionAccess;
  google: GoogleCalendarApi;
  calendly: CalendlyApi;
  log: FastifyBaseLogger;
};

const label = (provider: ConnectionRow["provider"]) =>
  provider === "google" ? "Google Calendar" : "Calendly";

export function createAgentCalendar({ schedule, connections, google, calendly, log }: Deps): AgentCalendar {
  /** The agent's connections in use: its own of a provider, else its organisation's; broken ones skipped. */
  async function connectionsOf(orgId: number, agentId: number): Promise<ConnectionRow[]> {
    const rows = await connections.effective([agentId, orgId]);
    const chosen: ConnectionRow[] = [];
    for (const provider of ["google", "calendly"] as const) {
      const row =
        rows.find((r) => r.provider === provider && r.accountId === agentId) ??
        rows.find((r) => r.provider === provider && r.accountId === orgId);
      if (row && row.state === "connected") chosen.push(row);
    }
    return chosen;
  }

  /** Runs a provider call; a refused credential breaks the connection, any failure becomes words. */
  async function guarded<T>(connection: ConnectionRow, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof CalendarAuthError) {
        await connections.markBroken(connection, error.message);
        throw new CalendarUnavailable(
          `${label(connection.provider)} is disconnected (${error.message}). Tell the caller the booking could not be made now and that the team will call back.`,
        );
      }
      if (error instanceof CalendarError) {
        log.warn({ err: error, provider: connection.provider }, "calendar call failed");
        if (error.status === 400 && connection.provider === "calendly") {
          throw new CalendarUnavailable(`Calendly refused the time: ${error.message}. Offer another time.`);
        }
        throw new CalendarUnavailable(
          `${label(connection.provider)} could not be reached (${error.message}). Try again in a moment or offer to have the team call back.`,
        );
      }
      throw error;
    }
  }

  async function externalBusy(connection: ConnectionRow, from: Date, to: Date): Promise<BusyInterval[]> {
    if (connection.provider === "google") {
      const calendarId = connection.mainCalendarId;
      if (!calendarId) return [];
      return guarded(connection, () =>
        connections.withGoogle(connection, (token) => google.freeBusy(token, calendarId, from, to)),
      );
    }
    const { token } = connections.credentials(connection);
    const userUri = String(connection.details.userUri ?? "");
    return guarded(connection, () => calendly.busyTimes(token, userUri, from, to));
  }

  async function createExternal(
    connection: ConnectionRow,
    row: BookingRow,
    timeZone: string,
  ): Promise<string> {
    if (connection.provider === "google") {
      const calendarId = connection.mainCalendarId;
      if (!calendarId) throw new CalendarUnavailable("Google Calendar has no main calendar chosen.");
      const event = await guarded(connection, () =>
        connections.withGoogle(connection, (token) =>
          google.insertEvent(token, calendarId, {
            start: row.startAt,
            end: row.endAt,
            title: `Appointment with ${row.name}`,
            description: [
              row.phoneNumber ? `Phone: ${row.phoneNumber}` : "",
              row.notes ?? "",
              "Booked by your Switchboard agent.",
            ]
              .filter(Boolean)
              .join("\n"),
            timeZone,
            attendee: { name: row.name, email: row.email },
          }),
        ),
      );
      return event.id;
    }
    if (!row.email) {
      throw new CalendarUnavailable(
        "Calendly needs the caller's e-mail address to book. Ask for it, then book again.",
      );
    }
    const { token } = connections.credentials(connection);
    const eventTypeUri = connection.mainCalendarId;
    if (!eventTypeUri) throw new CalendarUnavailable("Calendly has no event type chosen.");
    const email = row.email;
    const created = await guarded(connection, () =>
      calendly.createInvitee(token, { eventTypeUri, start: row.startAt, timeZone, name: row.name, email }),
    );
    return created.eventUri;
  }

  return {
    async busy(orgId, agentId, from, to) {
      const own = await schedule.bookingsBetween(orgId, [agentId], from, to);
      const busy: BusyInterval[] = own.map((row) => ({ start: row.startAt, end: row.endAt }));
      for (const connection of await connectionsOf(orgId, agentId)) {
        busy.push(...(await externalBusy(connection, from, to)));
      }
      return busy.sort((a, b) => a.start.getTime() - b.start.getTime());
    },

    async book(values, timeZone) {
      const connected = await connectionsOf(values.orgId, values.agentAccountId);
      for (const connection of connected) {
        const taken = await externalBusy(connection, values.startAt, values.endAt);
        if (taken.some((b) => b.start < values.endAt && b.end > values.startAt)) return null;
      }
      const row = await schedule.bookIfFree({ ...values, calendarProvider: connected[0]?.provider ?? null });
      if (!row) return null;
      const target = connected[0];
      if (!target) return row;
      try {
        const externalId = await createExternal(target, row, timeZone);
        return (await schedule.setExternal(row.id, target.provider, externalId)) ?? row;
      } catch (error) {
        // Not in the calendar means not booked: the own schedule must not keep a time the business never sees.
        await schedule.setStatus(row.id, "cancelled");
        throw error;
      }
    },

    async cancel(booking) {
      if (booking.calendarProvider && booking.externalId) {
        const rows = await connections.effective([booking.agentAccountId, booking.orgId]);
        const connection =
          rows.find(
            (r) => r.provider === booking.calendarProvider && r.accountId === booking.agentAccountId,
          ) ?? rows.find((r) => r.provider === booking.calendarProvider);
        const externalId = booking.externalId;
        if (connection && connection.state === "connected") {
          if (connection.provider === "google" && connection.mainCalendarId) {
            const calendarId = connection.mainCalendarId;
            await guarded(connection, () =>
              connections.withGoogle(connection, (token) =>
                google.deleteEvent(token, calendarId, externalId),
              ),
            );
          } else if (connection.provider === "calendly") {
            const { token } = connections.credentials(connection);
            await guarded(connection, () =>
              calendly.cancelEvent(token, externalId, "Cancelled in Switchboard"),
            );
          }
        }
      }
      return (await schedule.setStatus(booking.id, "cancelled")) ?? booking;
    },
  };
}

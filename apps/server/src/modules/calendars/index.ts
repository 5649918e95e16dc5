/** The calendars module's public entry point: other modules use it only through what this file exports. */
export { type AgentCalendar, CalendarUnavailable } from "./agent-calendar.ts";
export { toBooking } from "./calendars.service.ts";
export type { ScheduleRepository } from "./schedule.repository.ts";

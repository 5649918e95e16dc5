import { type BusyInterval, type CalendlyApi, splitRange } from "./calendar-api.ts";
import { providerJson } from "./http-json.ts";

/** Calendly answers busy times for at most a week per request. */
const WEEK_MS = 7 * 86_400_000;

type Resource<T> = { resource: T };
type Collection<T> = { collection: T[]; pagination?: { next_page?: string | null } };

/** Calendly API v2 with a user's personal access token (Bearer). */
export function calendlyClient(apiUrl: string, now: () => number = Date.now): CalendlyApi {
  const base = apiUrl.replace(/\/$/, "");
  const headers = (token: string) => ({
    authorization: `Bearer ${token}`,
    "content-type": "application/json",
  });
  return {
    kind: "calendly",
    async currentUser(token) {
      const { resource } = await providerJson<
        Resource<{ uri: string; name: string; email: string; scheduling_url: string; timezone: string }>
      >("Calendly", `${base}/users/me`, { headers: headers(token) });
      return {
        uri: resource.uri,
        name: resource.name,
        email: resource.email,
        schedulingUrl: resource.scheduling_url,
        timeZone: resource.timezone,
      };
    },
    async eventTypes(token, userUri) {
      const query = new URLSearchParams({ user: userUri, active: "true", count: "100" });
      const answer = await providerJson<
        Collection<{ uri: string; name: string; duration: number; active: boolean }>
      >("Calendly", `${base}/event_types?${query}`, { headers: headers(token) });
      return answer.collection.map((type) => ({
        uri: type.uri,
        name: type.name,
        durationMinutes: type.duration,
        active: type.active,
      }));
    },
    async busyTimes(token, userUri, from, to) {
      // Calendly refuses ranges that start in the past.
      const start = new Date(Math.max(from.getTime(), now() + 60_000));
      const busy: BusyInterval[] = [];
      for (const [pieceStart, pieceEnd] of splitRange(start, to, WEEK_MS)) {
        const query = new URLSearchParams({
          user: userUri,
          start_time: pieceStart.toISOString(),
          end_time: pieceEnd.toISOString(),
        });
        const answer = await providerJson<Collection<{ start_time: string; end_time: string }>>(
          "Calendly",
          `${base}/user_busy_times?${query}`,
          { headers: headers(token) },
        );
        for (const item of answer.collection) {
          busy.push({ start: new Date(item.start_time), end: new Date(item.end_time) });
        }
      }
      return busy;
    },
    async createInvitee(token, input) {
      const { resource } = await providerJson<Resource<{ uri: string; event: string }>>(
        "Calendly",
        `${base}/invitees`,
        {
          method: "POST",
          headers: headers(token),
          body: JSON.stringify({
            event_type: input.eventTypeUri,
            start_time: input.start.toISOString(),
            invitee: { name: input.name, email: input.email, timezone: input.timeZone },
          }),
        },
      );
      return { eventUri: resource.event };
    },
    async cancelEvent(token, eventUri, reason) {
      // Only the event's id is taken from the stored uri: the request goes to the configured API.
      const uuid = eventUri.replace(/\/$/, "").split("/").pop() ?? "";
      await providerJson("Calendly", `${base}/scheduled_events/${encodeURIComponent(uuid)}/cancellation`, {
        method: "POST",
        headers: headers(token),
        body: JSON.stringify({ reason }),
      });
    },
  };
}

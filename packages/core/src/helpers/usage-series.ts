import { DAY_MS, USAGE_PADDING_DAYS } from "../constants.ts";
import { parseIsoDay, utcDay } from "./calendar-day.ts";

/** Usage result buckets (call catalogue §3). */
export const USAGE_BUCKETS = [
  "number",
  "tokens",
  "voice",
  "advancedVoice",
  "outbound-message",
  "inbound-message",
] as const;

export type UsageBucket = (typeof USAGE_BUCKETS)[number];
export type UsageBuckets = Record<UsageBucket, number>;
/** One day of usage: `date` is `MM-DD-YYYY`; other fields the server sent (costs, ...) are kept. */
export type UsagePoint = { date: string } & UsageBuckets & Record<string, unknown>;

export type UsageSeriesInput =
  | Readonly<Record<string, Partial<UsageBuckets> & Record<string, unknown>>>
  | ReadonlyArray<{ date: string } & Partial<UsageBuckets> & Record<string, unknown>>;

/** Day (UTC midnight, ms) of `MM-DD-YYYY`, `YYYY-MM-DD` or an ISO timestamp; null when not a real date. */
export function parseUsageDate(text: string): number | null {
  const us = /^(\d{2})-(\d{2})-(\d{4})$/.exec(text);
  if (us) return utcDay(Number(us[3]), Number(us[1]), Number(us[2]));
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return parseIsoDay(text);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text)) return null;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return null;
  const at = new Date(ms);
  return Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
}

/** `MM-DD-YYYY` of a UTC day. */
export function formatUsageDate(dayMs: number): string {
  const date = new Date(dayMs);
  const mm = String(date.getUTCMonth() + 1).padStart(2, "0");
  const dd = String(date.getUTCDate()).padStart(2, "0");
  return `${mm}-${dd}-${date.getUTCFullYear()}`;
}

function zeroBuckets(): UsageBuckets {
  return { number: 0, tokens: 0, voice: 0, advancedVoice: 0, "outbound-message": 0, "inbound-message": 0 };
}

/**
 * Current-billing-period usage series (call catalogue §9): the server's days keyed by `MM-DD-YYYY`, padded
 * with zero buckets for every missing day of the {@link USAGE_PADDING_DAYS} days starting at the earliest
 * date, sorted by date. Days the server sent beyond that window are kept. Missing buckets count 0; entries
 * that fall on the same day are added up; entries whose date cannot be read are dropped.
 */
export function padUsageSeries(input: UsageSeriesInput, days: number = USAGE_PADDING_DAYS): UsagePoint[] {
  const entries: Array<[string, Record<string, unknown>]> = Array.isArray(input)
    ? input.map((entry) => [entry.date, entry])
    : Object.entries(input as Record<string, Record<string, unknown>>);
  const byDay = new Map<number, UsagePoint>();
  for (const [key, entry] of entries) {
    const day = parseUsageDate(key);
    if (day === null) continue;
    const existing = byDay.get(day);
    const point: UsagePoint = existing ?? { ...zeroBuckets(), date: formatUsageDate(day) };
    for (const [field, value] of Object.entries(entry)) {
      if (field === "date") continue;
      if ((USAGE_BUCKETS as readonly string[]).includes(field)) {
        const amount = Number(value);
        point[field] = (point[field] as number) + (Number.isFinite(amount) ? amount : 0);
      } else {
        point[field] = value;
      }
    }
    byDay.set(day, point);
  }
  const first = Math.min(...byDay.keys());
  if (Number.isFinite(first)) {
    for (let i = 0; i < days; i++) {
      const day = first + i * DAY_MS;
      if (!byDay.has(day)) byDay.set(day, { ...zeroBuckets(), date: formatUsageDate(day) });
    }
  }
  return [...byDay.entries()].sort(([a], [b]) => a - b).map(([, point]) => point);
}

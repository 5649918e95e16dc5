import { randomUUID } from "node:crypto";
import { DAY_MS, instantOf, isoInZone } from "@switchboard/core";

/**
 * Realistic call logs for an organisation: the demo organisation's dashboard on first start, tests that
 * need many rows, and the benchmarks (1,000,000 rows). Calls spread over the last `days` days, mostly in
 * business hours and on weekdays; three quarters inbound; some unanswered (duration 0), some transferred,
 * a share of inbound calls booking an appointment; collected data (reason, caller name, insurance,
 * appointment time, satisfaction, channel) as the agents store it. Deterministic for a seed (except the
 * uuids and room ids, which must be unique in the table). With `conversations`, every row also gets what a
 * real call leaves behind: its room, its conversation and the transcript the log's data tells of.
 */

export type GenerateLogsOptions = {
  orgId: number;
  accountName: string;
  /** Agents the calls are spread over (at least one). */
  agentIds: readonly number[];
  /** The organisation's own number, the `to` of inbound calls. */
  agentNumber?: string;
  count: number;
  /** Spread over the last N days (default 90). */
  days?: number;
  /** End of the spread, ms (default now). */
  now?: number;
  seed?: number;
  /** Also meter each call in runtime_usage (tokens, SMS messages) so usage statistics have data. */
  usage?: boolean;
  /**
   * Also write each call's room, conversation and transcript (the demo data: every row opens its
   * transcript and call stats). Off for the benchmarks' millions of rows.
   */
  conversations?: boolean;
};

export type GeneratedLog = {
  orgId: number;
  accountId: number;
  accountName: string;
  agentId: number;
  timestamp: number;
  duration: number;
  fromNumber: string;
  toNumber: string;
  cnam: string;
  roomId: string;
  direction: "inbound" | "outbound";
  transfer: "0" | "1";
  callId: string;
  uuid: string;
  /** The conversation's channel, also in `data.channel` as the agents store it. */
  channel: "voice" | "sms";
  data: Record<string, unknown>;
  /** The appointment a booked call made (ms), else null. */
  appointmentStart: number | null;
};

function prng(seed: number) {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const FIRST = [
  "Maria",
  "James",
  "Aisha",
  "Chen",
  "Olivia",
  "Noah",
  "Sofia",
  "Liam",
  "Priya",
  "Lucas",
  "Emma",
  "Mateo",
];
const LAST = [
  "Garcia",
  "Smith",
  "Khan",
  "Wei",
  "Johnson",
  "Brown",
  "Rossi",
  "Nguyen",
  "Patel",
  "Silva",
  "Miller",
];
const CNAMS = ["WIRELESS CALLER", "UNKNOWN", "", "PORTLAND OR"];
const REASONS = [
  "New patient",
  "Cleaning",
  "Toothache",
  "Reschedule",
  "Billing question",
  "Insurance question",
  "Whitening",
];
const INSURANCE = ["Delta Dental", "Cigna", "MetLife", "Aetna", "None", "Guardian"];
const REVIEW_REASONS = [
  "Caller asked for a person twice",
  "Caller said the answer was wrong",
  "Call dropped mid-booking",
];
/** Share of calls per hour of the day (local business hours busiest). */
const HOUR_WEIGHTS = [0, 0, 0, 0, 0, 0, 1, 3, 8, 10, 10, 9, 7, 8, 9, 9, 7, 5, 3, 2, 1, 1, 0, 0];
const HOUR_TOTAL = HOUR_WEIGHTS.reduce((a, b) => a + b, 0);
/** Bluebird Dental's clinic is on the US west coast: UTC-8. */
const CLINIC_OFFSET_MS = -8 * 3_600_000;
/** The clinic's time zone: the demo agents' own, in which bookings are made and told. */
export const CLINIC_TIME_ZONE = "America/Los_Angeles";

export function* generateLogs(options: GenerateLogsOptions): Generator<GeneratedLog> {
  const random = prng(options.seed ?? 0x10c5);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const days = options.days ?? 90;
  const end = options.now ?? Date.now();
  const lastDay = Math.floor((end + CLINIC_OFFSET_MS) / DAY_MS);
  const agentNumber = options.agentNumber ?? "+15035550100";
  if (options.agentIds.length === 0) throw new Error("generateLogs needs at least one agent");
  for (let i = 0; i < options.count; i++) {
    let day = lastDay - Math.floor(random() * days);
    const weekday = new Date(day * DAY_MS).getUTCDay();
    if ((weekday === 0 || weekday === 6) && random() < 0.6) day -= weekday === 0 ? 2 : 1; // quieter weekends
    let roll = random() * HOUR_TOTAL;
    let hour = 0;
    while (hour < 23 && roll >= (HOUR_WEIGHTS[hour] as number)) roll -= HOUR_WEIGHTS[hour++] as number;
    let timestamp = day * DAY_MS - CLINIC_OFFSET_MS + hour * 3_600_000 + Math.floor(random() * 3_600_000);
    if (timestamp > end) timestamp = end - Math.floor(random() * 3_600_000);
    const inbound = random() < 0.75;
    const answered = random() > 0.08;
    const duration = answered ? Math.min(1800, Math.round(25 + -Math.log(1 - random()) * 140)) : 0;
    const transferred = answered && random() < 0.12;
    const booked = answered && inbound && !transferred && random() < 0.34;
    const caller = `+1503${String(2_000_000 + Math.floor(random() * 7_999_999))}`;
    const name = `${pick(FIRST)} ${pick(LAST)}`;
    const channel = random() < 0.85 ? "voice" : "sms";
    const data: Record<string, unknown> = {
      appointmentBooked: booked,
      channel,
      stage: "production",
      source: "live",
      reason: pick(REASONS),
      callerName: name,
    };
    if (answered) data.satisfaction = 1 + Math.floor(random() * 5);
    if (random() < 0.6) data.insurance = pick(INSURANCE);
    let appointmentStart: number | null = null;
    if (booked) {
      let bookedDay = day + 1 + Math.floor(random() * 14);
      const bookedWeekday = new Date(bookedDay * DAY_MS).getUTCDay();
      if (bookedWeekday === 0 || bookedWeekday === 6) bookedDay += bookedWeekday === 6 ? 2 : 1; // open Mon-Fri
      const date = new Date(bookedDay * DAY_MS);
      const slot = Math.floor(random() * 16); // half hours from 8:00 am to 3:30 pm
      appointmentStart = instantOf(
        {
          year: date.getUTCFullYear(),
          month: date.getUTCMonth() + 1,
          day: date.getUTCDate(),
          hour: 8 + Math.floor(slot / 2),
          minute: (slot % 2) * 30,
        },
        CLINIC_TIME_ZONE,
      );
      // As the schedule tool stores it: the booked start with the clinic's offset.
      data.appointmentTime = isoInZone(appointmentStart, CLINIC_TIME_ZONE);
    }
    if (channel === "voice" && random() < 0.1) data.voiceTier = "advanced";
    if (random() < 0.005) data.reviewReason = pick(REVIEW_REASONS);
    const uuid = randomUUID();
    yield {
      orgId: options.orgId,
      accountId: options.orgId,
      accountName: options.accountName,
      agentId: options.agentIds[i % options.agentIds.length] as number,
      timestamp,
      duration,
      fromNumber: inbound ? caller : agentNumber,
      toNumber: inbound ? agentNumber : caller,
      cnam: inbound ? (random() < 0.5 ? name.toUpperCase() : pick(CNAMS)) : "",
      roomId: `room-${uuid.slice(0, 18)}`,
      direction: inbound ? "inbound" : "outbound",
      transfer: transferred ? "1" : "0",
      callId: `CA${uuid.replace(/-/g, "")}`,
      uuid,
      channel,
      data,
      appointmentStart,
    };
  }
}

import { randomUUID } from "node:crypto";
import { DAY_MS } from "@switchboard/core";
import { sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";

/**
 * Realistic call logs for an organisation: the demo organisation's dashboard on first start, tests that
 * need many rows, and the benchmarks (1,000,000 rows). Calls spread over the last `days` days, mostly in
 * business hours and on weekdays; three quarters inbound; some unanswered (duration 0), some transferred,
 * a share of inbound calls booking an appointment; collected data (reason, caller name, insurance,
 * appointment date, satisfaction, channel) as the agents store it. Deterministic for a seed (except the
 * uuids and room ids, which must be unique in the table).
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
  data: Record<string, unknown>;
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
    if (booked)
      data.appointmentDate = new Date((day + 1 + Math.floor(random() * 14)) * DAY_MS)
        .toISOString()
        .slice(0, 10);
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
      data,
    };
  }
}

/**
 * Inserts generated logs in batches (one statement of column arrays per batch). Answers the rows written.
 * Works on PGlite and PostgreSQL through Drizzle.
 */
export async function insertGeneratedLogs(
  db: Database,
  options: GenerateLogsOptions,
  batchSize = 5000,
): Promise<number> {
  let written = 0;
  let batch: GeneratedLog[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const col = <K extends keyof GeneratedLog>(key: K) => batch.map((row) => row[key]);
    await db.execute(sql`
      INSERT INTO conversation_logs
        (org_id, account_id, account_name, agent_id, "timestamp", duration, from_number, to_number, cnam,
         room_id, direction, transfer, call_id, uuid, data)
      SELECT o, a, n, ag, ts::timestamptz, d, f, t, c, r, dir, tr, ci, u, dt::jsonb
      FROM unnest(
        ${sql.param(col("orgId"))}::int[], ${sql.param(col("accountId"))}::int[], ${sql.param(col("accountName"))}::text[],
        ${sql.param(col("agentId"))}::int[], ${sql.param(batch.map((row) => new Date(row.timestamp).toISOString()))}::text[],
        ${sql.param(col("duration"))}::int[], ${sql.param(col("fromNumber"))}::text[], ${sql.param(col("toNumber"))}::text[],
        ${sql.param(col("cnam"))}::text[], ${sql.param(col("roomId"))}::text[], ${sql.param(col("direction"))}::text[],
        ${sql.param(col("transfer"))}::text[], ${sql.param(col("callId"))}::text[], ${sql.param(col("uuid"))}::text[],
        ${sql.param(batch.map((row) => JSON.stringify(row.data)))}::text[]
      ) AS x(o, a, n, ag, ts, d, f, t, c, r, dir, tr, ci, u, dt)`);
    if (options.usage) {
      await db.execute(sql`
        INSERT INTO runtime_usage
          (org_id, agent_account_id, room_id, conversation_uuid, channel, provider, model, input_tokens,
           output_tokens, total_tokens, steps, messages_in, messages_out, created_at)
        SELECT o, ag, r, u, ch, 'sandbox', 'sandbox', ti, tout, ti + tout, 1, mi, mo, ts::timestamptz
        FROM unnest(
          ${sql.param(col("orgId"))}::int[], ${sql.param(col("agentId"))}::int[], ${sql.param(col("roomId"))}::text[],
          ${sql.param(col("uuid"))}::text[], ${sql.param(batch.map((row) => String(row.data.channel)))}::text[],
          ${sql.param(batch.map((row) => 300 + row.duration * 6))}::int[], ${sql.param(batch.map((row) => 60 + row.duration * 2))}::int[],
          ${sql.param(batch.map((row) => (row.data.channel === "sms" ? 2 + (row.duration % 4) : 0)))}::int[],
          ${sql.param(batch.map((row) => (row.data.channel === "sms" ? 2 + (row.duration % 3) : 0)))}::int[],
          ${sql.param(batch.map((row) => new Date(row.timestamp).toISOString()))}::text[]
        ) AS x(o, ag, r, u, ch, ti, tout, mi, mo, ts)`);
    }
    written += batch.length;
    batch = [];
  };
  for (const row of generateLogs(options)) {
    batch.push(row);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return written;
}

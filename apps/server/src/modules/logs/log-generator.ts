import { randomUUID } from "node:crypto";
import {
  DAY_MS,
  describeInstant,
  formatPhoneNumber,
  instantOf,
  isoDayInZone,
  isoInZone,
} from "@switchboard/core";
import { sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import type { StoredToolCall, StoredToolResult } from "../../db/schema/index.ts";

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
      data,
      appointmentStart,
    };
  }
}

/** The demo's transfer destination (the Front Desk agent's `transferNumber`). */
const TRANSFER_NUMBER = "+15035550100";
const MODEL = "Sandbox model";

/** What callers say about each reason, and the agent's first answer to it. */
const REASON_LINES: Record<string, readonly [string, string]> = {
  "New patient": ["Hi, I'd like to come in as a new patient.", "We'd be glad to see you."],
  Cleaning: ["Hi, I'm due for a cleaning.", "Happy to help you with a cleaning."],
  Toothache: [
    "I have a toothache that keeps getting worse.",
    "I'm sorry to hear that. We keep time for urgent visits every day.",
  ],
  Reschedule: ["I need to move my appointment.", "No problem, let's find you a new time."],
  "Billing question": ["I have a question about my last bill.", "I can help with that."],
  "Insurance question": ["Do you take my insurance?", "We accept most major PPO plans."],
  Whitening: [
    "How much is teeth whitening?",
    "In-office whitening takes about an hour; the dentist confirms the price at your visit.",
  ],
};

/** One message of a generated transcript, before its time is set. */
export type GeneratedMessage = {
  role: "user" | "assistant";
  text: string;
  toolCalls: StoredToolCall[];
  toolResults: StoredToolResult[];
};

type GeneratedToolCall = { name: string; arguments: unknown; result: unknown; summary: string };

/**
 * The conversation a generated log row tells of, turn by turn: the greeting (all an unanswered call has),
 * the caller's reason and name, the insurance when one was collected, then the booking (with its
 * availability check), the transfer or the goodbye, with the tool calls those turns made.
 */
export function generatedTranscript(row: GeneratedLog): GeneratedMessage[] {
  const data = row.data;
  const sms = data.channel === "sms";
  const name = String(data.callerName ?? "");
  const first = name.split(" ")[0] ?? name;
  const reason = String(data.reason ?? "");
  const [asked, answered] = REASON_LINES[reason] ?? [`I'm calling about ${reason}.`, "I can help with that."];
  const messages: GeneratedMessage[] = [];
  let tools = 0;
  const say = (role: "user" | "assistant", text: string, calls: GeneratedToolCall[] = []) => {
    const ids = calls.map(() => `call_${row.uuid.slice(0, 8)}_${++tools}`);
    messages.push({
      role,
      text,
      toolCalls: calls.map((call, i) => ({
        toolCallId: ids[i] as string,
        name: call.name,
        arguments: call.arguments,
      })),
      toolResults: calls.map((call, i) => ({
        toolCallId: ids[i] as string,
        name: call.name,
        result: call.result,
        summary: call.summary,
      })),
    });
  };
  const inbound = row.direction === "inbound";
  if (inbound) {
    say(
      "assistant",
      sms
        ? `Hi, this is ${row.accountName}'s virtual assistant. How can I help?`
        : `Thank you for calling ${row.accountName}. How can I help you today?`,
    );
  } else {
    say(
      "assistant",
      `Hello, this is ${row.accountName}'s virtual assistant ${sms ? "writing" : "calling"} about your ${reason.toLowerCase()}. Am I speaking with ${name}?`,
    );
  }
  if (row.duration === 0) return messages;
  if (inbound) {
    say("user", asked);
    say("assistant", `${answered} May I have your name, please?`);
    say("user", `It's ${name}.`);
  } else {
    say("user", "Yes, speaking.");
  }
  if (typeof data.insurance === "string") {
    say("assistant", `Thanks, ${first}. Which insurance do you have?`);
    say("user", data.insurance === "None" ? "I don't have insurance." : `${data.insurance}.`);
  }
  if (row.appointmentStart !== null) {
    const start = row.appointmentStart;
    const when = describeInstant(start, CLINIC_TIME_ZONE);
    const date = isoDayInZone(start, CLINIC_TIME_ZONE);
    const [label] = when.split(",");
    const time = when.slice(when.indexOf(",") + 2);
    const iso = isoInZone(start, CLINIC_TIME_ZONE);
    say("assistant", `I have ${when} free. Shall I book it for you?`, [
      {
        name: "checkAvailability",
        arguments: { date },
        result: { date, freeTimes: [iso] },
        summary: `Free on ${label}: ${time}`,
      },
    ]);
    say("user", "Yes, please.");
    say("assistant", `You're booked for ${when}. See you then!`, [
      {
        name: "bookAppointment",
        arguments: { start: iso, name },
        result: { booked: true, start: iso, name },
        summary: `Booked ${when} for ${name}`,
      },
    ]);
  } else if (row.transfer === "1") {
    say("assistant", "Let me put you through to our front desk team.", [
      {
        name: "transferCall",
        arguments: { destination: TRANSFER_NUMBER, reason },
        result: { transferred: true, destination: TRANSFER_NUMBER },
        summary: `Transferring to ${formatPhoneNumber(TRANSFER_NUMBER.slice(1))}`,
      },
    ]);
  } else {
    say("assistant", "Is there anything else I can help you with?");
    say("user", "No, that's all. Thanks!");
    say("assistant", "You're welcome. Goodbye!", [
      { name: "endCall", arguments: {}, result: { ended: true }, summary: "Conversation ended" },
    ]);
  }
  return messages;
}

/**
 * The room, participants, conversation and transcript of a batch of generated rows. The rooms are past calls
 * and threads, archived: the inbox opens on the live conversations, and the calls stay reachable from Calls
 * and from the inbox's archive.
 */
async function insertGeneratedConversations(db: Database, batch: readonly GeneratedLog[]) {
  const roomRows = batch.map((row) => {
    const messages = generatedTranscript(row);
    const external = row.direction === "inbound" ? row.fromNumber : row.toNumber;
    const own = row.direction === "inbound" ? row.toNumber : row.fromNumber;
    const channel = row.data.channel === "sms" ? "sms" : "voice";
    const span = Math.max(row.duration, 1) * 1000;
    const timed = messages.map((message, index) => ({
      ...message,
      at: row.timestamp + Math.round((index * span) / messages.length),
      // The greeting is said word for word (no model call); answers take a model turn.
      firstTokenMs:
        message.role === "assistant" ? (index === 0 ? 0 : 320 + ((index * 137 + row.duration) % 480)) : null,
    }));
    const last = timed[timed.length - 1];
    const { channel: _c, stage: _s, source: _src, voiceTier: _v, ...collected } = row.data;
    const outcome: Record<string, unknown> = {};
    const endedAt = new Date(row.timestamp + row.duration * 1000).toISOString();
    if (row.transfer === "1")
      outcome.transferred = { destination: TRANSFER_NUMBER, reason: row.data.reason, at: endedAt };
    else if (row.duration > 0 && row.appointmentStart === null) outcome.ended = { reason: null, at: endedAt };
    return { row, external, own, channel, timed, last, collected, outcome, endedAt };
  });
  const list = <T>(pick: (room: (typeof roomRows)[number]) => T) => roomRows.map(pick);
  const iso = (ms: number) => new Date(ms).toISOString();
  await db.execute(sql`
    INSERT INTO rooms
      (id, org_id, agent_account_id, channel, kind, status, external_address, title, last_message_text,
       last_message_at, created_at, updated_at)
    SELECT r, o, ag, ch, 'live', 'archived', ext, ext, lt, la::timestamptz, ca::timestamptz, la::timestamptz
    FROM unnest(
      ${sql.param(list((x) => x.row.roomId))}::text[], ${sql.param(list((x) => x.row.orgId))}::int[],
      ${sql.param(list((x) => x.row.agentId))}::int[], ${sql.param(list((x) => x.channel))}::text[],
      ${sql.param(list((x) => x.external))}::text[], ${sql.param(list((x) => x.last?.text ?? null))}::text[],
      ${sql.param(list((x) => iso(x.last?.at ?? x.row.timestamp)))}::text[],
      ${sql.param(list((x) => iso(x.row.timestamp)))}::text[]
    ) AS x(r, o, ag, ch, ext, lt, la, ca)`);
  await db.execute(sql`
    INSERT INTO room_participants (org_id, room_id, kind, account_id, address, joined_at)
    SELECT o, r, k, a, ad, j::timestamptz
    FROM unnest(
      ${sql.param(roomRows.flatMap((x) => [x.row.orgId, x.row.orgId]))}::int[],
      ${sql.param(roomRows.flatMap((x) => [x.row.roomId, x.row.roomId]))}::text[],
      ${sql.param(roomRows.flatMap(() => ["agent", "external"]))}::text[],
      ${sql.param(roomRows.flatMap((x) => [x.row.agentId, null]))}::int[],
      ${sql.param(roomRows.flatMap((x) => [null, x.external]))}::text[],
      ${sql.param(roomRows.flatMap((x) => [iso(x.row.timestamp), iso(x.row.timestamp)]))}::text[]
    ) AS x(o, r, k, a, ad, j)`);
  await db.execute(sql`
    INSERT INTO conversations
      (uuid, org_id, room_id, agent_account_id, channel, stage, direction, from_address, to_address, call_id,
       status, model, collected, outcome, started_at, last_activity_at, ended_at)
    SELECT u, o, r, ag, ch, 'production', dir, f, t, ci, 'ended', ${MODEL}, col::jsonb, oc::jsonb,
      st::timestamptz, en::timestamptz, en::timestamptz
    FROM unnest(
      ${sql.param(list((x) => x.row.uuid))}::text[], ${sql.param(list((x) => x.row.orgId))}::int[],
      ${sql.param(list((x) => x.row.roomId))}::text[], ${sql.param(list((x) => x.row.agentId))}::int[],
      ${sql.param(list((x) => x.channel))}::text[], ${sql.param(list((x) => x.row.direction))}::text[],
      ${sql.param(list((x) => x.row.fromNumber))}::text[], ${sql.param(list((x) => x.row.toNumber))}::text[],
      ${sql.param(list((x) => x.row.callId))}::text[], ${sql.param(list((x) => JSON.stringify(x.collected)))}::text[],
      ${sql.param(list((x) => JSON.stringify(x.outcome)))}::text[], ${sql.param(list((x) => iso(x.row.timestamp)))}::text[],
      ${sql.param(list((x) => x.endedAt))}::text[]
    ) AS x(u, o, r, ag, ch, dir, f, t, ci, col, oc, st, en)`);
  const messages = roomRows.flatMap((x) =>
    x.timed.map((message) => ({
      orgId: x.row.orgId,
      roomId: x.row.roomId,
      uuid: x.row.uuid,
      role: message.role,
      text: message.text,
      sender: message.role === "user" ? x.external : x.own,
      toolCalls: JSON.stringify(message.toolCalls),
      toolResults: JSON.stringify(message.toolResults),
      model: message.role === "assistant" ? MODEL : null,
      firstTokenMs: message.firstTokenMs,
      // A model turn streams its text after the first token; the greeting is sent whole.
      durationMs:
        message.firstTokenMs === null || message.firstTokenMs === 0
          ? message.firstTokenMs
          : message.firstTokenMs + message.text.length * 6,
      delivery: x.channel === "sms" ? (message.role === "user" ? "received" : "delivered") : null,
      at: iso(message.at),
    })),
  );
  const column = <K extends keyof (typeof messages)[number]>(key: K) =>
    messages.map((message) => message[key]);
  await db.execute(sql`
    INSERT INTO conversation_messages
      (org_id, room_id, conversation_uuid, role, text, sender_address, tool_calls, tool_results, status, model,
       first_token_ms, duration_ms, delivery_status, created_at)
    SELECT o, r, u, ro, tx, sa, tc::jsonb, tr::jsonb, 'complete', m, ft, du, ds, ca::timestamptz
    FROM unnest(
      ${sql.param(column("orgId"))}::int[], ${sql.param(column("roomId"))}::text[], ${sql.param(column("uuid"))}::text[],
      ${sql.param(column("role"))}::text[], ${sql.param(column("text"))}::text[], ${sql.param(column("sender"))}::text[],
      ${sql.param(column("toolCalls"))}::text[], ${sql.param(column("toolResults"))}::text[], ${sql.param(column("model"))}::text[],
      ${sql.param(column("firstTokenMs"))}::int[], ${sql.param(column("durationMs"))}::int[],
      ${sql.param(column("delivery"))}::text[], ${sql.param(column("at"))}::text[]
    ) AS x(o, r, u, ro, tx, sa, tc, tr, m, ft, du, ds, ca)`);
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
    if (options.conversations) await insertGeneratedConversations(db, batch);
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

import { describeInstant, formatPhoneNumber, isoDayInZone, isoInZone } from "@switchboard/core";
import { sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import type { StoredToolCall, StoredToolResult } from "../../db/schema/index.ts";
import { CLINIC_TIME_ZONE, type GeneratedLog } from "./log-generator.ts";

/**
 * What a generated call log leaves behind besides its row: the room, the conversation and the transcript
 * its data tells of (the demo's Calls page opens every seeded call). Used by insertGeneratedLogs with
 * `conversations`.
 */

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
export async function insertGeneratedConversations(db: Database, batch: readonly GeneratedLog[]) {
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

import { createHmac } from "node:crypto";
import type { CampaignFields, KbPassage } from "@switchboard/api";
import {
  describeInstant,
  describeTime,
  formatPhoneNumber,
  instantOf,
  isLogDataKey,
  isLogFixedField,
  isoInZone,
  wallTimeOf,
} from "@switchboard/core";
import { type Outbound, OutboundError, type OutboundResponse } from "../../http/outbound.ts";
import type { SmsProvider } from "../../providers/sms/sms-provider.ts";
import { type AgentCalendar, CalendarUnavailable } from "../calendars/index.ts";
import type { WebhookEvents } from "../webhooks/index.ts";
import type { Channel } from "./system-prompt.ts";

/**
 * What the built-in apps' functions do when an agent calls them. Each answers a JSON result with a `summary`
 * for people ("Booked Tue 21 May, 3:00 pm for Jane") or throws a ToolRefusal whose message goes back to the
 * model. In preview (runPrompt) nothing changes outside the turn: they say what they would do.
 */

export class ToolRefusal extends Error {
  override name = "ToolRefusal";
}

/** A transfer the agent asked for on a call (the transferCall tool). */
export type TransferRequest = {
  destination: string;
  mode: "cold" | "warm";
  reason: string | null;
  summary: string | null;
};

/**
 * What a voice call lets its tools do (modules/voice: call-transfer.ts, call-keypad.ts); absent on chat and
 * SMS. A transfer is only accepted here (the destination named, within its hours): it runs once the agent's
 * answer has been said, and its result goes to the transcript and the call's log row.
 */
export type CallControls = {
  /** The names of the agent's transfer destinations, told to the model with the transferCall tool. */
  destinations?: readonly string[];
  transfer(
    request: TransferRequest,
  ): { accepted: true; name: string; to: string } | { accepted: false; message: string };
  /** Presses keys on the line; false when this call cannot send keys. */
  sendDtmf(digits: string): Promise<boolean>;
  /** Waits for keys the caller types: ended by #, `maxDigits`, a pause of `timeoutSeconds`, or the hang-up. */
  collectDigits(options: {
    maxDigits: number;
    timeoutSeconds: number;
  }): Promise<{ digits: string; endedBy: "#" | "max" | "timeout" | "hangup" }>;
};

/** What a turn's tools found out: collected data and outcomes, kept on the conversation and its log row. */
export type TurnState = { collected: Record<string, unknown>; outcome: Record<string, unknown> };

export type ToolContext = {
  orgId: number;
  agentId: number;
  campaign: Pick<CampaignFields, "actions">;
  timeZone: string;
  channel: Channel;
  roomId: string | null;
  conversationUuid: string | null;
  /** The outside party's address (the caller's number), the default for a text message. */
  callerAddress: string | null;
  preview: boolean;
  state: TurnState;
  now: () => number;
  /** The agent's calendar: its own schedule plus a connected Google calendar or Calendly. */
  calendar: AgentCalendar;
  sms: SmsProvider;
  /** The organisation's webhook app settings, when installed. */
  webhookSettings: () => Promise<{ url: string; secret: string } | null>;
  toolTimeoutMs: number;
  /** The guarded way out: the webhook's address is a user's. */
  outbound: Pick<Outbound, "fetchText">;
  /** The organisation's webhooks (appointment.booked). */
  webhooks?: WebhookEvents;
  /** The agent's knowledge bases and the search over them (the knowledge tool), when it has any. */
  knowledge?: { knowledgeBaseIds: number[]; search: KnowledgeSearch };
  /** On a voice call: transfers and the keypad. */
  call?: CallControls;
};

/** The knowledge-base search: passages of some of an organisation's knowledge bases, best first. */
export type KnowledgeSearch = (
  orgId: number,
  knowledgeBaseIds: number[],
  query: string,
  options?: { limit?: number },
) => Promise<KbPassage[]>;

/** The name of the knowledge tool the model calls (beside the enabled app functions). */
export const KNOWLEDGE_TOOL = "searchKnowledgeBase";

/** Characters of a passage the tool hands the model. */
const PASSAGE_CHARS = 1200;

/** The knowledge tool: the passages of the agent's knowledge bases that best answer the query. */
export const searchKnowledgeBase: ToolExecutor = async (args, context) => {
  const query = String(args.query ?? "").trim();
  if (!query) throw new ToolRefusal("query is empty: pass the question or the words to look up.");
  if (!context.knowledge) throw new ToolRefusal("This agent has no knowledge base.");
  const passages = await context.knowledge.search(
    context.orgId,
    context.knowledge.knowledgeBaseIds,
    query.slice(0, 500),
    { limit: 3 },
  );
  return {
    query,
    passages: passages.map((passage) => ({
      title: passage.title,
      url: passage.url,
      text: passage.text.slice(0, PASSAGE_CHARS),
    })),
    summary:
      passages.length === 0
        ? "Nothing in the knowledge base matches"
        : `Found ${passages.length} passage${passages.length === 1 ? "" : "s"} in the knowledge base`,
  };
};

type Args = Record<string, unknown>;
export type ToolExecutor = (args: Args, context: ToolContext) => Promise<Record<string, unknown>>;

const DEFAULT_DURATION = 30;

/** A calendar that cannot answer (disconnected, unreachable) is told to the model in words. */
async function calendarCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof CalendarUnavailable) throw new ToolRefusal(error.message);
    throw error;
  }
}

function scheduleAction(context: ToolContext): Record<string, unknown> {
  return (context.campaign.actions.find((action) => action.name === "schedule") ?? {}) as Record<
    string,
    unknown
  >;
}

function durationOf(args: Args, context: ToolContext): number {
  if (typeof args.durationMinutes === "number") return args.durationMinutes;
  const configured = scheduleAction(context).durationMinutes;
  return typeof configured === "number" && configured > 0 ? configured : DEFAULT_DURATION;
}

/** Bookable hours of a day: the schedule action's `hours` ("09:00-17:00"), else 9 am to 5 pm. */
function openingHours(context: ToolContext): { start: number; end: number } {
  const hours = scheduleAction(context).hours;
  const match = typeof hours === "string" ? hours.match(/^(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})$/) : null;
  if (match) {
    const start = Number(match[1]) * 60 + Number(match[2]);
    const end = Number(match[3]) * 60 + Number(match[4]);
    if (start < end) return { start, end };
  }
  return { start: 9 * 60, end: 17 * 60 };
}

const checkAvailability: ToolExecutor = async (args, context) => {
  const date = String(args.date);
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const duration = durationOf(args, context);
  const { start, end } = openingHours(context);
  const dayStart = instantOf({ year, month, day, hour: 0, minute: 0 }, context.timeZone);
  const dayEnd = instantOf({ year, month, day, hour: 23, minute: 59 }, context.timeZone);
  const booked = await calendarCall(() =>
    context.calendar.busy(context.orgId, context.agentId, new Date(dayStart), new Date(dayEnd)),
  );
  const free: string[] = [];
  const now = context.now();
  for (let minute = start; minute + duration <= end; minute += duration) {
    const slotStart = instantOf(
      { year, month, day, hour: Math.floor(minute / 60), minute: minute % 60 },
      context.timeZone,
    );
    const slotEnd = slotStart + duration * 60_000;
    if (slotStart <= now) continue;
    if (booked.some((b) => b.start.getTime() < slotEnd && b.end.getTime() > slotStart)) continue;
    free.push(isoInZone(slotStart, context.timeZone));
  }
  const label = describeInstant(dayStart + 12 * 3_600_000, context.timeZone).split(",")[0];
  const shown = free.slice(0, 6).map((iso) => describeTime(Date.parse(iso), context.timeZone));
  return {
    date,
    durationMinutes: duration,
    freeTimes: free,
    summary:
      free.length === 0
        ? `No free times on ${label}`
        : `Free on ${label}: ${shown.join(", ")}${free.length > shown.length ? ` and ${free.length - shown.length} more` : ""}`,
  };
};

const bookAppointment: ToolExecutor = async (args, context) => {
  const start = Date.parse(String(args.start));
  if (Number.isNaN(start)) throw new ToolRefusal("start must be a date and time with its UTC offset.");
  if (start <= context.now()) {
    throw new ToolRefusal(
      `That time has passed: it is now ${describeInstant(context.now(), context.timeZone)}. Choose a later time.`,
    );
  }
  const duration = durationOf(args, context);
  const end = start + duration * 60_000;
  const name = String(args.name).trim();
  const when = describeInstant(start, context.timeZone);
  if (context.preview) {
    return {
      booked: false,
      preview: true,
      start: isoInZone(start, context.timeZone),
      summary: `Would book ${when} for ${name}`,
    };
  }
  const row = await calendarCall(() =>
    context.calendar.book(
      {
        orgId: context.orgId,
        agentAccountId: context.agentId,
        startAt: new Date(start),
        endAt: new Date(end),
        name,
        phoneNumber: typeof args.phoneNumber === "string" ? args.phoneNumber : null,
        email: typeof args.email === "string" ? args.email : null,
        notes: typeof args.notes === "string" ? args.notes : null,
        status: "booked",
        source: "agent",
        roomId: context.roomId,
        conversationUuid: context.conversationUuid,
      },
      context.timeZone,
    ),
  );
  if (!row) throw new ToolRefusal(`${when} is already booked. Offer another time.`);
  await context.webhooks?.emit(context.orgId, "appointment.booked", {
    appointmentId: row.id,
    agentId: context.agentId,
    title: `Appointment with ${name}`,
    startsAt: start,
    endsAt: end,
    name,
    phoneNumber: row.phoneNumber ?? null,
    conversationId: context.roomId,
  });
  context.state.collected.appointmentBooked = true;
  context.state.collected.appointmentTime = isoInZone(start, context.timeZone);
  return {
    booked: true,
    bookingId: row.id,
    start: isoInZone(start, context.timeZone),
    end: isoInZone(end, context.timeZone),
    name,
    summary: `Booked ${when} for ${name}`,
  };
};

const transferCall: ToolExecutor = async (args, context) => {
  const destination = String(args.destination).trim();
  const mode = args.mode === "warm" ? "warm" : "cold";
  const shown = destination.startsWith("+") ? formatPhoneNumber(destination.slice(1)) : destination;
  if (context.preview)
    return { transferred: false, preview: true, destination, mode, summary: `Would transfer to ${shown}` };
  const reason = typeof args.reason === "string" ? args.reason.slice(0, 500) : null;
  if (!context.call) {
    // Chat and SMS have no line to hand over: the request is kept (a person follows up), not a transfer.
    context.state.outcome.transferRequested = {
      destination,
      reason,
      at: new Date(context.now()).toISOString(),
    };
    context.state.collected.transferRequested = true;
    return { transferred: false, requested: true, destination, summary: `Transferring to ${shown}` };
  }
  const accepted = context.call.transfer({
    destination,
    mode,
    reason,
    summary: typeof args.summary === "string" ? args.summary.slice(0, 500) : null,
  });
  if (!accepted.accepted) throw new ToolRefusal(accepted.message);
  return {
    transferring: true,
    destination: accepted.name,
    mode,
    summary: `Transferring to ${accepted.name} (${mode})`,
  };
};

const sendDtmf: ToolExecutor = async (args, context) => {
  const digits = String(args.digits ?? "").toUpperCase();
  if (!/^[0-9*#A-D]{1,32}$/.test(digits)) throw new ToolRefusal("digits must be 0-9, *, # or A-D.");
  if (context.preview) return { sent: false, preview: true, digits, summary: `Would press ${digits}` };
  if (!context.call) throw new ToolRefusal("There is no phone line in this conversation to press keys on.");
  if (!(await context.call.sendDtmf(digits)))
    throw new ToolRefusal("The call has ended: no keys were pressed.");
  const before = context.state.collected.keysPressed;
  context.state.collected.keysPressed = typeof before === "string" && before ? `${before} ${digits}` : digits;
  return { sent: true, digits, summary: `Pressed ${digits}` };
};

const collectDigits: ToolExecutor = async (args, context) => {
  const field = typeof args.field === "string" && args.field.trim() ? args.field.trim() : "digits";
  if (!isLogDataKey(field))
    throw new ToolRefusal(`${field} is not a valid field name (letters, digits and _).`);
  if (isLogFixedField(field)) throw new ToolRefusal(`${field} is a reserved field name; choose another.`);
  const maxDigits = typeof args.maxDigits === "number" ? Math.min(32, Math.max(1, args.maxDigits)) : 16;
  const timeoutSeconds =
    typeof args.timeoutSeconds === "number" ? Math.min(60, Math.max(1, args.timeoutSeconds)) : 8;
  if (context.preview) return { collected: false, preview: true, summary: `Would wait for keys (${field})` };
  if (!context.call)
    throw new ToolRefusal("Keypad input needs a phone call: ask the person to type the number.");
  const { digits, endedBy } = await context.call.collectDigits({ maxDigits, timeoutSeconds });
  if (digits) context.state.collected[field] = digits;
  return {
    digits,
    endedBy,
    field,
    summary: digits
      ? `The caller typed ${digits} (${endedBy === "#" ? "ended with #" : endedBy === "max" ? "all digits" : "then paused"})`
      : "The caller typed nothing",
  };
};

const endCall: ToolExecutor = async (args, context) => {
  if (context.preview) return { ended: false, preview: true, summary: "Would end the conversation" };
  context.state.outcome.ended = { reason: args.reason ?? null, at: new Date(context.now()).toISOString() };
  return { ended: true, summary: "Conversation ended" };
};

const sendSms: ToolExecutor = async (args, context) => {
  const raw = typeof args.to === "string" && args.to.trim() ? args.to : context.callerAddress;
  if (!raw)
    throw new ToolRefusal(
      "There is no number to text in this conversation: ask for one and pass it as `to`.",
    );
  const to = raw.replace(/[\s().-]/g, "");
  if (!/^\+?[1-9]\d{7,14}$/.test(to)) throw new ToolRefusal(`${raw} is not a phone number.`);
  const number = to.startsWith("+") ? to : `+${to}`;
  const shown = formatPhoneNumber(number.slice(1));
  const message = String(args.message);
  if (context.preview) return { sent: false, preview: true, to: number, summary: `Would text ${shown}` };
  await context.sms.send({ to: number, body: message });
  context.state.collected.smsSent = Number(context.state.collected.smsSent ?? 0) + 1;
  return { sent: true, to: number, summary: `Text sent to ${shown}` };
};

const saveData: ToolExecutor = async (args, context) => {
  const fields = (args.fields ?? {}) as Record<string, unknown>;
  const keys = Object.keys(fields);
  if (keys.length === 0) throw new ToolRefusal("fields is empty: pass the values collected.");
  for (const key of keys) {
    if (!isLogDataKey(key))
      throw new ToolRefusal(`${key} is not a valid field name (letters, digits and _).`);
    if (isLogFixedField(key)) throw new ToolRefusal(`${key} is a reserved field name; choose another.`);
  }
  if (!context.preview) Object.assign(context.state.collected, fields);
  return {
    saved: !context.preview,
    ...(context.preview ? { preview: true } : {}),
    fields,
    summary: `${context.preview ? "Would save" : "Saved"} ${keys.join(", ")}`,
  };
};

const callWebhook: ToolExecutor = async (args, context) => {
  const settings = await context.webhookSettings();
  if (!settings?.url) throw new ToolRefusal("The webhook app has no URL configured.");
  if (context.preview)
    return { sent: false, preview: true, url: settings.url, summary: `Would POST to ${settings.url}` };
  const body = JSON.stringify({
    event: "agent.function",
    function: "callWebhook",
    agentId: context.agentId,
    roomId: context.roomId,
    uuid: context.conversationUuid,
    payload: args.payload,
    sentAt: new Date(context.now()).toISOString(),
  });
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (settings.secret)
    headers["x-switchboard-signature"] =
      `sha256=${createHmac("sha256", settings.secret).update(body).digest("hex")}`;
  let response: OutboundResponse;
  try {
    response = await context.outbound.fetchText(settings.url, {
      method: "POST",
      headers,
      body,
      timeoutMs: context.toolTimeoutMs,
      maxBytes: 256 * 1024,
    });
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    throw new ToolRefusal(
      error.reason === "timeout"
        ? `The webhook did not answer within ${context.toolTimeoutMs} ms.`
        : error.reason === "unreachable"
          ? "The webhook could not be reached."
          : `The webhook could not be called: ${error.message}`,
    );
  }
  const text = response.text.slice(0, 4000);
  let answer: unknown = text;
  try {
    answer = JSON.parse(text);
  } catch {
    // Not JSON: keep the text.
  }
  if (!response.ok) throw new ToolRefusal(`The webhook answered ${response.status}: ${text.slice(0, 200)}`);
  return { status: response.status, answer, summary: `Webhook answered ${response.status}` };
};

/** The executors of the built-in apps' functions, by function name. */
export const TOOL_EXECUTORS: Readonly<Record<string, ToolExecutor>> = {
  checkAvailability,
  bookAppointment,
  transferCall,
  sendDtmf,
  collectDigits,
  endCall,
  sendSms,
  saveData,
  callWebhook,
};

/** The wall-clock day of an instant, for checks in tests and callers. */
export const dayOf = (instant: number, timeZone: string) => wallTimeOf(instant, timeZone);

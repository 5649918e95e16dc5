import { TASK_MESSAGES, type TaskLimits, type TaskOutcome } from "@switchboard/api";
import { fillVariables, outboundOpening } from "@switchboard/core";
import { sql } from "drizzle-orm";
import type { AccountRow } from "../../access/access.ts";
import { type Database, executeRows } from "../../db/client.ts";
import type { SmsProvider } from "../../providers/sms/sms-provider.ts";
import type { AgentsService } from "../agents/index.ts";
import type { InboxService } from "../inbox/index.ts";
import type { TaskAttemptRow, TaskRow } from "./tasks.repository.ts";

/** One attempt as a channel receives it. */
export type ChannelAttempt = {
  task: TaskRow;
  attempt: TaskAttemptRow;
  agent: AccountRow;
  organization: AccountRow;
  limits: TaskLimits;
  /** The task's values for {column} placeholders (its variables, name, phone, email, time zone). */
  values: Record<string, string>;
  /** Aborted when the server stops: stop, and throw, unless the work cannot be undone (then finish). */
  signal: AbortSignal;
  /**
   * Runs `work` in a transaction that also keeps `patch` on the attempt: what the channel set up (a
   * message id), so a retried attempt resumes instead of starting again.
   */
  remember(
    patch: Partial<Pick<TaskAttemptRow, "messageId" | "roomId" | "conversationUuid" | "callId">>,
    tx: Database,
  ): Promise<void>;
  /**
   * Kept before a text attempt hands its message to the carrier: true the first time, false when an
   * earlier run of this attempt got this far (its server died before it kept what came of the send).
   */
  startSend(): Promise<boolean>;
};

/**
 * A text task whose earlier run was handing its message to the carrier when its server died, with a carrier
 * that cannot tell whether it took it: the person may have the text, so it is not sent again.
 */
export const TEXT_SEND_UNKNOWN =
  "The server stopped while this text was being handed to the carrier: it may have arrived, so it was not sent again.";

/** How an attempt ended: completed (with an outcome, or none yet for a text), failed, or to be retried. */
export type ChannelResult = {
  result: "completed" | "failed" | "retry";
  outcome: TaskOutcome | null;
  error?: string | null;
  roomId?: string | null;
  conversationUuid?: string | null;
  callId?: string | null;
  answeredBy?: string | null;
  amdDecisionMs?: number | null;
  durationSeconds?: number | null;
};

/**
 * A way of reaching a person: texts through the inbox's SMS path, calls through the telephony's outbound
 * calls. The scheduler only knows this shape.
 */
export type TaskChannel = {
  channel: "call" | "text";
  /** Can this server use the channel at all (calls need outbound telephony)? */
  available(): boolean;
  run(attempt: ChannelAttempt): Promise<ChannelResult>;
};

/**
 * A task's values for placeholders: every variable under its column name (as written, in lower case, and
 * with spaces as underscores, so `{first_name}` reaches a "First Name" column), and name, phone, email,
 * timezone.
 */
export function taskValues(task: Pick<TaskRow, "variables" | "name" | "phoneNumber" | "email" | "timeZone">) {
  const values: Record<string, string> = {};
  const put = (key: string, value: string) => {
    values[key] = value;
    values[key.toLowerCase()] = value;
    values[key.toLowerCase().replace(/\s+/g, "_")] = value;
  };
  for (const [key, value] of Object.entries(task.variables ?? {})) put(key, value);
  if (task.name) put("name", task.name);
  put("phone", task.phoneNumber);
  if (task.email) put("email", task.email);
  if (task.timeZone) put("timezone", task.timeZone);
  return values;
}

/**
 * Text tasks: the agent's first message (the task's message, else the agent's outbound opening, with the
 * task's values filled in) in a new outbound conversation of the inbox, sent through the SMS provider (the
 * sandbox carrier by default). Never texted twice, whatever moment the server dies at: the message is
 * stored with the attempt before it is sent, and the attempt marks the start of the send before the carrier
 * is asked. A re-run that finds the message stored and unmarked sends it; one that finds the mark and the
 * message not known as sent asks the carrier whether it took it, and, when the carrier cannot tell (Twilio
 * takes no idempotency key), fails the task as possibly sent (`TEXT_SEND_UNKNOWN`) rather than send again.
 */
export function textChannel(deps: {
  inbox: InboxService;
  agents: AgentsService;
  sms: Pick<SmsProvider, "findSent">;
  /** A stored message's text and delivery state. */
  findMessage: (
    messageId: number,
  ) => Promise<{ text: string; deliveryStatus: string | null; carrierMessageId: string | null } | null>;
}): TaskChannel {
  return {
    channel: "text",
    available: () => true,
    async run(a) {
      const { task, agent, organization } = a;
      if (!agent.switchboardPhoneNumber)
        return { result: "failed", outcome: "failed", error: TASK_MESSAGES.noAgentNumber };
      if (!organization.smsEnabled)
        return { result: "failed", outcome: "failed", error: TASK_MESSAGES.smsDisabled };
      let messageId = a.attempt.messageId;
      let roomId = a.attempt.roomId;
      let conversationUuid = a.attempt.conversationUuid;
      if (messageId === null) {
        a.signal.throwIfAborted();
        const { campaign } = await deps.agents.answeringCampaignOf({ id: agent.id, orgId: task.orgId });
        const values = { ...(campaign.variables ?? {}), ...a.values };
        // The agent writes first: as the one reaching out, never with its "thank you for calling" greeting.
        const text = task.message?.trim()
          ? fillVariables(task.message, values).trim()
          : outboundOpening({
              agentName: agentName(agent, "agentName"),
              organizationName: agentName(organization),
              channel: "text",
              greeting: campaign.outboundGreeting,
              values,
            });
        if (!text) return { result: "failed", outcome: "failed", error: TASK_MESSAGES.noMessage };
        const prepared = await deps.inbox.agentText.prepare({
          agent,
          orgId: task.orgId,
          to: task.phoneNumber,
          text,
          collected: { taskId: task.id, taskChannel: "text" },
          outcome: { taskVariables: a.values },
          accountName: agentName(organization),
          within: (tx, created) =>
            a.remember(
              {
                messageId: created.message.id,
                roomId: created.room.id,
                conversationUuid: created.conversation.uuid,
              },
              tx,
            ),
        });
        messageId = prepared.message.id;
        roomId = prepared.room.id;
        conversationUuid = prepared.conversation.uuid;
      }
      if (!(await a.startSend())) {
        const stored = await deps.findMessage(messageId);
        // Twilio answers "queued" for a message it took: its id tells.
        if (stored?.deliveryStatus === "queued" && stored.carrierMessageId)
          return { result: "completed", outcome: null, roomId, conversationUuid };
        if (stored?.deliveryStatus === "queued") {
          // The send of an earlier run never ended: did the carrier take the message?
          const message = { to: task.phoneNumber, from: agent.switchboardPhoneNumber, body: stored.text };
          const since = a.attempt.sendStartedAt ?? a.attempt.startedAt;
          const taken = deps.sms.findSent ? await deps.sms.findSent(message, since) : undefined;
          if (taken === undefined)
            return {
              result: "failed",
              outcome: "failed",
              error: TEXT_SEND_UNKNOWN,
              roomId,
              conversationUuid,
            };
          if (taken) return { result: "completed", outcome: null, roomId, conversationUuid };
          // Certainly not taken: sent now.
        }
      }
      // Sent once: a message the carrier took already is answered as it stands.
      const sent = await deps.inbox.agentText.deliver(messageId);
      if (!sent || sent.deliveryStatus === "failed")
        return {
          result: "failed",
          outcome: "failed",
          error: sent?.error ?? "The message could not be sent.",
          roomId,
          conversationUuid,
        };
      return { result: "completed", outcome: null, roomId, conversationUuid };
    },
  };
}

function agentName(account: AccountRow, ...keys: string[]): string {
  const details = (account.details ?? {}) as Record<string, unknown>;
  for (const key of [...keys, "orgName", "displayName", "name", "accountName"]) {
    const value = details[key];
    if (typeof value === "string" && value.trim()) return value.trim();
  }
  return account.username;
}

/** Call tasks before outbound telephony is on this server: refused at creation, failed if one runs. */
export function unavailableCallChannel(): TaskChannel {
  return {
    channel: "call",
    available: () => false,
    async run() {
      return { result: "failed", outcome: "failed", error: TASK_MESSAGES.callsUnavailable };
    },
  };
}

/** The outbound-calls service of the numbers module, as tasks use it. */
export type OutboundCallsPort = {
  start(input: {
    organizationId: number;
    agentAccountId: number;
    to: string;
    variables?: Record<string, string>;
    taskId?: string;
  }): Promise<{ call: { id: string }; done: Promise<PlacedCallResult> }>;
};

export type PlacedCallResult = {
  callId: string;
  outcome: "answered" | "voicemail" | "no_answer" | "busy" | "failed";
  answeredBy?: "person" | "machine";
  amdDecisionMs?: number;
  conversation?: { roomId: string; uuid: string };
  durationSeconds: number;
  error?: string;
};

/**
 * Call tasks: the agent places the call through the numbers module's outbound calls (sandbox carrier by
 * default, the organisation's SIP trunk when it has one). Answering-machine detection decides person or
 * voicemail, with the decision and its timing kept. On a voicemail the agent does what its configuration
 * says (campaign `voicemailAction`): leaves its voicemail message after the beep (outcome voicemail left), or
 * hangs up (no answer: retried like a call nobody answered). No answer and busy are retried after the limits' delay, up to the task's attempts. The call's id is
 * kept with the attempt as soon as it is dialled: an attempt retried after its server died is never dialled
 * twice (it counts as not answered and waits for its next attempt).
 */
export function callChannel(deps: {
  outbound: OutboundCallsPort;
  db: Database;
  /** The stored state of a call this server or another placed (an attempt resumed after a restart). */
  findCall: (callId: string) => Promise<{ status: string; outcome: string | null } | null>;
}): TaskChannel {
  const toResult = (placed: PlacedCallResult, booked: boolean, transferred: boolean): ChannelResult => {
    const base = {
      callId: placed.callId,
      answeredBy: placed.answeredBy ?? null,
      amdDecisionMs: placed.amdDecisionMs ?? null,
      durationSeconds: placed.durationSeconds,
      roomId: placed.conversation?.roomId ?? null,
      conversationUuid: placed.conversation?.uuid ?? null,
      error: placed.error ?? null,
    };
    switch (placed.outcome) {
      case "answered":
        return {
          ...base,
          result: "completed",
          outcome: booked ? "booked" : transferred ? "transferred" : "answered",
        };
      case "voicemail":
        return { ...base, result: "completed", outcome: "voicemail_left" };
      case "no_answer":
      case "busy":
        return { ...base, result: "retry", outcome: placed.outcome };
      default:
        return { ...base, result: "failed", outcome: "failed" };
    }
  };
  return {
    channel: "call",
    available: () => true,
    async run(a) {
      const { task, agent } = a;
      if (a.attempt.callId) {
        // This attempt dialled before its server stopped: never dial it again.
        const call = await deps.findCall(a.attempt.callId);
        return {
          result: "retry",
          outcome: "no_answer",
          callId: a.attempt.callId,
          error: `The call was interrupted (${call?.status ?? "unknown"}).`,
        };
      }
      a.signal.throwIfAborted();
      let started: Awaited<ReturnType<OutboundCallsPort["start"]>>;
      try {
        started = await deps.outbound.start({
          organizationId: task.orgId,
          agentAccountId: agent.id,
          to: task.phoneNumber,
          variables: a.values,
          taskId: task.id,
        });
      } catch (error) {
        const status = (error as { statusCode?: number }).statusCode;
        const message = error instanceof Error ? error.message : "The call could not be placed.";
        // The organisation's call limits: try again later. Other refusals (country, caller ID) fail.
        if (status === 429) return { result: "retry", outcome: "failed", error: message };
        return { result: "failed", outcome: "failed", error: message };
      }
      await deps.db.transaction((tx) => a.remember({ callId: started.call.id }, tx));
      // The server stopping aborts the attempt: it is retried as interrupted (never dialled twice), and the
      // numbers module hangs the call up as it stops.
      const aborted = new Promise<never>((_, reject) => {
        if (a.signal.aborted) reject(a.signal.reason);
        a.signal.addEventListener("abort", () => reject(a.signal.reason), { once: true });
      });
      aborted.catch(() => {});
      const placed = await Promise.race([started.done, aborted]);
      let booked = false;
      let transferred = false;
      if (placed.conversation) {
        const [row] = await executeRows<{
          collected: Record<string, unknown>;
          outcome: Record<string, unknown>;
        }>(
          deps.db,
          sql`select collected, outcome from conversations where uuid = ${placed.conversation.uuid}`,
        );
        booked = row?.collected.appointmentBooked === true;
        transferred = row?.outcome.transferred !== undefined && row?.outcome.transferred !== null;
      }
      return toResult(placed, booked, transferred);
    },
  };
}

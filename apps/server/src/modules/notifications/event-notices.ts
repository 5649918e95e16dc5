import type { WebhookEventData } from "@switchboard/api";
import { formatPhoneNumber } from "@switchboard/core";
import type { NewNotification } from "./notifications.service.ts";

/**
 * A missed call: an inbound call the agent could not take (it failed), or one the caller left before saying
 * anything. Repeated missed calls from one number fold into one notification.
 */
export function missedCallNotice(call: WebhookEventData<"call.ended">): NewNotification | null {
  if (call.direction !== "inbound") return null;
  const callerSpoke = call.transcript.some((turn) => turn.role === "user" && turn.text.trim());
  const failed = call.outcome === "failed";
  if (!failed && (call.outcome !== "caller-hangup" || callerSpoke)) return null;
  const from = call.from ? formatPhoneNumber(call.from) : "an unknown number";
  return {
    kind: "missedCall",
    title: `Missed call from ${from}`,
    body: failed
      ? "Your agent could not take the call. See the call's details in Calls."
      : "The caller hung up before saying anything.",
    link: "/app/logs",
    agentId: call.agentId,
    groupKey: `missedCall:${call.from ?? "unknown"}`,
  };
}

/** A task list with nothing left to run: how it went, once per list. */
export function taskListFinishedNotice(list: {
  listId: number;
  name: string;
  counts: { total: number; byState: Record<string, number> };
}): NewNotification {
  const completed = list.counts.byState.completed ?? 0;
  const failed = list.counts.byState.failed ?? 0;
  const other = list.counts.total - completed - failed;
  const parts = [`${completed} completed`, `${failed} failed`, ...(other > 0 ? [`${other} cancelled`] : [])];
  return {
    kind: "taskFinished",
    title: `Task list “${list.name}” finished`,
    body: `${parts.join(", ")} of ${list.counts.total}.`,
    link: "/app/tasks",
    groupKey: `taskList:${list.listId}`,
  };
}

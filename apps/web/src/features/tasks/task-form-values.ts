import type { Task } from "@switchboard/api";

/** The one-task form (createTask, editTask) as the user types it, and its conversion to the call's body. */
export type TaskFormValues = {
  phoneNumber: string;
  name: string;
  email: string;
  timeZone: string;
  message: string;
  /** `datetime-local` value (the browser's time zone); empty for "as soon as possible". */
  scheduledAt: string;
  /** One variable a line: `key: value`. */
  variables: string;
};

export const EMPTY_TASK_FORM: TaskFormValues = {
  phoneNumber: "",
  name: "",
  email: "",
  timeZone: "",
  message: "",
  scheduledAt: "",
  variables: "",
};

/** `key: value` lines to variables; a line without a colon (or without a key) is an error. */
export function parseVariables(text: string): { variables: Record<string, string> } | { error: string } {
  const variables: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (!line) continue;
    const at = line.indexOf(":");
    const key = at > 0 ? line.slice(0, at).trim() : "";
    if (!key) return { error: `Line ${index + 1}: write each variable as name: value.` };
    variables[key] = line.slice(at + 1).trim();
  }
  return { variables };
}

export function formatVariables(variables: Record<string, string>): string {
  return Object.entries(variables)
    .map(([key, value]) => `${key}: ${value}`)
    .join("\n");
}

const pad = (n: number) => String(n).padStart(2, "0");

/** A time as a `datetime-local` value in the browser's time zone. */
export function toLocalInput(ms: number | null): string {
  if (ms === null) return "";
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A `datetime-local` value to ms since the epoch; null when empty or not a time. */
export function fromLocalInput(value: string): number | null {
  if (!value) return null;
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? ms : null;
}

export function formOf(task: Task): TaskFormValues {
  return {
    phoneNumber: task.phoneNumber,
    name: task.name ?? "",
    email: task.email ?? "",
    timeZone: task.timeZone ?? "",
    message: task.message ?? "",
    scheduledAt: toLocalInput(task.scheduledAt),
    variables: formatVariables(task.variables),
  };
}

import { z } from "zod";
import { idSchema, timeMsSchema } from "../fields.ts";
import { defineRoute } from "../route.ts";

/**
 * Tasks (call catalogue "Tasks"; the seed also calls them jobs): outbound work for an agent — call or text
 * one person — alone or as a list (an uploaded CSV is a list). A scheduler runs them in the person's calling
 * hours within the organisation's limits, retries calls nobody answered, and records the outcome with the
 * conversation it produced. The partner flag `allowTasks` (permission canViewTasks) gates every call.
 */

export const TASK_MESSAGES = {
  notFound: "Task not found",
  listNotFound: "Task list not found",
  noOrganization: "Tasks belong to an organisation: choose an organisation or one of its agents.",
  badPhone: "Enter a phone number with its country code, e.g. +1 503 555 0123.",
  badTimeZone: "Unknown time zone: use a name like America/New_York.",
  notEditable: "This task has already run and can no longer be changed.",
  optedOut: "This number opted out of messages from this organisation.",
  noAgentNumber: "The agent has no phone number to call or text from.",
  smsDisabled: "Text messaging is not enabled for this organization.",
  callsUnavailable:
    "Calls are not available yet: this server cannot place outbound calls. Use text tasks, or add phone numbers first.",
  notMultipart: "Upload the list as multipart/form-data with the file in the field csv.",
  noFile: "Choose a CSV file to upload (field csv).",
  tooLarge: "The file is larger than 20 MB.",
  tooManyRows: "A list can have at most 100,000 rows.",
  emptyFile: "The file has no rows.",
  noHeader: "The first line must name the columns (phone, name, email, timezone, ...).",
  noPhoneColumn: "The file has no phone number column (phone, phone number, number or mobile).",
  malformed: "The file is not a valid CSV file.",
  badCallingHours: "Calling hours must start before they end (HH:MM, 24-hour clock).",
  readOnly: "You can see tasks but not change them.",
  noMessage: "Write the message to send, or give the agent a greeting.",
} as const;

/** Most rows one CSV upload may have. */
export const MAX_TASK_ROWS = 100_000;
/** Largest CSV upload. */
export const MAX_TASK_CSV_BYTES = 20 * 1024 * 1024;
/** Most row errors one upload answers (the count is always complete). */
export const MAX_TASK_ROW_ERRORS = 1000;

export const TASK_CHANNELS = ["call", "text"] as const;
export type TaskChannel = (typeof TASK_CHANNELS)[number];

export const TASK_STATES = [
  "queued",
  "scheduled",
  "in_progress",
  "completed",
  "failed",
  "cancelled",
  "deleted",
] as const;
export type TaskState = (typeof TASK_STATES)[number];

export const TASK_OUTCOMES = [
  "answered",
  "voicemail_left",
  "no_answer",
  "busy",
  "failed",
  "opted_out",
  "booked",
  "transferred",
  "replied",
] as const;
export type TaskOutcome = (typeof TASK_OUTCOMES)[number];

/** A list's state; `finished` (never stored) when it is not cancelled and none of its tasks has anything left to run. */
export const TASK_LIST_STATES = ["active", "paused", "cancelled", "finished"] as const;
export type TaskListState = (typeof TASK_LIST_STATES)[number];

/** What an uploaded column becomes: one of the person's fields, or a variable ({column} in instructions). */
export const TASK_COLUMN_FIELDS = ["phone", "name", "email", "timeZone", "variable"] as const;
export type TaskColumnField = (typeof TASK_COLUMN_FIELDS)[number];

/** The words that opt a number out of an organisation's texts and tasks (case-insensitive, whole message). */
export const DEFAULT_OPT_OUT_WORDS = ["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT"] as const;

const clock = z
  .string()
  .trim()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: "Enter a time as HH:MM (24-hour clock)." });

export const taskLimitsSchema = z.object({
  /** Tasks of the organisation running at the same time. */
  maxConcurrent: z.number().int().min(1).max(100),
  /** Attempts the organisation may start per day (its time zone's day). */
  dailyLimit: z.number().int().min(1).max(100_000),
  /** Calling hours in each person's own time zone. */
  callingHoursStart: clock,
  callingHoursEnd: clock,
  /** Time zone of people whose row names none (and of the daily limit's day). */
  defaultTimeZone: z.string().trim().min(1).max(64),
  /** Attempts of a call task nobody answered (no answer, busy) before it fails. */
  maxAttempts: z.number().int().min(1).max(10),
  /** Wait before the next attempt of a call nobody answered. */
  retryDelayMinutes: z
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60),
  /** Incoming texts that opt the number out (whole message, case-insensitive). */
  optOutWords: z.array(z.string().trim().min(1).max(40)).max(30),
});
export type TaskLimits = z.infer<typeof taskLimitsSchema>;

export const DEFAULT_TASK_LIMITS: TaskLimits = {
  maxConcurrent: 5,
  dailyLimit: 1000,
  callingHoursStart: "09:00",
  callingHoursEnd: "20:00",
  defaultTimeZone: "America/New_York",
  maxAttempts: 3,
  retryDelayMinutes: 60,
  optOutWords: [...DEFAULT_OPT_OUT_WORDS],
};

const ms = () => z.number().describe("ms since the epoch");

export const taskSchema = z.object({
  id: z.string(),
  listId: z.number().int().nullable(),
  agentId: z.number().int(),
  agentName: z.string().nullable(),
  channel: z.enum(TASK_CHANNELS),
  phoneNumber: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  timeZone: z.string().nullable(),
  variables: z.record(z.string(), z.string()),
  /** A text task's message ({column} variables filled in when sent); the agent's greeting when null. */
  message: z.string().nullable(),
  scheduledAt: ms().nullable(),
  /** When the scheduler will next try it (calling hours, retry delay). */
  nextAttemptAt: ms().nullable(),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  state: z.enum(TASK_STATES),
  outcome: z.enum(TASK_OUTCOMES).nullable(),
  /** The inbox conversation (room) it produced. */
  conversationId: z.string().nullable(),
  conversationUuid: z.string().nullable(),
  callId: z.string().nullable(),
  /** Calls: who answered (answering-machine detection), and how long the decision took. */
  answeredBy: z.string().nullable(),
  amdDecisionMs: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: ms(),
  updatedAt: ms(),
  completedAt: ms().nullable(),
});
export type Task = z.infer<typeof taskSchema>;

export const taskAttemptSchema = z.object({
  attempt: z.number().int(),
  startedAt: ms(),
  endedAt: ms().nullable(),
  outcome: z.string().nullable(),
  error: z.string().nullable(),
  conversationUuid: z.string().nullable(),
  callId: z.string().nullable(),
  answeredBy: z.string().nullable(),
  amdDecisionMs: z.number().int().nullable(),
  durationSeconds: z.number().nullable(),
});

export const taskDetailSchema = taskSchema.extend({
  history: z.array(taskAttemptSchema),
  transcript: z.array(z.object({ role: z.string(), text: z.string(), at: ms() })),
});
export type TaskDetail = z.infer<typeof taskDetailSchema>;

export const taskCountsSchema = z.object({
  total: z.number().int(),
  byState: z.record(z.string(), z.number().int()),
  byOutcome: z.record(z.string(), z.number().int()),
});
export type TaskCounts = z.infer<typeof taskCountsSchema>;

export const taskListSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  agentId: z.number().int(),
  agentName: z.string().nullable(),
  channel: z.enum(TASK_CHANNELS),
  state: z.enum(TASK_LIST_STATES),
  source: z.enum(["csv", "api"]),
  rows: z.number().int(),
  errorRows: z.number().int(),
  counts: taskCountsSchema,
  createdAt: ms(),
});
export type TaskList = z.infer<typeof taskListSchema>;

const optionalText = (max: number) => z.string().trim().max(max).optional();

const variablesSchema = z
  .record(z.string().trim().min(1).max(100), z.string().max(2000))
  .refine((value) => Object.keys(value).length <= 100, { message: "At most 100 variables." });

export const createTaskBody = z.object({
  agentId: idSchema.optional(),
  channel: z.enum(TASK_CHANNELS).default("text"),
  phoneNumber: z.string().trim().min(1).max(40),
  name: optionalText(200),
  email: optionalText(200),
  timeZone: optionalText(64),
  variables: variablesSchema.default({}),
  message: optionalText(1600),
  scheduledAt: timeMsSchema.optional(),
  listId: idSchema.optional(),
});

export const editTaskBody = z.object({
  phoneNumber: z.string().trim().min(1).max(40).optional(),
  name: z.string().trim().max(200).nullable().optional(),
  email: z.string().trim().max(200).nullable().optional(),
  timeZone: z.string().trim().max(64).nullable().optional(),
  variables: variablesSchema.optional(),
  message: z.string().trim().max(1600).nullable().optional(),
  scheduledAt: timeMsSchema.nullable().optional(),
  /** `cancelled` stops a task that has not run; `queued` runs a failed or cancelled one again. */
  state: z.enum(["cancelled", "queued"]).optional(),
});

const sortSchema = z
  .enum([
    "createdAt",
    "updatedAt",
    "scheduledAt",
    "nextAttemptAt",
    "state",
    "phoneNumber",
    "name",
    "attempts",
  ])
  .catch("createdAt");

/** Query keys of the task list that are not filters on a task's variables. */
export const TASK_LIST_QUERY_KEYS = [
  "sort",
  "order",
  "limit",
  "offset",
  "state",
  "outcome",
  "channel",
  "listId",
  "agentId",
  "search",
  "token",
  "targetAccountId",
  "viewingAs",
  "adminToken",
] as const;

export const listTasks = defineRoute({
  id: "listTasks",
  method: "GET",
  path: "/api/v2/tasks",
  summary:
    "The organisation's tasks, newest first: filters state, outcome, channel, listId, agentId, search (number, name or e-mail), and any other key as a filter on that variable; sort (createdAt), order (desc), limit (10), offset. Deleted tasks only with state=deleted.",
  tag: "Tasks",
  auth: "token",
  permission: "canViewTasks",
  query: z
    .object({
      sort: sortSchema.default("createdAt"),
      order: z.enum(["asc", "desc"]).catch("desc").default("desc"),
      limit: z.coerce.number().int().min(1).max(200).catch(10).default(10),
      offset: z.coerce.number().int().min(0).max(10_000_000).catch(0).default(0),
      state: z.enum(TASK_STATES).optional(),
      outcome: z.enum(TASK_OUTCOMES).optional(),
      channel: z.enum(TASK_CHANNELS).optional(),
      listId: idSchema.optional(),
      agentId: idSchema.optional(),
      search: z.string().trim().max(200).optional(),
    })
    .catchall(z.unknown()),
  response: z.object({ success: z.literal(true), tasks: z.array(taskSchema), total: z.number().int() }),
});

export const createTask = defineRoute({
  id: "createTask",
  method: "POST",
  path: "/api/v2/tasks",
  summary:
    "Queue one task: the agent (agentId, or the target agent) calls or texts phoneNumber; name, email, timeZone and variables ({name} in its instructions and message); scheduledAt to wait.",
  tag: "Tasks",
  auth: "token",
  permission: "canViewTasks",
  body: createTaskBody,
  response: z.object({ success: z.literal(true), task: taskSchema }),
});

export const getTaskStats = defineRoute({
  id: "getTaskStats",
  method: "GET",
  path: "/api/v2/tasks/stats",
  summary:
    "Counts of the organisation's tasks by state and outcome (of one list with listId), attempts started today against the daily limit, the answer rate of calls and bookings per 100 calls.",
  tag: "Tasks",
  auth: "token",
  permission: "canViewTasks",
  query: z.object({ listId: idSchema.optional(), agentId: idSchema.optional() }),
  response: z.object({
    success: z.literal(true),
    stats: taskCountsSchema.extend({
      attemptsToday: z.number().int(),
      dailyLimit: z.number().int(),
      running: z.number().int(),
      /** Calls a person answered, of calls that ended (percent); null before any call. */
      answerRate: z.number().nullable(),
      /** Calls with a booking per 100 calls; null before any call. */
      bookedPer100Calls: z.number().nullable(),
    }),
  }),
});

export const getTaskLimits = defineRoute({
  id: "getTaskLimits",
  method: "GET",
  path: "/api/v2/tasks/limits",
  summary: "The organisation's task limits: concurrency, daily limit, calling hours, retries, opt-out words.",
  tag: "Tasks",
  auth: "token",
  permission: "canViewTasks",
  response: z.object({ success: z.literal(true), limits: taskLimitsSchema }),
});

export const saveTaskLimits = defineRoute({
  id: "saveTaskLimits",
  method: "POST",
  path: "/api/v2/tasks/limits",
  summary: "Change the organisation's task limits (any of the fields); answers all of them.",
  tag: "Tasks",
  auth: "token",
  permission: "canViewTasks",
  body: taskLimitsSchema.partial(),
  response: z.object({ success: z.literal(true), limits: taskLimitsSchema }),
});

export const uploadTaskCsv = defineRoute({
  id: "uploadTaskCsv",
  method: "POST",
  path: "/api/v2/tasks/csv",
  summary:
    "Upload a list (multipart field csv, up to 100,000 rows and 20 MB): one task per row. Headers are matched case-insensitively: phone (required), name, email, timezone; every other column becomes a variable. Rows with errors are answered with their line and reason and left out; a file that is not valid CSV imports nothing. dryRun=true only checks. Query: agentId, channel (text), name, message, scheduledAt, and phoneColumn/nameColumn/emailColumn/timeZoneColumn to map columns by hand.",
  tag: "Tasks",
  auth: "token",
  permission: "canViewTasks",
  consumes: "multipart/form-data",
  query: z.object({
    agentId: idSchema.optional(),
    channel: z.enum(TASK_CHANNELS).default("text"),
    name: z.string().trim().max(200).optional(),
    message: z.string().trim().max(1600).optional(),
    scheduledAt: timeMsSchema.optional(),
    dryRun: z
      .enum(["true", "false"])
      .transform((value) => value === "true")
      .optional(),
    phoneColumn: z.string().trim().max(200).optional(),
    nameColumn: z.string().trim().max(200).optional(),
    emailColumn: z.string().trim().max(200).optional(),
    timeZoneColumn: z.string().trim().max(200).optional(),
  }),
  response: z.object({
    success: z.literal(true),
    /** The list made (null for a dry run). */
    list: taskListSchema.nullable(),
    rows: z.number().int(),
    imported: z.number().int(),
    errorCount: z.number().int(),
    /** The first MAX_TASK_ROW_ERRORS row errors: line of the file (the header is line 1) and reason. */
    errors: z.array(z.object({ line: z.number().int(), reason: z.string(), value: z.string().nullable() })),
    columns: z.array(z.object({ header: z.string(), field: z.enum(TASK_COLUMN_FIELDS) })),
    /** The first good rows, as they will be imported. */
    preview: z.array(
      z.object({
        line: z.number().int(),
        phoneNumber: z.string(),
        name: z.string().nullable(),
        email: z.string().nullable(),
        timeZone: z.string().nullable(),
        variables: z.record(z.string(), z.string()),
      }),
    ),
  }),
});

export const listTaskLists = defineRoute({
  id: "listTaskLists",
  method: "GET",
  path: "/api/v2/tasks/lists",
  summary:
    "The organisation's task lists (uploads), newest first, each with its counts by state and outcome.",
  tag: "Tasks",
  auth: "token",
  permission: "canViewTasks",
  query: z.object({
    limit: z.coerce.number().int().min(1).max(100).catch(20).default(20),
    offset: z.coerce.number().int().min(0).max(10_000_000).catch(0).default(0),
  }),
  response: z.object({ success: z.literal(true), lists: z.array(taskListSchema), total: z.number().int() }),
});

export const changeTaskList = defineRoute({
  id: "changeTaskList",
  method: "POST",
  path: "/api/v2/tasks/lists/{listId}",
  summary:
    "Pause a list (its tasks wait; running ones finish), resume it, or cancel it (its tasks that have not run are cancelled).",
  tag: "Tasks",
  auth: "token",
  permission: "canViewTasks",
  params: z.object({ listId: idSchema }),
  body: z.object({ action: z.enum(["pause", "resume", "cancel"]) }),
  response: z.object({ success: z.literal(true), list: taskListSchema }),
});

export const getTask = defineRoute({
  id: "getTask",
  method: "GET",
  path: "/api/v2/tasks/{id}",
  summary: "One task with its attempts and the transcript of the conversation it produced.",
  tag: "Tasks",
  auth: "token",
  permission: "canViewTasks",
  params: z.object({ id: z.string().trim().min(1).max(64) }),
  response: z.object({ success: z.literal(true), task: taskDetailSchema }),
});

export const editTask = defineRoute({
  id: "editTask",
  method: "POST",
  path: "/api/v2/tasks/{id}",
  summary:
    "Change a task that has not run (number, person, variables, message, scheduledAt), cancel it (state cancelled), or run a failed or cancelled one again (state queued).",
  tag: "Tasks",
  auth: "token",
  permission: "canViewTasks",
  params: z.object({ id: z.string().trim().min(1).max(64) }),
  body: editTaskBody,
  response: z.object({ success: z.literal(true), task: taskSchema }),
});

export const deleteTask = defineRoute({
  id: "deleteTask",
  method: "DELETE",
  path: "/api/v2/tasks/{id}",
  summary: "Mark a task deleted: it does not run, and lists leave it out unless asked for state=deleted.",
  tag: "Tasks",
  auth: "token",
  permission: "canViewTasks",
  params: z.object({ id: z.string().trim().min(1).max(64) }),
  response: z.object({ success: z.literal(true), task: taskSchema }),
});

export const taskRoutes = [
  listTasks,
  createTask,
  getTaskStats,
  getTaskLimits,
  saveTaskLimits,
  uploadTaskCsv,
  listTaskLists,
  changeTaskList,
  getTask,
  editTask,
  deleteTask,
] as const;

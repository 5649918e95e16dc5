import { LOG_CHANNELS, METRIC_AGGREGATIONS, METRIC_FORMATS, PAGE_SIZES } from "@switchboard/core";
import { z } from "zod";
import { calendarDaySchema, idSchema } from "../fields.ts";
import { defineRoute } from "../route.ts";
import { queryBooleanSchema } from "./hierarchy.ts";

/**
 * Conversation logs (product spec §2.2, §3, §5.2; call catalogue "Contacts and conversation logs"), the
 * dashboard's custom metrics (§3 Metric, §5.1, §9), usage and campaign statistics, and the super admin's
 * calls for review.
 */

/** Most rows one log page (or export) holds: the export size of the catalogue (§9). */
export const LOG_PAGE_SIZE_MAX = PAGE_SIZES.logExport;

/** A moment as the log window takes it: ISO date or timestamp, or epoch ms. */
const instantSchema = z.string().trim().min(1).max(40);
const utcOffsetSchema = z.coerce.number().int().min(-840).max(840);

export const logQuerySchema = z.object({
  /** JSON of `{ <field>: { value, op } }` or the screen form (`<field>` and `<field>Op`), possibly URL-encoded. */
  filters: z.string().max(20_000).optional(),
  /** Comma list of the fields to answer (CSV columns, in order); all fields when absent. */
  fields: z.string().max(4000).optional(),
  /** 1-based; absent or 0 is the first page. */
  page: z.coerce.number().int().min(0).max(1_000_000).optional(),
  pageSize: z.coerce.number().int().min(1).max(LOG_PAGE_SIZE_MAX).optional(),
  format: z.enum(["json", "csv"]).default("json"),
  /** Time window (inclusive); default the last 30 days up to now. `dateFilter` (the screen's) is read when these are absent. */
  start: instantSchema.optional(),
  end: instantSchema.optional(),
  dateFilter: z.string().max(200).optional(),
  /** Offset of the caller's days from UTC in minutes (day filters); default 0. */
  utcOffsetMinutes: utcOffsetSchema.optional(),
  /** The conversations listed: `voice` (calls, the default: the Calls screen), `sms`, `web`, or `all`. */
  channel: z.enum([...LOG_CHANNELS, "all"]).default("voice"),
});

/** One log row: the fixed fields of spec §3 (timestamp as ISO text) and the dynamic fields beside them. */
export const logRowSchema = z.record(z.string(), z.unknown());
export type LogRow = z.infer<typeof logRowSchema>;

export const logPaginationSchema = z.object({
  page: z.number().int(),
  pageSize: z.number().int(),
  hasMore: z.boolean(),
});

export const listLogs = defineRoute({
  id: "listLogs",
  method: "GET",
  path: "/api/v2/logs",
  summary:
    "Conversation log rows of the target account (an organisation, one of its agents, or the organisations below a reseller or partner) of one channel (`channel`: voice — the calls, by default — sms, web or all) in a time window (default the last 30 days), newest first, filtered by `filters` (the fields and operators of spec §5.2, applied as parameterised SQL). JSON: a page (default page 1 of 100). CSV (`format=csv`): streamed as conversation_logs_{date}.csv — the page asked for, or with neither page nor pageSize every row of the window; cells that begin with = + - @ are quoted with a leading apostrophe.",
  tag: "Logs",
  auth: "token",
  permission: "canViewOrg",
  query: logQuerySchema,
  response: z.object({
    success: z.literal(true),
    logs: z.array(logRowSchema),
    totalCount: z.number().int(),
    pagination: logPaginationSchema,
    /** The window applied, ms epoch. */
    window: z.object({ start: z.number(), end: z.number() }),
  }),
  produces: "text/csv",
});

export const logFieldSchema = z.object({
  name: z.string(),
  label: z.string(),
  type: z.enum(["string", "integer", "date"]),
  /** A fixed field of every row (spec §3); otherwise data the agents collected. */
  fixed: z.boolean(),
});
export type LogField = z.infer<typeof logFieldSchema>;

export const listLogFields = defineRoute({
  id: "listLogFields",
  method: "GET",
  path: "/api/v2/logs/fields",
  summary:
    "The fields log rows of the target account carry: the fixed fields, then the dynamic fields seen in its latest rows with their inferred types (integer, date or string), for columns, filters and formulas.",
  tag: "Logs",
  auth: "token",
  permission: "canViewOrg",
  response: z.object({ success: z.literal(true), fields: z.array(logFieldSchema) }),
});

export const reviewCallSchema = z.object({
  orgId: z.number().int(),
  accountName: z.string().nullable(),
  agentId: z.number().int().nullable(),
  roomId: z.string().nullable(),
  uuid: z.string(),
  timestamp: z.string(),
  duration: z.number().int(),
  direction: z.string().nullable(),
  /** Why the call is flagged: a failed agent turn, or the reason its log data carries (`reviewReason`). */
  reasons: z.array(z.string()),
});
export type ReviewCall = z.infer<typeof reviewCallSchema>;

export const fetchCallsForReview = defineRoute({
  id: "fetchCallsForReview",
  method: "GET",
  path: "/internal/fetchCallsForReview",
  summary:
    "Super admin: calls flagged for review — an agent turn failed in them, or their log data carries a reviewReason — newest first, in a window (default the last 30 days), of every tenant or of the targetAccountId given and below it.",
  tag: "Logs",
  auth: "adminToken",
  query: z.object({
    page: z.coerce.number().int().min(0).max(100_000).optional(),
    pageSize: z.coerce.number().int().min(1).max(500).optional(),
    start: instantSchema.optional(),
    end: instantSchema.optional(),
    targetAccountId: idSchema.optional(),
  }),
  response: z.object({
    success: z.literal(true),
    calls: z.array(reviewCallSchema),
    pagination: logPaginationSchema,
  }),
});

// ---- metrics -------------------------------------------------------------------------------------------

const filterEntrySchema = z.object({
  value: z.union([
    z.string().max(500),
    z.number(),
    z.boolean(),
    z.array(z.union([z.string().max(500), z.number(), z.boolean()])).max(50),
  ]),
  op: z.string().min(1).max(20),
});

/** A metric of spec §3 as the dashboard keeps it (`field` is editor state and dropped on save). */
export const metricSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { message: "Enter a name." })
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, { message: "Use letters, digits, - and _ in the name." }),
  title: z.string().trim().min(1, { message: "Enter a title." }).max(120),
  filters: z.record(z.string().max(64), filterEntrySchema).default({}),
  formula: z.string().max(2000).default("1"),
  aggregation: z.enum(METRIC_AGGREGATIONS).default("sum"),
  scale: z.number().finite().default(1),
  format: z.enum(METRIC_FORMATS).default("integer"),
  precision: z.number().int().min(0).max(10).default(0),
  dateFilter: z.string().trim().max(200).optional(),
  /** The channels whose conversations the metric counts (calls when absent); the dashboard says which. */
  channels: z.array(z.enum(LOG_CHANNELS)).min(1).max(LOG_CHANNELS.length).optional(),
  field: z.string().optional(),
});
export type MetricInput = z.input<typeof metricSchema>;
export type MetricDefinition = z.output<typeof metricSchema>;

export const metricPointSchema = z.object({ date: z.string(), value: z.number() });

export const metricResultSchema = z.object({
  metric: metricSchema.omit({ field: true }),
  value: z.number(),
  /** The value as the dashboard shows it (format and precision applied). */
  text: z.string(),
  /** One point per day of the window (the day's rows alone), `YYYY-MM-DD` at the caller's offset. */
  series: z.array(metricPointSchema),
  /** The window the metric ran over, ms epoch. */
  window: z.object({ start: z.number(), end: z.number() }),
  /** Rows of the window that passed the metric's filters. */
  rows: z.number().int(),
  /** `sql`: aggregated in the database; `evaluator`: core's compiled formula over the rows. */
  engine: z.enum(["sql", "evaluator"]),
  /** The formula's error (spec §5.1 message) when it cannot be computed; value 0 then. */
  error: z.string().nullable(),
});
export type MetricResult = z.infer<typeof metricResultSchema>;

const metricsQuery = z.object({
  /** The dashboard's window: `30 day` (default), `7 day`, a range `start,end` or `{"start","end"}`. */
  dateFilter: z.string().max(200).optional(),
  utcOffsetMinutes: utcOffsetSchema.optional(),
});

export const getDashboardMetrics = defineRoute({
  id: "getDashboardMetrics",
  method: "GET",
  path: "/api/v2/dashboard/metrics",
  summary:
    "The dashboard's metrics for the target account — its settings `metrics`, else `defaultOrgSettings.metrics` (its own, then its reseller's, then its partner's), else the default metrics — each computed over the log rows of its channels (`channels`, calls when absent) in the window (dateFilter, default the last 30 days): figure, daily series.",
  tag: "Metrics",
  auth: "token",
  permission: "canViewOrg",
  query: metricsQuery,
  response: z.object({
    success: z.literal(true),
    source: z.enum(["account", "defaultOrgSettings", "default"]),
    window: z.object({ start: z.number(), end: z.number() }),
    metrics: z.array(metricResultSchema),
  }),
});

export const evaluateMetric = defineRoute({
  id: "evaluateMetric",
  method: "POST",
  path: "/api/v2/dashboard/metrics/evaluate",
  summary: "Computes one metric (saved or not) over the target account's log rows: the editor's preview.",
  tag: "Metrics",
  auth: "token",
  permission: "canViewOrg",
  body: metricsQuery.extend({ metric: metricSchema }),
  response: z.object({ success: z.literal(true), result: metricResultSchema }),
});

/** Most metrics one dashboard holds. */
export const DASHBOARD_METRICS_MAX = 24;

export const saveDashboardMetrics = defineRoute({
  id: "saveDashboardMetrics",
  method: "PUT",
  path: "/api/v2/dashboard/metrics",
  summary:
    "Replaces the target account's dashboard metrics (settings `metrics`, in order; `field` dropped). Every formula must validate (spec §5.1 messages) against the log fields; names are unique. An empty list goes back to the defaults.",
  tag: "Metrics",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({ metrics: z.array(metricSchema).max(DASHBOARD_METRICS_MAX) }),
  response: z.object({ success: z.literal(true), metrics: z.array(metricSchema.omit({ field: true })) }),
});

// ---- usage and campaign statistics -----------------------------------------------------------------------

export const usageBucketsSchema = z.object({
  number: z.number(),
  tokens: z.number(),
  voice: z.number(),
  advancedVoice: z.number(),
  "outbound-message": z.number(),
  "inbound-message": z.number(),
});

const usagePointSchema = usageBucketsSchema.extend({
  /** `MM-DD-YYYY` (the first day of the week or month for those frequencies). */
  date: z.string(),
  costs: usageBucketsSchema.optional(),
  totalCost: z.number().optional(),
});
export type UsagePointAnswer = z.infer<typeof usagePointSchema>;

const stringFlag = z.enum(["true", "false"]);

export const getUsageStats = defineRoute({
  id: "getUsageStats",
  method: "GET",
  path: "/api/v2/stats/usage",
  summary:
    "Metered usage of the target account: phone numbers, model tokens, voice and advanced-voice minutes, outbound and inbound SMS messages, for the billing period (`billingPeriod=current|previous`; periods start on the day of month the organisation's latest plan started, else the day it was created: the plan's paid periods and usage periods are one) or startDate..endDate (ISO dates), with costs (giveCosts, per bucket; combineCosts adds their total) priced by the tiers of the organisation's plan (its subscription's, else the Free plan; list prices above organisations and for buckets a plan does not price) exactly as the usage debits charge the wallet, and, with timeseries, buckets per day, week or month keyed MM-DD-YYYY (the current period padded with zero days to 30). For an organisation's current period, debitedCents is what the usage debits charged so far, notChargedCents the cost of usage from before usage charging began (never charged), and pendingCents what the next usage debit will charge (totalCost = debited + not charged + pending, within a cent).",
  tag: "Stats",
  auth: "token",
  permission: "canViewOrg",
  query: z.object({
    billingPeriod: z.enum(["current", "previous", "true"]).optional(),
    startDate: instantSchema.optional(),
    endDate: instantSchema.optional(),
    frequency: z.enum(["day", "week", "month"]).default("day"),
    giveCosts: stringFlag.default("true"),
    combineCosts: stringFlag.default("true"),
    timeseries: queryBooleanSchema.default(false),
  }),
  response: z.object({
    success: z.literal(true),
    startDate: z.string(),
    endDate: z.string(),
    frequency: z.enum(["day", "week", "month"]),
    usage: usageBucketsSchema,
    costs: usageBucketsSchema.optional(),
    totalCost: z.number().optional(),
    /** USD per unit (minute, message, token, number) of each bucket: what the next unit costs. */
    prices: usageBucketsSchema,
    /** The plan whose tiers priced the usage; null: list prices. */
    plan: z.string().nullable().optional(),
    /** An organisation's current period: cents the usage debits charged so far (paid and owed). */
    debitedCents: z.number().int().optional(),
    notChargedCents: z.number().int().optional(),
    pendingCents: z.number().int().optional(),
    timeseries: z.array(usagePointSchema).optional(),
  }),
});

export const campaignStatsSchema = z.object({
  /** The campaign is the agent's configuration: its id is the agent account's. */
  campaignId: z.string(),
  agentId: z.number().int(),
  agentName: z.string(),
  calls: z.number().int(),
  answered: z.number().int(),
  minutes: z.number(),
  transfers: z.number().int(),
  appointmentsBooked: z.number().int(),
  inbound: z.number().int(),
  outbound: z.number().int(),
});
export type CampaignStats = z.infer<typeof campaignStatsSchema>;

const dayText = calendarDaySchema({ us: true });

export const getCampaignStats = defineRoute({
  id: "getCampaignStats",
  method: "GET",
  path: "/api/v1/stats/campaigns/{date}",
  summary:
    "Per campaign (agent) of the target account, the calls of one day (UTC): count, answered, minutes, transfers, appointments booked, inbound, outbound.",
  tag: "Stats",
  auth: "token",
  permission: "canViewOrg",
  params: z.object({ date: dayText }),
  response: z.object({ success: z.literal(true), date: z.string(), campaigns: z.array(campaignStatsSchema) }),
});

export const postCampaignStats = defineRoute({
  id: "postCampaignStats",
  method: "POST",
  path: "/api/v1/stats/campaigns",
  summary:
    "One campaign's (agent's) statistics for one day (dateString), as in GET /api/v1/stats/campaigns/{date}.",
  tag: "Stats",
  auth: "token",
  permission: "canViewOrg",
  body: z.object({ dateString: dayText, campaignId: z.union([z.string().min(1).max(40), z.number().int()]) }),
  response: z.object({ success: z.literal(true), date: z.string(), stats: campaignStatsSchema }),
});

export const logsRoutes = [
  listLogs,
  listLogFields,
  fetchCallsForReview,
  getDashboardMetrics,
  evaluateMetric,
  saveDashboardMetrics,
  getUsageStats,
  getCampaignStats,
  postCampaignStats,
] as const;

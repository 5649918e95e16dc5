/**
 * The default dashboard metrics: the eight of product spec §9 and three more, as data. Each row of a
 * conversation log is one conversation of one channel (LOG_CHANNELS); every metric names the channels it
 * counts, and all but Tasks Completed count calls (voice) alone: a chat or a text is not a call. A row
 * carries `duration` (seconds), `direction` ("inbound" | "outbound"), `transfer` (1 when the call was
 * transferred, else 0 or empty; stored as text) and collected data such as `appointmentBooked` (true/false,
 * possibly as the text "true"/"false"). Filters are empty: every metric runs over all rows of its channels
 * in the dashboard's date window. Rates are shares of those rows, so they agree with the counts beside them
 * (Answer Rate is Calls Answered over all calls).
 */
import type { SavedMetric } from "./metric.ts";

/** Field of the collected data the appointment metrics read. */
export const APPOINTMENT_BOOKED_FIELD = "appointmentBooked";

/**
 * Fields outbound tasks add to the log rows of the conversations they produce: `taskCompleted` (true once
 * the task completed, which Tasks Completed counts), and on calls `taskCall` (1), `taskAnswered` and
 * `taskBooked` (1 or 0), offered to custom metrics.
 */
export const TASK_METRIC_FIELDS = ["taskCompleted", "taskCall", "taskAnswered", "taskBooked"] as const;

export const DEFAULT_METRICS: readonly SavedMetric[] = [
  {
    // Agent time saved: total call seconds times 0.0166667 (one sixtieth), i.e. minutes.
    name: "minutesSaved",
    title: "Minutes Saved",
    filters: {},
    formula: "duration",
    aggregation: "sum",
    scale: 0.0166667,
    format: "integer",
    precision: 0,
    channels: ["voice"],
  },
  {
    // Calls that were picked up: a call with talk time (duration above 0 s) was answered.
    name: "callsAnswered",
    title: "Calls Answered",
    filters: {},
    formula: "duration > 0",
    aggregation: "count",
    scale: 1,
    format: "integer",
    precision: 0,
    channels: ["voice"],
  },
  {
    // Calls whose collected data says an appointment was booked (true or "true").
    name: "appointmentsBooked",
    title: "Appointments Booked",
    filters: {},
    formula: `${APPOINTMENT_BOOKED_FIELD} = true`,
    aggregation: "count",
    scale: 1,
    format: "integer",
    precision: 0,
    channels: ["voice"],
  },
  {
    // Share of calls with an appointment booked: the average of 1/0 per call, times 100, as a percentage.
    name: "appointmentBookRate",
    title: "Appointment Book Rate",
    filters: {},
    formula: `${APPOINTMENT_BOOKED_FIELD} = true`,
    aggregation: "avg",
    scale: 100,
    format: "percentage",
    precision: 1,
    channels: ["voice"],
  },
  {
    // Mean call length in seconds over all calls.
    name: "avgCallDuration",
    title: "Avg Call Duration (sec)",
    filters: {},
    formula: "duration",
    aggregation: "avg",
    scale: 1,
    format: "integer",
    precision: 0,
    channels: ["voice"],
  },
  {
    // Calls handed over to a person: transfer is 1 (number or text "1").
    name: "callsTransfered",
    title: "Calls Transferred",
    filters: {},
    formula: "transfer = 1",
    aggregation: "count",
    scale: 1,
    format: "integer",
    precision: 0,
    channels: ["voice"],
  },
  {
    name: "inboundCalls",
    title: "Inbound Calls",
    filters: {},
    formula: "direction = 'inbound'",
    aggregation: "count",
    scale: 1,
    format: "integer",
    precision: 0,
    channels: ["voice"],
  },
  {
    name: "outboundCalls",
    title: "Outbound Calls",
    filters: {},
    formula: "direction = 'outbound'",
    aggregation: "count",
    scale: 1,
    format: "integer",
    precision: 0,
    channels: ["voice"],
  },
  {
    // Outbound tasks (issue #18): tasks that completed, counted by the call or text they produced.
    name: "tasksCompleted",
    title: "Tasks Completed",
    filters: {},
    formula: "taskCompleted = true",
    aggregation: "count",
    scale: 1,
    format: "integer",
    precision: 0,
    channels: ["voice", "sms"],
  },
  {
    // Share of the calls that were picked up: Calls Answered over all calls (the mean of 1/0 per call).
    name: "answerRate",
    title: "Answer Rate",
    filters: {},
    formula: "duration > 0",
    aggregation: "avg",
    scale: 100,
    format: "percentage",
    precision: 1,
    channels: ["voice"],
  },
  {
    // Calls that booked an appointment, per 100 calls: Appointments Booked over all calls, times 100.
    name: "bookedPer100Calls",
    title: "Booked per 100 Calls",
    filters: {},
    formula: `${APPOINTMENT_BOOKED_FIELD} = true`,
    aggregation: "avg",
    scale: 100,
    format: "integer",
    precision: 1,
    channels: ["voice"],
  },
];

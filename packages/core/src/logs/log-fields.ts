import { DEFAULT_FILTER_FIELD_TYPES, type FilterFieldType } from "../filters/operators.ts";

/**
 * The conversation log row (product spec §3) and its storage contract: table `conversation_logs`, one snake_case
 * column per fixed field, further dynamic fields in the jsonb column `data`.
 */

export const CONVERSATION_LOGS_TABLE = "conversation_logs";
/** jsonb column holding the dynamic fields of a log row. */
export const LOG_DATA_COLUMN = "data";

/** Fixed fields of a log row and their types (product spec §3). */
export const LOG_ROW_FIELD_TYPES = {
  accountId: "integer",
  accountName: "string",
  agentId: "integer",
  timestamp: "date",
  duration: "integer",
  fromNumber: "string",
  toNumber: "string",
  cnam: "string",
  roomId: "string",
  direction: "string",
  transfer: "string",
  callId: "string",
  uuid: "string",
} as const satisfies Record<string, FilterFieldType>;

export type LogFixedField = keyof typeof LOG_ROW_FIELD_TYPES;
export const LOG_FIXED_FIELDS = Object.keys(LOG_ROW_FIELD_TYPES) as LogFixedField[];

export type LogColumnSqlType = "integer" | "text" | "timestamptz";
export type LogColumn = { name: string; sqlType: LogColumnSqlType };

/** Column of each fixed field in `conversation_logs`. */
export const LOG_COLUMNS: Readonly<Record<LogFixedField, LogColumn>> = {
  accountId: { name: "account_id", sqlType: "integer" },
  accountName: { name: "account_name", sqlType: "text" },
  agentId: { name: "agent_id", sqlType: "integer" },
  timestamp: { name: "timestamp", sqlType: "timestamptz" },
  duration: { name: "duration", sqlType: "integer" },
  fromNumber: { name: "from_number", sqlType: "text" },
  toNumber: { name: "to_number", sqlType: "text" },
  cnam: { name: "cnam", sqlType: "text" },
  roomId: { name: "room_id", sqlType: "text" },
  direction: { name: "direction", sqlType: "text" },
  transfer: { name: "transfer", sqlType: "text" },
  callId: { name: "call_id", sqlType: "text" },
  uuid: { name: "uuid", sqlType: "text" },
};

/** Keys a dynamic field may have: a letter or underscore, then up to 63 letters, digits or underscores. */
export const LOG_DATA_KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Fields every log request asks for, whatever columns are shown (call catalogue §5). */
export const LOG_REQUIRED_FIELDS = ["uuid", "callId", "accountId", "agentId", "roomId"] as const;

export function isLogFixedField(field: string): field is LogFixedField {
  return Object.hasOwn(LOG_ROW_FIELD_TYPES, field);
}

export function isLogDataKey(field: string): boolean {
  return LOG_DATA_KEY_PATTERN.test(field);
}

/**
 * Filter type of each fixed field: its row type, unless the filter builder's defaults (product spec §5.2) name
 * the field, so `transfer` filters as an integer although rows carry it as a string.
 */
export const LOG_FIXED_FILTER_TYPES: Readonly<Record<LogFixedField, FilterFieldType>> = Object.fromEntries(
  LOG_FIXED_FIELDS.map((field) => [field, DEFAULT_FILTER_FIELD_TYPES[field] ?? LOG_ROW_FIELD_TYPES[field]]),
) as Record<LogFixedField, FilterFieldType>;

/**
 * Filter types of log fields: fixed fields always as {@link LOG_FIXED_FILTER_TYPES}; dynamic fields as given
 * (e.g. inferred from rows), else the builder's defaults (`type`, `scheduled`), else string when looked up.
 */
export function logFilterFieldTypes(
  dataTypes: Readonly<Record<string, FilterFieldType>> = {},
): Record<string, FilterFieldType> {
  return { ...DEFAULT_FILTER_FIELD_TYPES, ...dataTypes, ...LOG_FIXED_FILTER_TYPES };
}

/** Display names of the fixed fields, for filter summaries and column headers. */
export const LOG_FIELD_LABELS: Readonly<Record<LogFixedField, string>> = {
  accountId: "Account ID",
  accountName: "Account Name",
  agentId: "Agent ID",
  timestamp: "Timestamp",
  duration: "Duration",
  fromNumber: "From Number",
  toNumber: "To Number",
  // The carrier's caller-ID name: "Caller Name" is the name the agent collects (callerName).
  cnam: "Caller ID Name",
  roomId: "Room ID",
  direction: "Direction",
  transfer: "Transfer",
  callId: "Call ID",
  uuid: "UUID",
};

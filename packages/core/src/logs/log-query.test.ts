import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LOG_FIXED_FILTER_TYPES, LOG_REQUIRED_FIELDS, logFilterFieldTypes } from "./log-fields.ts";
import {
  buildLogExportRequest,
  buildLogRequest,
  type LogScreenState,
  normalizeLogFilters,
  parseFieldList,
  parseLogScreenQuery,
  parsePositiveInt,
  parseQueryString,
  resolveLogDateWindow,
  serializeLogScreenQuery,
  withRequiredLogFields,
} from "./log-query.ts";

const DAY = 86_400_000;
const NOW = Date.UTC(2024, 4, 15, 12);

describe("log field filter types", () => {
  it("filters transfer as an integer and keeps fixed types over given ones", () => {
    expect(LOG_FIXED_FILTER_TYPES.transfer).toBe("integer");
    expect(LOG_FIXED_FILTER_TYPES.timestamp).toBe("date");
    const types = logFilterFieldTypes({ timestamp: "string", score: "integer", type: "integer" });
    expect(types.timestamp).toBe("date");
    expect(types.score).toBe("integer");
    expect(types.type).toBe("integer");
    expect(logFilterFieldTypes().scheduled).toBe("string");
  });

  it("normalises with the log types choosing default operators", () => {
    expect(
      normalizeLogFilters(
        { timestamp: "2024-05-01", accountId: "3", transfer: 1, note: "x", score: 2 },
        { score: "integer" },
      ),
    ).toEqual({
      timestamp: { value: "2024-05-01", op: "on" },
      accountId: { value: "3", op: "eq" },
      transfer: { value: 1, op: "eq" },
      note: { value: "x", op: "is" },
      score: { value: 2, op: "eq" },
    });
  });
});

describe("query helpers", () => {
  it.each([
    [1, 1],
    ["25", 25],
    [" 3 ", 3],
    [0, undefined],
    ["0", undefined],
    [-2, undefined],
    ["-2", undefined],
    [1.5, undefined],
    ["1.5", undefined],
    ["abc", undefined],
    ["", undefined],
    [null, undefined],
    [Number.POSITIVE_INFINITY, undefined],
    ["99999999999999999999", undefined],
  ])("page value %j counts as %j", (value, expected) => {
    expect(parsePositiveInt(value)).toBe(expected);
  });

  it("parses query strings and objects", () => {
    expect(parseQueryString("?a=1&b=x+y&c=%41&d&a=2&e=%E0%A4%A")).toEqual({
      a: "1",
      b: "x y",
      c: "A",
      d: "",
      e: "%E0%A4%A",
    });
    expect(parseQueryString({ a: ["1", "2"], b: "x", c: undefined, d: null })).toEqual({ a: "1", b: "x" });
  });

  it("parses field lists", () => {
    expect(parseFieldList(" a, b,,a ,c ")).toEqual(["a", "b", "c"]);
    expect(parseFieldList(undefined)).toEqual([]);
  });

  it("always adds uuid, callId, accountId, agentId, roomId to requested fields", () => {
    expect(LOG_REQUIRED_FIELDS).toEqual(["uuid", "callId", "accountId", "agentId", "roomId"]);
    expect(withRequiredLogFields(["duration", "callId"])).toEqual([
      "duration",
      "callId",
      "uuid",
      "accountId",
      "agentId",
      "roomId",
    ]);
    expect(withRequiredLogFields([])).toEqual(["uuid", "callId", "accountId", "agentId", "roomId"]);
  });
});

describe("logs screen query", () => {
  it("parses filters (URL-encoded JSON with Op keys), fields, page, pageSize, dateFilter", () => {
    const filters = encodeURIComponent(
      JSON.stringify({
        direction: "inbound|Inbound",
        directionOp: "isNot",
        duration: "30",
        durationOp: "gt",
        empty: "",
      }),
    );
    const state = parseLogScreenQuery(
      `?filters=${encodeURIComponent(filters)}&fields=timestamp,duration,,direction&page=2&pageSize=50&dateFilter=7%20day`,
    );
    expect(state).toEqual({
      filters: { direction: { value: "inbound", op: "isNot" }, duration: { value: "30", op: "gt" } },
      fields: ["timestamp", "duration", "direction"],
      page: 2,
      pageSize: 50,
      dateFilter: "7 day",
    });
  });

  it("keeps the channel listed (texts, web chats); calls are the default and left out", () => {
    expect(parseLogScreenQuery("channel=sms")).toEqual({ filters: {}, fields: [], channel: "sms" });
    expect(parseLogScreenQuery("channel=voice")).toEqual({ filters: {}, fields: [] });
    expect(parseLogScreenQuery("channel=fax")).toEqual({ filters: {}, fields: [] });
    expect(serializeLogScreenQuery({ filters: {}, fields: [], channel: "web" })).toBe("channel=web");
    expect(serializeLogScreenQuery({ filters: {}, fields: [], channel: "voice" })).toBe("");
    expect(buildLogRequest({ filters: {}, fields: [], channel: "sms" }).channel).toBe("sms");
    expect(buildLogRequest({ filters: {}, fields: [] }).channel).toBeUndefined();
  });

  it("ignores paging that is not a positive whole number and bad filters", () => {
    expect(parseLogScreenQuery({ page: "0", pageSize: "-5", filters: "{oops" })).toEqual({
      filters: {},
      fields: [],
    });
    expect(parseLogScreenQuery("page=1.5&pageSize=abc")).toEqual({ filters: {}, fields: [] });
  });

  it("serialises back to a query the parser reads identically", () => {
    const state: LogScreenState = {
      filters: { direction: { value: "inbound", op: "is" }, duration: { value: [1, 9], op: "between" } },
      fields: ["timestamp", "cnam"],
      page: 3,
      pageSize: 100,
      dateFilter: '{"start":"2024-05-01","end":"2024-05-07"}',
    };
    const text = serializeLogScreenQuery(state);
    expect(text).toMatch(/^filters=%7B/);
    expect(parseLogScreenQuery(text)).toEqual(state);
    expect(serializeLogScreenQuery({ filters: {}, fields: [], page: 0 })).toBe("");
  });

  it("round-trips any screen state", () => {
    const word = fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,10}$/).filter((text) => !text.endsWith("Op"));
    const value = fc.oneof(
      fc
        .string({ minLength: 1 })
        .filter((text) => !text.includes("|") && text.trim() === text && text !== ""),
      fc.integer(),
      fc.array(fc.integer(), { minLength: 1, maxLength: 3 }),
    );
    const state = fc.record(
      {
        filters: fc.dictionary(
          word,
          fc.record({ value, op: fc.constantFrom("is", "gt", "on", "contains", "between") }),
        ),
        fields: fc.uniqueArray(word, { maxLength: 5 }),
        page: fc.integer({ min: 1, max: 10_000 }),
        pageSize: fc.integer({ min: 1, max: 10_000 }),
        dateFilter: fc.constantFrom("7 day", "1 month", "2024-01-01,2024-01-31"),
      },
      { requiredKeys: ["filters", "fields"] },
    );
    fc.assert(
      fc.property(state, (original) => {
        expect(parseLogScreenQuery(serializeLogScreenQuery(original))).toEqual(original);
      }),
    );
  });
});

describe("log request", () => {
  const state: LogScreenState = {
    filters: { direction: { value: "inbound", op: "is" } },
    fields: ["timestamp", "uuid"],
    page: 2,
    pageSize: 0,
    dateFilter: "7 day",
  };

  it("sends filter entries, all required fields, positive paging and the window", () => {
    expect(buildLogRequest(state, { now: NOW })).toEqual({
      filters: '{"direction":{"value":"inbound","op":"is"}}',
      fields: "timestamp,uuid,callId,accountId,agentId,roomId",
      page: 2,
      format: "json",
      start: new Date(NOW - 7 * DAY).toISOString(),
      end: new Date(NOW).toISOString(),
    });
    expect(buildLogRequest({ filters: {}, fields: [] }, { format: "csv" })).toEqual({
      fields: "uuid,callId,accountId,agentId,roomId",
      format: "csv",
    });
  });

  it("exports page 1 of 10000", () => {
    expect(buildLogExportRequest(state, "csv")).toMatchObject({ page: 1, pageSize: 10_000, format: "csv" });
  });
});

describe("resolveLogDateWindow", () => {
  it.each([
    [undefined, { start: NOW - 30 * DAY, end: NOW }],
    ["", { start: NOW - 30 * DAY, end: NOW }],
    ["garbage", { start: NOW - 30 * DAY, end: NOW }],
    ["7 day", { start: NOW - 7 * DAY, end: NOW }],
    ["last 2 weeks", { start: NOW - 14 * DAY, end: NOW }],
    ["2024-05-01,2024-05-03", { start: Date.UTC(2024, 4, 1), end: Date.UTC(2024, 4, 4) - 1 }],
    [
      '{"start":"2024-05-01T06:00:00Z","end":1715000000000}',
      { start: Date.UTC(2024, 4, 1, 6), end: 1715000000000 },
    ],
    ["2024-05-03,2024-05-01", { start: NOW - 30 * DAY, end: NOW }],
    ["2024-02-30,2024-03-05", { start: NOW - 30 * DAY, end: NOW }],
    ['{"start":"x"}', { start: NOW - 30 * DAY, end: NOW }],
  ])("%j", (dateFilter, expected) => {
    expect(resolveLogDateWindow(dateFilter, NOW)).toEqual(expected);
  });
});

import * as api from "@switchboard/api";
import {
  computeMetric,
  DAY_MS,
  DEFAULT_METRICS,
  type FormulaRow,
  metricChannels,
  parseCsv,
} from "@switchboard/core";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller } from "../../../test/api-call.ts";
import { expectRefusal, refusal, type TestClient, testClient } from "../../../test/api-client.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import {
  accounts,
  conversationLogs,
  conversationMessages,
  rooms,
  runtimeUsage,
} from "../../db/schema/index.ts";
import { csvCell, csvCellSql, csvLine, csvLineSql } from "./csv.ts";
import { insertGeneratedLogs } from "./insert-generated-logs.ts";
import { createLogsModule } from "./logs.module.ts";
import { createLogsRepository } from "./logs.repository.ts";
import { toFormulaRow } from "./metrics.service.ts";
import { queryRows } from "./sql.ts";

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
let client: TestClient;
let call: ReturnType<typeof apiCaller>;
let owner: string;
const NOW = Date.now();
/** k days and one hour ago: clear of the window's edges. */
const ago = (days: number) => new Date(NOW - days * DAY_MS - 3_600_000);
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

type Seed = Partial<typeof conversationLogs.$inferInsert> & { data?: Record<string, unknown> };
let counter = 0;
function logRow(orgId: number, values: Seed): typeof conversationLogs.$inferInsert {
  counter++;
  return {
    orgId,
    accountId: orgId,
    accountName: "Org",
    agentId: null,
    timestamp: ago(1),
    duration: 0,
    direction: "inbound",
    transfer: "0",
    uuid: `log-${counter}-${Math.random().toString(36).slice(2)}`,
    roomId: `room-${counter}`,
    callId: `call-${counter}`,
    data: {},
    ...values,
  };
}

/**
 * The known data set: six calls of O1 in the last week (the same six as core's default-metric test),
 * one older call outside the default window, and calls of O2 that O1 must never see.
 */
const SIX = [
  {
    direction: "inbound",
    duration: 120,
    transfer: "0",
    fromNumber: "+15035550001",
    cnam: "JANE DOE",
    timestamp: ago(1),
    data: { appointmentBooked: true, reason: "Cleaning", satisfaction: 5, note: "=SUM(A1)" },
  },
  {
    direction: "inbound",
    duration: 45,
    transfer: "1",
    fromNumber: "+15035550002",
    cnam: "",
    timestamp: ago(2),
    data: {
      appointmentBooked: false,
      reason: "Toothache|urgent",
      satisfaction: 2,
      note: 'said "hi", then left',
    },
  },
  {
    direction: "outbound",
    duration: 0,
    transfer: "0",
    toNumber: "+15035550003",
    cnam: null,
    timestamp: ago(3),
    // A call task's call that nobody answered: the task still completed (its voicemail was left).
    data: { reason: "Reschedule", taskCompleted: true },
  },
  {
    direction: "outbound",
    duration: 300,
    transfer: "1",
    toNumber: "+15035550004",
    cnam: "WIRELESS CALLER",
    timestamp: ago(4),
    data: { appointmentBooked: "true", satisfaction: 4, note: "line1\nline2" },
  },
  {
    direction: "inbound",
    duration: 75,
    transfer: "0",
    fromNumber: "+15035550005",
    cnam: "MARIA GARCIA",
    timestamp: ago(5),
    data: {
      appointmentBooked: "false",
      note: "+1 555 call me",
      visitDate: "2024-06-01",
      reviewReason: "Caller asked for a person twice",
    },
  },
  {
    direction: "inbound",
    duration: 0,
    transfer: "0",
    fromNumber: "-12",
    cnam: "UNKNOWN",
    timestamp: ago(6),
    data: { appointmentBooked: null, note: "@admin, with comma", visitDate: "2024-06-03" },
  },
] as const;

/**
 * Conversations of O1 that are not calls: the editor's test chat (web, with the raw user and agent ids as its
 * addresses) and a text task's message (sms). They are never in Calls nor counted as calls.
 */
const NOT_CALLS = [
  {
    channel: "web",
    direction: "inbound",
    duration: 40,
    transfer: "0",
    fromNumber: "user-4",
    toNumber: "bluebird-front-desk",
    timestamp: ago(1),
    data: { appointmentBooked: true, channel: "web", source: "test" },
  },
  {
    channel: "sms",
    direction: "outbound",
    duration: 0,
    transfer: "0",
    toNumber: "+15035550009",
    timestamp: ago(2),
    data: { channel: "sms", taskCompleted: true },
  },
] as const;

let uuids: string[] = [];
let notCallUuids: string[] = [];

beforeAll(async () => {
  app = await buildTestApp();
  world = await buildHierarchy(app);
  client = testClient(app);
  call = apiCaller(app);
  owner = world.members.o1Owner.token;
  const db = app.context.database.db;
  const { O1, O2, A1 } = world.accounts;
  const rows = SIX.map((values, i) =>
    logRow(O1.id, { ...values, agentId: i < 3 ? A1.id : null, accountName: "Org One" } as Seed),
  );
  uuids = rows.map((row) => row.uuid);
  const others = NOT_CALLS.map((values) => logRow(O1.id, { ...values, accountName: "Org One" } as Seed));
  notCallUuids = others.map((row) => row.uuid);
  await db
    .insert(conversationLogs)
    .values([
      ...rows,
      ...others,
      logRow(O1.id, { duration: 999, timestamp: ago(40), data: { reason: "Cleaning" } }),
      logRow(O2.id, { duration: 50, accountName: "Org Two Secret", data: { reason: "Cleaning" } }),
      logRow(O2.id, { duration: 60, accountName: "Org Two Secret", data: { reviewReason: "other tenant" } }),
    ]);
});
afterAll(async () => {
  await app.close();
});

type LogQuery = api.RouteQuery<typeof api.listLogs>;
const logs = (query: LogQuery, token = owner) => client(token).call(api.listLogs, { query });
/** A CSV export: the typed client answers text for a non-JSON answer. */
const csv = async (query: LogQuery, token = owner) =>
  (await client(token).call(api.listLogs, { query: { ...query, format: "csv" } })) as unknown as string;
const count = async (filters: unknown) => {
  const res = await logs({ filters: typeof filters === "string" ? filters : JSON.stringify(filters) });
  return res.totalCount;
};

describe("GET /api/v2/logs", () => {
  it("answers the organisation's rows of the last 30 days, newest first, fixed and dynamic fields", async () => {
    const res = await logs({});
    expect(res.totalCount).toBe(6);
    expect(res.pagination).toEqual({ page: 1, pageSize: 100, hasMore: false });
    expect(res.logs.map((row) => row.uuid)).toEqual(uuids);
    expect(res.logs[0]).toMatchObject({
      accountId: world.accounts.O1.id,
      accountName: "Org One",
      agentId: world.accounts.A1.id,
      timestamp: SIX[0].timestamp.toISOString(),
      duration: 120,
      fromNumber: "+15035550001",
      cnam: "JANE DOE",
      direction: "inbound",
      transfer: "0",
      appointmentBooked: true,
      reason: "Cleaning",
      satisfaction: 5,
    });
    expect(JSON.stringify(res)).not.toContain("Org Two Secret");
  });

  it("lists calls alone by default: a test chat and a text task are kept apart with their channel", async () => {
    // As Calls asks: neither the test chat ("user-4 → bluebird-front-desk") nor the text is a row there.
    const calls = await logs({ fields: "uuid,fromNumber,toNumber" });
    expect(calls.logs.map((row) => row.uuid)).toEqual(uuids);
    expect(calls.logs.map((row) => row.fromNumber)).not.toContain("user-4");
    // Filters and exports of Calls count calls only; the counts tables answer with the channel too.
    expect(await count({ direction: "outbound" })).toBe(2);
    expect(await count({ appointmentBooked: "true" })).toBe(2);
    expect(await count({ duration: { value: 30, op: "gt" } })).toBe(4);
    const exported = parseCsv(await csv({ fields: "uuid" }));
    expect(exported.slice(1).map((row) => row[0])).toEqual(uuids);
    // Each conversation keeps its channel: asked for, the chat and the text are there.
    const web = await logs({ channel: "web", fields: "uuid,fromNumber,source" });
    expect(web.logs).toEqual([
      expect.objectContaining({ uuid: notCallUuids[0], fromNumber: "user-4", source: "test" }),
    ]);
    expect((await logs({ channel: "sms", fields: "uuid" })).logs.map((row) => row.uuid)).toEqual([
      notCallUuids[1],
    ]);
    expect((await logs({ channel: "all" })).totalCount).toBe(8);
    await expectRefusal(logs({ channel: "fax" as never }), 400);
  });

  it("scopes by the account in view: an agent sees its own calls, a partner those of its organisations", async () => {
    const { A1, P1, O2 } = world.accounts;
    const agent = await client(owner, A1.id).call(api.listLogs);
    expect(agent.logs.map((row) => row.uuid)).toEqual(uuids.slice(0, 3));
    const partner = await client(world.members.p1Owner.token, P1.id).call(api.listLogs);
    expect(partner.totalCount).toBe(6);
    await expectRefusal(client(owner, O2.id).call(api.listLogs), 404);
  });

  it("applies the time window: start/end, dateFilter, default 30 days", async () => {
    expect((await logs({ dateFilter: "60 day" })).totalCount).toBe(7);
    expect((await logs({ dateFilter: "2 day" })).totalCount).toBe(1);
    const range = await logs({ start: isoDay(ago(4)), end: isoDay(ago(2)) });
    expect(range.totalCount).toBe(3);
    await expectRefusal(logs({ start: "yesterday" }), 400);
  });

  it("string operators against real rows (is, isNot, contains, notContains, isSet, isNotSet)", async () => {
    expect(await count({ direction: { value: "inbound", op: "is" } })).toBe(4);
    expect(await count({ direction: { value: ["inbound", "outbound"], op: "is" } })).toBe(6);
    expect(await count({ direction: { value: "outbound", op: "isNot" } })).toBe(4);
    expect(await count({ reason: { value: "CLEAN", op: "contains" } })).toBe(1);
    expect(await count({ reason: { value: "e", op: "notContains" } })).toBe(3);
    expect(await count({ cnam: { value: true, op: "isSet" } })).toBe(4);
    expect(await count({ cnamOp: "isNotSet" })).toBe(2);
    expect(await count({ note: { value: "%", op: "contains" } })).toBe(0);
  });

  it("integer operators against real rows (eq, ne, gt, gte, lt, lte, between, notBetween)", async () => {
    expect(await count({ duration: { value: 0, op: "eq" } })).toBe(2);
    expect(await count({ duration: { value: "0", op: "ne" } })).toBe(4);
    expect(await count({ duration: { value: 100, op: "gt" } })).toBe(2);
    expect(await count({ duration: { value: 120, op: "gte" } })).toBe(2);
    expect(await count({ duration: { value: 45, op: "lt" } })).toBe(2);
    expect(await count({ duration: { value: 45, op: "lte" } })).toBe(3);
    expect(await count({ duration: { value: [80, 40], op: "between" } })).toBe(2);
    expect(await count({ duration: { value: [40, 80], op: "notBetween" } })).toBe(4);
    // transfer is text in rows and an integer filter (spec §5.2); satisfaction is collected data.
    expect(await count({ transfer: { value: 1, op: "eq" } })).toBe(2);
    expect(await count({ satisfaction: { value: 3, op: "gt" } })).toBe(2);
  });

  it("date operators against real rows (on, notOn, before, since, between, last, notLast, beforeLast, inNext)", async () => {
    expect(await count({ timestamp: { value: isoDay(SIX[0].timestamp), op: "on" } })).toBeGreaterThanOrEqual(
      1,
    );
    expect(await count({ timestamp: { value: isoDay(SIX[3].timestamp), op: "notOn" } })).toBe(5);
    expect(await count({ timestamp: { value: isoDay(SIX[3].timestamp), op: "before" } })).toBe(2);
    expect(await count({ timestamp: { value: isoDay(SIX[3].timestamp), op: "since" } })).toBe(4);
    expect(
      await count({
        timestamp: { value: [isoDay(SIX[4].timestamp), isoDay(SIX[3].timestamp)], op: "between" },
      }),
    ).toBe(2);
    expect(await count({ timestamp: { value: "2 day", op: "last" } })).toBe(1);
    expect(await count({ timestamp: { value: "2 day", op: "notLast" } })).toBe(5);
    expect(await count({ timestamp: { value: "5 day", op: "beforeLast" } })).toBe(2);
    expect(await count({ timestamp: { value: "1 week", op: "inNext" } })).toBe(0);
    expect(await count({ visitDate: { value: "2024-06-01", op: "on" } })).toBe(1);
  });

  it("reads values by the client rules: before the pipe, an object's value, screen form, empties dropped, URL-encoded", async () => {
    expect(await count({ reason: "Cleaning|and more" })).toBe(1);
    expect(await count({ reason: { value: { value: "Cleaning" } } })).toBe(1);
    expect(await count({ direction: "outbound", directionOp: "is" })).toBe(2);
    expect(await count({ direction: "", reason: null })).toBe(6);
    expect(await count(encodeURIComponent(JSON.stringify({ duration: 0, durationOp: "eq" })))).toBe(2);
    // The stored text "Toothache|urgent" cannot be matched whole: the pipe cuts the filter value.
    expect(await count({ reason: "Toothache|urgent" })).toBe(0);
  });

  it("refuses filters outside the whitelist with a message, and never runs them", async () => {
    const badField = await expectRefusal(
      logs({ filters: JSON.stringify({ "data'); drop table x; --": "1" }) }),
      400,
    );
    expect(badField.message).toContain("is not allowed");
    const badOp = await expectRefusal(
      logs({ filters: JSON.stringify({ duration: { value: 1, op: "contains" } }) }),
      400,
    );
    expect(badOp.message).toContain('Filter operator "contains" is not allowed for integer field "duration"');
    await expectRefusal(logs({ filters: JSON.stringify({ duration: { value: "abc", op: "gt" } }) }), 400);
    expect((await logs({})).totalCount).toBe(6);
  });

  it("pages: sizes, the last page, past the end, page 0 as the first, the export limit", async () => {
    const first = await logs({ pageSize: 4, page: 1 });
    expect(first.logs).toHaveLength(4);
    expect(first.pagination).toEqual({ page: 1, pageSize: 4, hasMore: true });
    const last = await logs({ pageSize: 4, page: 2 });
    expect(last.logs.map((row) => row.uuid)).toEqual(uuids.slice(4));
    expect(last.pagination.hasMore).toBe(false);
    const past = await logs({ pageSize: 4, page: 3 });
    expect(past.logs).toEqual([]);
    expect(past.totalCount).toBe(6);
    expect(past.pagination.hasMore).toBe(false);
    expect((await logs({ pageSize: 6, page: 1 })).pagination.hasMore).toBe(false);
    // The typed client never sends page 0 (paging only when positive): send it raw to test the server.
    const zero = await call("GET", "/api/v2/logs", { token: owner, query: { page: 0, pageSize: 2 } });
    expect(zero.body.pagination.page).toBe(1);
    await expectRefusal(logs({ pageSize: 10_001 }), 400);
    await logs({ pageSize: 10_000 });
  });

  it("answers the fields asked for plus uuid, callId, accountId, agentId, roomId", async () => {
    const res = await logs({ fields: "duration,reason", pageSize: 1 });
    expect(Object.keys(res.logs[0] ?? {}).sort()).toEqual(
      ["accountId", "agentId", "callId", "duration", "reason", "roomId", "uuid"].sort(),
    );
    await expectRefusal(logs({ fields: "duration,bad field" }), 400);
  });
});

describe("CSV export", () => {
  it("escapes commas, quotes and newlines and defuses cells beginning with = + - @", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("one\ntwo")).toBe('"one\ntwo"');
    expect(csvCell("=1+1")).toBe(`"'=1+1"`);
    expect(csvCell("+1 555")).toBe(`"'+1 555"`);
    expect(csvCell("-cmd")).toBe(`"'-cmd"`);
    expect(csvCell("@SUM(A1)")).toBe(`"'@SUM(A1)"`);
    expect(csvCell("\tx")).toBe(`"'\tx"`);
    expect(csvCell("+15035550100")).toBe("+15035550100");
    expect(csvCell("-12")).toBe("-12");
    expect(csvCell(null)).toBe("");
    expect(csvCell(true)).toBe("true");
  });

  it("builds the same cells and lines in SQL as csvCell and csvLine", async () => {
    const texts = [
      "plain",
      "a,b",
      'say "hi"',
      "one\ntwo",
      "cr\rhere",
      "=1+1",
      "+1 555",
      "-cmd",
      "@SUM(A1)",
      "\tx",
      "\rx",
      "+15035550100",
      "-12",
      "-1.5",
      "+.5",
      "1.",
      "",
      "'quoted'",
      "x".repeat(300),
    ];
    const values: Array<string | null> = [...texts, null];
    const cells = values.map((_, i) => `$${i + 1}::text`);
    const [row = {}] = await queryRows<Record<string, string>>(
      app.context.database,
      `SELECT ${cells.map((cell, i) => `${csvCellSql(cell, false)} AS c${i}`).join(", ")}, ` +
        `${csvLineSql(cells.map((text) => ({ text, plain: false })))} AS line`,
      values,
    );
    for (const [i, value] of values.entries())
      expect(row[`c${i}`], JSON.stringify(value)).toBe(csvCell(value));
    expect(row.line).toBe(csvLine(values));
    // Lines with nothing to quote take the fast path: each must still equal csvLine.
    for (const value of values) {
      const line = ["+15035550100", value, "-12", "ok"];
      const [fast] = await queryRows<{ line: string }>(
        app.context.database,
        `SELECT ${csvLineSql(line.map((_, i) => ({ text: `$${i + 1}::text`, plain: false })))} AS line`,
        line,
      );
      expect(fast?.line, JSON.stringify(value)).toBe(csvLine(line));
    }
  });

  it("streams the window's rows as conversation_logs_{date}.csv with the chosen columns", async () => {
    // Through app.inject: the test reads the answer's headers, which the typed client does not hand back.
    const res = await call("GET", "/api/v2/logs", {
      token: owner,
      query: { format: "csv", fields: "uuid,note,duration,fromNumber" },
    });
    expect(res.status).toBe(200);
    expect(String(res.headers["content-type"])).toContain("text/csv");
    expect(String(res.headers["content-disposition"])).toBe(
      `attachment; filename="conversation_logs_${new Date().toISOString().slice(0, 10)}.csv"`,
    );
    const rows = parseCsv(res.body as string);
    expect(rows[0]).toEqual(["uuid", "note", "duration", "fromNumber"]);
    expect(rows.slice(1).map((row) => row[0])).toEqual(uuids);
    expect(rows.slice(1).map((row) => row[1])).toEqual([
      "'=SUM(A1)",
      'said "hi", then left',
      "",
      "line1\nline2",
      "'+1 555 call me",
      "'@admin, with comma",
    ]);
    expect(rows.slice(1).map((row) => row[2])).toEqual(["120", "45", "0", "300", "75", "0"]);
    expect(rows[6]?.[3]).toBe("-12");
  });

  it("exports a page when asked (page 2 of 4) and every field without fields", async () => {
    const page = parseCsv(await csv({ fields: "uuid", page: 2, pageSize: 4 }));
    expect(page.slice(1).map((row) => row[0])).toEqual(uuids.slice(4));
    const all = parseCsv(await csv({ filters: JSON.stringify({ direction: "outbound" }) }));
    expect(all[0]?.slice(0, 13)).toEqual([
      "accountId",
      "accountName",
      "agentId",
      "timestamp",
      "duration",
      "fromNumber",
      "toNumber",
      "cnam",
      "roomId",
      "direction",
      "transfer",
      "callId",
      "uuid",
    ]);
    expect(all[0]).toContain("satisfaction");
    expect(all).toHaveLength(3);
    expect(all[1]?.[3]).toBe(SIX[2].timestamp.toISOString());
  });

  it("streams in keyset batches across many rows, and a refused filter still answers JSON", async () => {
    const { U } = world.accounts;
    const db = app.context.database.db;
    const [agent] = await db.select().from(accounts).where(eq(accounts.organizationId, U.id)).limit(1);
    await insertGeneratedLogs(db, {
      orgId: U.id,
      accountName: "U",
      agentIds: [agent?.id ?? U.id],
      count: 12_000,
      days: 20,
    });
    const token = world.members.uOwner.token;
    // Every channel: the generated conversations are calls and texts.
    const rows = parseCsv(await csv({ fields: "uuid,timestamp", channel: "all" }, token)).slice(1);
    expect(rows).toHaveLength(12_000);
    expect(new Set(rows.map((row) => row[0])).size).toBe(12_000);
    const times = rows.map((row) => row[1] as string);
    expect([...times].sort().reverse()).toEqual(times);
    // Time slices built two at a time give the same text as keyset batches, in the same order.
    const repo = createLogsRepository(app.context.database);
    const where = {
      scope: { orgIds: [U.id], agentId: null },
      channels: null,
      start: new Date(NOW - 30 * DAY_MS),
      end: new Date(Date.now() + 60_000),
      filter: { sql: sql`TRUE` },
    };
    const cells = [
      { sql: sql`uuid`, plain: false },
      { sql: sql`"timestamp"::text`, plain: true },
      { sql: sql`data ->> 'reason'`, plain: false },
    ];
    let sliced = "";
    let slices = 0;
    for await (const text of repo.csvSlices(where, cells, 1000, 2)) {
      sliced += text;
      slices++;
    }
    let batched = "";
    for await (const text of repo.csvBatches(where, cells, 700, null)) batched += text;
    expect(slices).toBeGreaterThan(10);
    expect(sliced.split("\r\n")).toHaveLength(12_001);
    expect(sliced).toBe(batched);
    const refused = await expectRefusal(
      csv({ filters: JSON.stringify({ duration: { value: "x", op: "gt" } }) }),
      400,
    );
    expect(refused.body).toMatchObject({ success: false });
  });
});

describe("GET /api/v2/logs/fields", () => {
  it("lists the fixed fields, then the dynamic ones with inferred types", async () => {
    const res = await client(owner).call(api.listLogFields);
    const types = Object.fromEntries(res.fields.map((f) => [f.name, f.type]));
    expect(res.fields.slice(0, 13).every((f) => f.fixed)).toBe(true);
    expect(types).toMatchObject({
      duration: "integer",
      timestamp: "date",
      satisfaction: "integer",
      visitDate: "date",
      reason: "string",
      note: "string",
      appointmentBooked: "string",
    });
    expect(res.fields.find((f) => f.name === "visitDate")).toMatchObject({
      label: "Visit Date",
      fixed: false,
    });
  });
});

describe("dashboard metrics", () => {
  it("computes each default metric on the known calls, in SQL, with a daily series", async () => {
    const res = await client(owner).call(api.getDashboardMetrics);
    expect(res.source).toBe("default");
    const byName: Record<string, (typeof res.metrics)[number]> = Object.fromEntries(
      res.metrics.map((m) => [m.metric.name, m]),
    );
    // By hand over the six calls (the test chat and the text are not calls): answered 4 of 6, booked 2 of 6;
    // Tasks Completed counts calls and texts: the call task and the text task.
    const expected: Record<string, [number, string, string[]]> = {
      minutesSaved: [540 * 0.0166667, "9", ["voice"]],
      callsAnswered: [4, "4", ["voice"]],
      appointmentsBooked: [2, "2", ["voice"]],
      appointmentBookRate: [(2 / 6) * 100, "33.3%", ["voice"]],
      avgCallDuration: [90, "90", ["voice"]],
      callsTransfered: [2, "2", ["voice"]],
      inboundCalls: [4, "4", ["voice"]],
      outboundCalls: [2, "2", ["voice"]],
      tasksCompleted: [2, "2", ["voice", "sms"]],
      answerRate: [(4 / 6) * 100, "66.7%", ["voice"]],
      bookedPer100Calls: [(2 / 6) * 100, "33.3", ["voice"]],
    };
    expect(Object.keys(byName)).toEqual(Object.keys(expected));
    for (const [name, [value, text, channels]] of Object.entries(expected)) {
      expect(byName[name]?.value, name).toBeCloseTo(value, 6);
      expect(byName[name]?.text, name).toBe(text);
      expect(byName[name]?.metric.channels, name).toEqual(channels);
      expect(byName[name]?.rows, name).toBe(channels.length === 1 ? 6 : 7);
      expect(byName[name]?.engine).toBe("sql");
      expect(byName[name]?.error).toBeNull();
    }
    const series = byName.callsAnswered?.series ?? [];
    expect(series.length).toBeGreaterThanOrEqual(30);
    expect(series.reduce((sum, p) => sum + p.value, 0)).toBe(4);
  });

  it("falls back to core's evaluator for functions and reports formula errors in the spec's words", async () => {
    const evaluate = (metric: Partial<api.RouteBody<typeof api.evaluateMetric>["metric"]>) =>
      client(owner).call(api.evaluateMetric, { body: { metric: { name: "m", title: "M", ...metric } } });
    const fn = await evaluate({ formula: "if(duration > 60, 1, 0)", aggregation: "sum" });
    expect(fn.result).toMatchObject({ value: 3, engine: "evaluator", rows: 6, error: null });
    const filtered = await evaluate({
      formula: "duration",
      aggregation: "avg",
      filters: { direction: { value: "inbound", op: "is" } },
    });
    expect(filtered.result).toMatchObject({ value: 60, engine: "sql", rows: 4 });
    const broken = await evaluate({ formula: "duration +", aggregation: "sum" });
    let message = "";
    try {
      computeMetric({ formula: "duration +", aggregation: "sum", scale: 1 }, []);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).not.toBe("");
    expect(broken.result).toMatchObject({ value: 0, error: message });
  });

  it("translates formulas to SQL that agrees with core's evaluator on awkward values", async () => {
    const { O1, A1 } = world.accounts;
    // A tenant of its own with deliberately awkward values.
    const module = createLogsModule(app.context);
    const values: unknown[] = [
      5,
      "7",
      "abc",
      "",
      " ",
      true,
      false,
      "true",
      "FALSE",
      null,
      {},
      [],
      [1],
      "1e3",
      "-2.5",
      0,
      "0",
    ];
    const db = app.context.database.db;
    const org = world.accounts.U;
    await db.delete(conversationLogs).where(eq(conversationLogs.orgId, org.id));
    const texts = [null, "", "12", "JANE", "inbound", " 3 "];
    await db.insert(conversationLogs).values(
      values.map((value, i) =>
        logRow(org.id, {
          duration: (i * 37) % 200,
          cnam: texts[i % texts.length] ?? null,
          direction: i % 3 === 0 ? "outbound" : i % 3 === 1 ? "inbound" : null,
          transfer: String(i % 2),
          agentId: i % 4 === 0 ? null : A1.id,
          data: i === 3 ? {} : { x: value, y: values[(i * 7) % values.length], Booked: i % 2 === 0 },
        }),
      ),
    );
    const atoms = [
      "x",
      "y",
      "duration",
      "cnam",
      "direction",
      "transfer",
      "agentId",
      "missing",
      "3",
      "0",
      "'7'",
      "'abc'",
      "''",
      "true",
      "'inbound'",
      "2.5",
    ];
    const ops = ["+", "-", "*", "/", "%", "=", "!=", "<", "<=", ">", ">=", "and", "or"];
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const formula = (depth: number): string => {
      if (depth === 0 || rand(3) === 0) {
        const atom = atoms[rand(atoms.length)] as string;
        return rand(6) === 0 ? `!${atom}` : rand(7) === 0 ? `-${atom}` : atom;
      }
      return `(${formula(depth - 1)} ${ops[rand(ops.length)]} ${formula(depth - 1)})`;
    };
    const metrics = Array.from({ length: 240 }, (_, i) => ({
      name: `m${i}`,
      title: `M${i}`,
      filters: {},
      formula: i < atoms.length ? (atoms[i] as string) : formula(3),
      aggregation: (["sum", "count", "avg"] as const)[i % 3] as "sum" | "count" | "avg",
      scale: 1,
      format: "integer" as const,
      precision: 0,
    }));
    const target = (await app.context.access.loadAccount(org.id)) ?? org;
    const results = await module.metrics.compute(
      await (await import("./log-scope.ts")).scopeOf(db, target),
      metrics,
      undefined,
      0,
    );
    const raw = await module.logs.list({ target } as never, { format: "json" });
    expect(raw.totalCount).toBe(values.length);
    const rows: FormulaRow[] = (raw.logs as Array<Record<string, unknown>>).map((row) => {
      const {
        accountId,
        accountName,
        agentId,
        timestamp,
        duration,
        fromNumber,
        toNumber,
        cnam,
        roomId,
        direction,
        transfer,
        callId,
        uuid,
        ...data
      } = row;
      return toFormulaRow({
        accountId,
        accountName,
        agentId,
        timestamp: Date.parse(String(timestamp)),
        duration,
        fromNumber,
        toNumber,
        cnam,
        roomId,
        direction,
        transfer,
        callId,
        uuid,
        data,
      });
    });
    let sqlCount = 0;
    for (const [i, result] of results.entries()) {
      const metric = metrics[i] as (typeof metrics)[number];
      const expected = computeMetric(metric, rows);
      if (result.engine === "sql") sqlCount++;
      expect(result.error, metric.formula).toBeNull();
      expect(result.value, `${metric.aggregation} of ${metric.formula}`).toBeCloseTo(expected, 6);
    }
    expect(sqlCount).toBeGreaterThan(200);
    expect(O1.id).not.toBe(org.id);
  });

  it("saves metrics after validating formulas, and reads them back before the defaults", async () => {
    type Metrics = api.RouteBody<typeof api.saveDashboardMetrics>["metrics"];
    // Metrics as an older client may send them (a stray `field`), cast to the contract's input.
    const save = (metrics: unknown[], token = owner) =>
      client(token).call(api.saveDashboardMetrics, { body: { metrics: metrics as Metrics } });
    await expectRefusal(
      save([{ name: "x", title: "Broken", formula: "durration * 2" }]),
      400,
      "Broken: Unknown field: durration",
    );
    const blank = await refusal(save([{ name: "x", title: "Blank", formula: "  " }]));
    expect(blank.message).toBe("Blank: Formula cannot be empty.");
    await expectRefusal(
      save([
        { name: "x", title: "A" },
        { name: "x", title: "B" },
      ]),
      400,
    );
    const ok = await save([
      {
        name: "longCalls",
        title: "Long calls",
        formula: "duration > 60",
        aggregation: "count",
        field: "duration",
      },
      { ...DEFAULT_METRICS[0] },
    ]);
    expect(ok.metrics[0]).not.toHaveProperty("field");
    const read = await client(owner).call(api.getDashboardMetrics);
    expect(read.source).toBe("account");
    expect(read.metrics.map((m) => [m.metric.title, m.text])).toEqual([
      ["Long calls", "3"],
      ["Minutes Saved", "9"],
    ]);
    await save([], world.members.o1Admin.token);
    expect((await client(owner).call(api.getDashboardMetrics)).source).toBe("default");
  });

  it("falls back to the reseller's defaultOrgSettings.metrics", async () => {
    const { R1 } = world.accounts;
    const db = app.context.database.db;
    await db
      .update(accounts)
      .set({
        settings: {
          defaultOrgSettings: {
            metrics: [{ name: "all", title: "All calls", formula: "1", aggregation: "count" }],
          },
        },
      })
      .where(eq(accounts.id, R1.id));
    const res = await client(owner).call(api.getDashboardMetrics);
    expect(res.source).toBe("defaultOrgSettings");
    expect(res.metrics.map((m) => m.text)).toEqual(["6"]);
    await db.update(accounts).set({ settings: {} }).where(eq(accounts.id, R1.id));
  });
});

describe("the rollup (whole 15-minute buckets) with the rows at the window's edges", () => {
  it("counts (also of collected values) and default metrics equal the rows' own, after inserts, updates and deletes", async () => {
    const { U } = world.accounts;
    const db = app.context.database.db;
    const database = app.context.database;
    await db.delete(conversationLogs).where(eq(conversationLogs.orgId, U.id));
    await insertGeneratedLogs(db, { orgId: U.id, accountName: "U", agentIds: [U.id], count: 3000, days: 40 });
    // Writes after the insert: the triggers keep the rollup exact.
    await queryRows(
      database,
      `UPDATE conversation_logs SET direction = 'outbound', transfer = '1', duration = duration + 7,
         data = data || '{"appointmentBooked": "true", "reason": "Moved"}' WHERE org_id = $1 AND id % 7 = 0`,
      [U.id],
    );
    // Tasks that completed with their call or text.
    await queryRows(
      database,
      `UPDATE conversation_logs SET data = data || '{"taskCompleted": true}' WHERE org_id = $1 AND id % 3 = 0`,
      [U.id],
    );
    // A value too long for conversation_log_value_counts: its filter counts from the rows.
    const long = "Follow-up call ".repeat(20).trim();
    await queryRows(
      database,
      `UPDATE conversation_logs SET data = data || jsonb_build_object('reason', $2::text) WHERE org_id = $1 AND id % 17 = 0`,
      [U.id, long],
    );
    await queryRows(database, "DELETE FROM conversation_logs WHERE org_id = $1 AND id % 11 = 0", [U.id]);
    // The runtime writes its log row with INSERT ... ON CONFLICT (uuid) DO UPDATE: new rows and updated ones.
    await queryRows(
      database,
      `INSERT INTO conversation_logs (org_id, account_id, agent_id, "timestamp", duration, direction, transfer, uuid, data)
       SELECT org_id, account_id, agent_id, "timestamp" - interval '1 hour', duration * 2, 'inbound', '0',
         CASE WHEN id % 2 = 0 THEN uuid ELSE uuid || '-new' END, '{"appointmentBooked": false}'
       FROM conversation_logs WHERE org_id = $1 AND id % 5 = 0
       ON CONFLICT (uuid) DO UPDATE SET duration = excluded.duration, direction = excluded.direction,
         data = excluded.data, "timestamp" = excluded."timestamp"`,
      [U.id],
    );
    await queryRows(
      database,
      `UPDATE conversation_logs SET "timestamp" = "timestamp" - interval '3 days' WHERE org_id = $1 AND id % 13 = 0`,
      [U.id],
    );
    const token = world.members.uOwner.token;
    const start = new Date(NOW - 20 * DAY_MS + 7 * 60_000 + 13_000).toISOString();
    const end = new Date(NOW - DAY_MS + 3 * 60_000 + 500).toISOString();
    const filters: Array<[unknown, string]> = [
      [{}, "TRUE"],
      [{ direction: "inbound" }, "direction = 'inbound'"],
      [{ transfer: { value: 1, op: "eq" } }, "transfer = '1'"],
      [{ appointmentBooked: "true" }, "data ->> 'appointmentBooked' = 'true'"],
      [
        { direction: { value: "out", op: "contains" }, agentId: { value: U.id, op: "eq" } },
        "direction = 'outbound'",
      ],
      [{ duration: { value: 60, op: "gt" } }, "duration > 60"],
      [{ duration: { value: 0, op: "eq" } }, "duration = 0"],
      [{ duration: { value: 100, op: "lte" } }, "duration <= 100"],
      [{ reason: "Cleaning" }, "data ->> 'reason' = 'Cleaning'"],
      [{ reason: "Moved" }, "data ->> 'reason' = 'Moved'"],
      [{ reason: long }, `data ->> 'reason' = '${long}'`],
      [
        { reason: { value: "Cleaning", op: "isNot" } },
        "(data ->> 'reason' IS NULL OR data ->> 'reason' <> 'Cleaning')",
      ],
    ];
    for (const [filter, condition] of filters) {
      const res = await logs({ filters: JSON.stringify(filter), start, end }, token);
      const [row] = await queryRows<{ n: number }>(
        database,
        `SELECT count(*)::int AS n FROM conversation_logs WHERE org_id = $1 AND "timestamp" >= $2::timestamptz
           AND "timestamp" <= $3::timestamptz AND channel = 'voice' AND ${condition}`,
        [U.id, start, end],
      );
      expect(res.totalCount, JSON.stringify(filter)).toBe(row?.n);
      expect(row?.n, JSON.stringify(filter)).toBeGreaterThan(0);
      // Every channel: the texts are counted too.
      const all = await logs({ filters: JSON.stringify(filter), start, end, channel: "all" }, token);
      const [every] = await queryRows<{ n: number }>(
        database,
        `SELECT count(*)::int AS n FROM conversation_logs WHERE org_id = $1 AND "timestamp" >= $2::timestamptz
           AND "timestamp" <= $3::timestamptz AND ${condition}`,
        [U.id, start, end],
      );
      expect(all.totalCount, JSON.stringify(filter)).toBe(every?.n);
      expect(every?.n, JSON.stringify(filter)).toBeGreaterThan(row?.n ?? 0);
    }
    // The default metrics from the rollup (offset 0) and from the rows alone (an offset of 7 minutes is not
    // a whole number of buckets) agree with core's evaluator.
    const module = createLogsModule(app.context);
    const target = (await app.context.access.loadAccount(U.id)) ?? U;
    const scope = await (await import("./log-scope.ts")).scopeOf(db, target);
    // The default metrics, and two of an owner's that also roll up: one with its own filter, one reading
    // several dimensions.
    const metrics = [
      ...DEFAULT_METRICS.map((metric) => ({ ...metric })),
      {
        scale: 1,
        format: "integer" as const,
        precision: 0,
        name: "inboundBooked",
        title: "Inbound booked",
        filters: { direction: { value: "inbound", op: "is" } },
        formula: "appointmentBooked = true",
        aggregation: "avg" as const,
        channels: ["voice" as const, "sms" as const],
      },
      {
        scale: 1,
        format: "integer" as const,
        precision: 0,
        name: "weighted",
        title: "Weighted",
        filters: {},
        formula: "transfer * 2 + (direction = 'outbound') - (taskCompleted = true)",
        aggregation: "sum" as const,
      },
    ];
    const fromRollup = await module.metrics.compute(scope, metrics, "30 day", 0);
    const fromRows = await module.metrics.compute(scope, metrics, "30 day", 7);
    // Days at +01:00 are whole hours (the hourly rollup), at +00:30 whole quarter hours (the 15-minute one).
    const fromHours = await module.metrics.compute(scope, metrics, "30 day", 60);
    const fromQuarters = await module.metrics.compute(scope, metrics, "30 day", 30);
    const window = fromRollup[0]?.window as { start: number; end: number };
    const rowsOf = async (channel: "voice" | "sms") =>
      (
        await module.logs.list({ target } as never, {
          format: "json",
          start: String(window.start),
          end: String(window.end),
          pageSize: 5000,
          channel,
        })
      ).logs.map((row) => {
        const { accountId, accountName, agentId, timestamp, duration, fromNumber, toNumber, cnam } = row;
        const { roomId, direction, transfer, callId, uuid, ...data } = row;
        return toFormulaRow({
          ...{ accountId, accountName, agentId, duration, fromNumber, toNumber, cnam, roomId, direction },
          ...{ transfer, callId, uuid, data, timestamp: Date.parse(String(timestamp)) },
        });
      });
    const byChannel = { voice: await rowsOf("voice"), sms: await rowsOf("sms"), web: [] };
    expect(byChannel.voice.length).toBeGreaterThan(1000);
    expect(byChannel.sms.length).toBeGreaterThan(100);
    for (const [i, metric] of metrics.entries()) {
      // Core's evaluator over the rows of the metric's channels.
      const own = metricChannels(metric)
        .flatMap((channel) => byChannel[channel])
        .filter((row) => metric.name !== "inboundBooked" || row.direction === "inbound");
      expect(fromRollup[i]?.engine).toBe("sql");
      expect(fromRollup[i]?.value, metric.name).toBeCloseTo(computeMetric(metric, own), 6);
      expect(fromRollup[i]?.value, metric.name).toBeGreaterThan(0);
      expect(fromRows[i]?.value, metric.name).toBeCloseTo(fromRollup[i]?.value ?? Number.NaN, 6);
      expect(fromHours[i]?.value, metric.name).toBeCloseTo(fromRollup[i]?.value ?? Number.NaN, 6);
      expect(fromQuarters[i]?.value, metric.name).toBeCloseTo(fromRollup[i]?.value ?? Number.NaN, 6);
      expect(fromRollup[i]?.rows).toBe(own.length);
    }
    // The daily series at each offset are the calls answered of each local day, as the rows tell.
    const answeredIndex = metrics.findIndex((metric) => metric.name === "callsAnswered");
    for (const [offset, results] of [
      [0, fromRollup],
      [60, fromHours],
      [30, fromQuarters],
      [7, fromRows],
    ] as const) {
      const perDay = new Map<string, number>();
      for (const row of byChannel.voice) {
        if (Number(row.duration) <= 0) continue;
        const day = new Date(
          Math.floor((Number(row.timestamp) + offset * 60_000) / DAY_MS) * DAY_MS,
        ).toISOString();
        perDay.set(day.slice(0, 10), (perDay.get(day.slice(0, 10)) ?? 0) + 1);
      }
      const series = results[answeredIndex]?.series ?? [];
      expect(series.filter((point) => point.value > 0).length, `offset ${offset}`).toBeGreaterThan(15);
      for (const point of series)
        expect(point.value, `${offset} ${point.date}`).toBe(perDay.get(point.date) ?? 0);
    }
  });
});

describe("calls for review, usage and campaign statistics", () => {
  it("lists flagged calls to a super admin only: failed turns and a reviewReason", async () => {
    const db = app.context.database.db;
    const { O1, A1 } = world.accounts;
    await db.insert(rooms).values({ id: "room-review", orgId: O1.id, agentAccountId: A1.id, channel: "web" });
    await db.insert(conversationMessages).values({
      orgId: O1.id,
      roomId: "room-review",
      conversationUuid: uuids[1] as string,
      role: "assistant",
      status: "failed",
      error: "model timeout",
    });
    const asSuperAdmin = client(world.members.superAdmin.token);
    const res = await asSuperAdmin.call(api.fetchCallsForReview, { query: { targetAccountId: O1.id } });
    expect(res.calls.map((c) => [c.uuid, c.reasons])).toEqual([
      [uuids[1], ["An agent turn failed"]],
      [uuids[4], ["Caller asked for a person twice"]],
    ]);
    const all = await asSuperAdmin.call(api.fetchCallsForReview);
    expect(all.calls.map((c) => c.reasons.join())).toContain("other tenant");
    await expectRefusal(client(owner).call(api.fetchCallsForReview), 403);
  });

  it("sums usage per bucket with costs, padded per day for the current billing period", async () => {
    const db = app.context.database.db;
    const { O1, A1 } = world.accounts;
    const day = new Date(Date.UTC(2024, 2, 10, 15));
    await db.insert(runtimeUsage).values([
      {
        orgId: O1.id,
        agentAccountId: A1.id,
        channel: "web",
        provider: "sandbox",
        model: "s",
        totalTokens: 1000,
        messagesIn: 1,
        messagesOut: 1,
        createdAt: day,
      },
      {
        orgId: O1.id,
        agentAccountId: A1.id,
        channel: "sms",
        provider: "sandbox",
        model: "s",
        totalTokens: 500,
        messagesIn: 2,
        messagesOut: 3,
        createdAt: day,
      },
    ]);
    await db
      .insert(conversationLogs)
      .values([
        logRow(O1.id, { timestamp: day, duration: 61, data: { channel: "voice" } }),
        logRow(O1.id, { timestamp: day, duration: 30, data: { channel: "voice", voiceTier: "advanced" } }),
      ]);
    const res = await client(owner).call(api.getUsageStats, {
      query: { startDate: "2024-03-09", endDate: "2024-03-11", timeseries: "true" },
    });
    expect(res.usage).toEqual({
      number: 0,
      tokens: 1500,
      voice: 2,
      advancedVoice: 1,
      "outbound-message": 3,
      "inbound-message": 2,
    });
    // Priced by the Free plan (no subscription): tokens, minutes and texts within what it includes; the
    // advanced minute is not a Free plan item, so at the list price.
    expect(res.plan).toBe("Free");
    expect(res.costs).toEqual({
      number: 0,
      tokens: 0,
      voice: 0,
      advancedVoice: 0.15,
      "outbound-message": 0,
      "inbound-message": 0,
    });
    expect(res.totalCost).toBe(0.15);
    expect(res.prices.voice).toBe(0);
    expect(res.timeseries?.map((p) => p.totalCost)).toEqual([0, 0.15, 0]);
    expect(res.timeseries?.map((p) => [p.date, p.tokens])).toEqual([
      ["03-09-2024", 0],
      ["03-10-2024", 1500],
      ["03-11-2024", 0],
    ]);
    const noCosts = await client(owner).call(api.getUsageStats, {
      query: { startDate: "2024-03-09", endDate: "2024-03-11", giveCosts: "false" },
    });
    expect(noCosts).not.toHaveProperty("costs");
    const period = await client(owner).call(api.getUsageStats, {
      query: { billingPeriod: "current", timeseries: "true" },
    });
    const dates = (period.timeseries ?? []).map((p) => p.date);
    expect(dates.length).toBeGreaterThanOrEqual(30);
    expect(dates[0]).toMatch(/^\d{2}-\d{2}-\d{4}$/);
    const asDays = dates.map((d) => `${d.slice(6)}-${d.slice(0, 5)}`);
    expect([...asDays].sort()).toEqual(asDays);
  });

  it("answers campaign statistics for a day, all agents or one", async () => {
    const day = isoDay(SIX[0].timestamp);
    const res = await client(owner).call(api.getCampaignStats, { params: { date: day } });
    const a1 = res.campaigns.find((c) => c.agentId === world.accounts.A1.id);
    expect(a1).toMatchObject({
      campaignId: String(world.accounts.A1.id),
      calls: 1,
      answered: 1,
      minutes: 2,
      appointmentsBooked: 1,
      inbound: 1,
    });
    const one = await client(owner).call(api.postCampaignStats, {
      body: { dateString: `${day.slice(5)}-${day.slice(0, 4)}`, campaignId: world.accounts.A1.id },
    });
    expect(one.stats.calls).toBe(1);
    await expectRefusal(
      client(owner).call(api.postCampaignStats, {
        body: { dateString: day, campaignId: world.accounts.A2.id },
      }),
      404,
    );
  });
});

describe("the log generator", () => {
  it("fills an organisation with realistic calls over 90 days", async () => {
    const db = app.context.database.db;
    const { O2, A2 } = world.accounts;
    const written = await insertGeneratedLogs(
      db,
      { orgId: O2.id, accountName: "Org Two", agentIds: [A2.id], count: 2000, usage: true },
      700,
    );
    expect(written).toBe(2000);
    const rows = await db.select().from(conversationLogs).where(eq(conversationLogs.accountName, "Org Two"));
    expect(rows).toHaveLength(2000);
    const share = (test: (row: (typeof rows)[number]) => boolean) => rows.filter(test).length / rows.length;
    expect(share((r) => r.direction === "inbound")).toBeGreaterThan(0.65);
    expect(share((r) => r.direction === "inbound")).toBeLessThan(0.85);
    expect(share((r) => r.duration === 0)).toBeGreaterThan(0.03);
    expect(share((r) => r.transfer === "1")).toBeGreaterThan(0.05);
    expect(share((r) => r.data.appointmentBooked === true)).toBeGreaterThan(0.1);
    const oldest = Math.min(...rows.map((r) => r.timestamp.getTime()));
    expect(Date.now() - oldest).toBeGreaterThan(60 * DAY_MS);
    expect(Date.now() - oldest).toBeLessThan(95 * DAY_MS);
    const usage = await db.select().from(runtimeUsage).where(eq(runtimeUsage.orgId, O2.id));
    expect(usage).toHaveLength(2000);
  });
});

import * as api from "@switchboard/api";
import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../vitest.time-limits.ts";
import { type TestClient, testClient } from "../../test/api-client.ts";
import { buildTestApp } from "../../test/helpers.ts";
import { accounts, users } from "../db/schema/index.ts";
import { issueSessionToken } from "../modules/auth/sessions.ts";
import { queryRows } from "../modules/logs/sql.ts";
import { DEMO_LOG_ROWS, DEMO_USERS, seedDemoData } from "./seed.ts";

// Issue #23 item 2: the demo data is whole. Every seeded call log row has its room, its conversation and a
// transcript, so Calls -> Transcript and Call stats open for every row.

let app: FastifyInstance;
let client: TestClient;
let owner: string;
let orgId: number;

beforeAll(async () => {
  app = await buildTestApp();
  const { db } = app.context.database;
  expect(await seedDemoData(db)).toBe(true);
  const [user] = await db.select().from(users).where(eq(users.email, DEMO_USERS.owner));
  const [org] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.accountType, "organization"), eq(accounts.username, "bluebird-dental")));
  if (!user || !org) throw new Error("the demo owner and organisation");
  orgId = org.id;
  owner = await issueSessionToken(db, user.id, org.id);
  client = testClient(app);
}, within(60_000));
afterAll(async () => {
  await app.close();
});

describe("the demo organisation's calls", () => {
  it("every seeded log row has its conversation in its room, with messages", async () => {
    const [counts] = await queryRows<{ rows: number; whole: number }>(
      app.context.database,
      `SELECT count(*)::int AS rows,
         count(*) FILTER (WHERE EXISTS (
           SELECT 1 FROM conversations c JOIN rooms r ON r.id = c.room_id
           WHERE c.uuid = l.uuid AND c.room_id = l.room_id AND r.org_id = l.org_id
             AND EXISTS (SELECT 1 FROM conversation_messages m WHERE m.conversation_uuid = c.uuid)
         ))::int AS whole
       FROM conversation_logs l WHERE l.org_id = $1`,
      [orgId],
    );
    expect(counts).toEqual({ rows: DEMO_LOG_ROWS, whole: DEMO_LOG_ROWS });
  });

  it("the owner opens the transcript of every row on the Calls page: the call as the log tells it", async () => {
    const page = await client(owner).call(api.listLogs, { query: { pageSize: 100 } });
    const rows = page.logs;
    expect(rows.length).toBe(100);
    let booked = 0;
    let transferred = 0;
    for (const row of rows) {
      const res = await client(owner)
        .call(api.getConversationTranscript, {
          params: { roomId: String(row.roomId), uuid: String(row.uuid) },
        })
        .catch((error: Error) => {
          throw new Error(`transcript of ${row.uuid}: ${error.message}`);
        });
      const messages = res.conversation;
      expect(messages.length).toBeGreaterThan(0);
      expect(messages[0]?.role).toBe("assistant");
      expect(res.info).toMatchObject({ roomId: row.roomId, uuid: row.uuid, status: "ended" });
      const tools = messages.flatMap((message) => message.toolCalls.map((tool) => tool.name));
      if (row.appointmentBooked === true) {
        booked++;
        expect(tools).toContain("bookAppointment");
      }
      if (row.transfer === "1" || row.transfer === 1) {
        transferred++;
        expect(tools).toContain("transferCall");
      }
      if (Number(row.duration) > 0) {
        expect(messages.some((message) => message.role === "user")).toBe(true);
        expect(messages.map((message) => message.text).join(" ")).toContain(String(row.callerName));
      }
    }
    expect(booked).toBeGreaterThan(0);
    expect(transferred).toBeGreaterThan(0);
  });

  it("the Calls fields have one label each; booked calls carry the appointment time as the agent stores it", async () => {
    const { fields } = await client(owner).call(api.listLogFields);
    const labels = fields.map((field) => field.label.toLowerCase());
    expect(new Set(labels).size).toBe(labels.length);
    const byName = Object.fromEntries(fields.map((field) => [field.name, field]));
    expect(byName.cnam?.label).toBe("Caller ID Name");
    expect(byName.callerName?.label).toBe("Caller Name");
    expect(byName.appointmentTime).toMatchObject({ label: "Appointment Time", type: "date" });
    expect(byName.appointmentDate).toBeUndefined();
    const page = await client(owner).call(api.listLogs, { query: { pageSize: 200 } });
    const booked = page.logs.filter((row) => row.appointmentBooked === true);
    expect(booked.length).toBeGreaterThan(0);
    for (const row of booked)
      expect(row.appointmentTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:[03]0:00-0[78]:00$/);
  });

  it("the calls' rooms are archived history: the inbox opens on the demo texts", async () => {
    const activity = await client(owner).call(api.getActivity, { query: { simple: true } });
    expect(activity.total).toBeLessThanOrEqual(3);
    const inbox = await client(owner).call(api.listConversations);
    expect(inbox.totalRooms).toBe(3);
    const archived = await client(owner).call(api.listConversations, { query: { archived: true } });
    expect(archived.totalRooms).toBe(DEMO_LOG_ROWS);
  });
});

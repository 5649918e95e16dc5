import * as api from "@switchboard/api";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { expectRefusal, testClient } from "../../../test/api-client.ts";
import type { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp, createSharedTestDatabase, testConfig } from "../../../test/helpers.ts";
import { prepareTaskAgent } from "../../../test/task-fixtures.ts";
import { waitFor } from "../../../test/wait-for.ts";
import { buildApp } from "../../app.ts";
import {
  accounts,
  carrierMessages,
  conversationLogs,
  tasks,
  webhookDeliveries,
} from "../../db/schema/index.ts";
import { aiReplyJob } from "../inbox/jobs.ts";

const AGENT_NUMBER = "+15035550123";

function csvForm(text: string, filename = "people.csv") {
  const form = new FormData();
  form.append("csv", new Blob([text], { type: "text/csv" }), filename);
  return form;
}

/** Outbound texts the sandbox carrier delivered, per handset number. */
async function delivered(app: FastifyInstance): Promise<Map<string, string[]>> {
  const rows = await app.context.database.db
    .select({ to: carrierMessages.toAddress, body: carrierMessages.body })
    .from(carrierMessages)
    .where(and(eq(carrierMessages.direction, "outbound"), eq(carrierMessages.fromAddress, AGENT_NUMBER)));
  const map = new Map<string, string[]>();
  for (const row of rows) map.set(row.to, [...(map.get(row.to) ?? []), row.body]);
  return map;
}

async function taskStates(app: FastifyInstance) {
  return app.context.database.db
    .select({ id: tasks.id, state: tasks.state, attempts: tasks.attempts, phone: tasks.phoneNumber })
    .from(tasks);
}

describe("tasks on one server", () => {
  let app: FastifyInstance;
  let world: Awaited<ReturnType<typeof buildHierarchy>>;
  let owner: ReturnType<ReturnType<typeof testClient>>;

  beforeAll(async () => {
    app = await buildTestApp({ OUTBOUND_ALLOWLIST: "127.0.0.1:*" });
    ({ world, owner } = await prepareTaskAgent(app, AGENT_NUMBER, {
      greeting: "Hello from the front desk.",
    }));
  }, within(120_000));
  afterAll(async () => {
    await app.close();
  });

  it("imports a CSV with a bad row: the error names its line, the good rows are texted once", async () => {
    // A webhook endpoint that receives task.completed (nothing listens: the delivery is what is checked).
    await owner.call(api.createWebhook, {
      body: { url: "http://127.0.0.1:9/hooks", type: "task.completed" },
    });
    const csv = [
      "Phone Number,Name,E-mail,Timezone,Appointment",
      "(503) 555-0101,Ann Lee,ann@example.com,America/Los_Angeles,Tuesday 10am",
      "not a number,Bob,,,Wednesday",
      "+1 503 555 0102,Cy Diaz,,,Thursday 3pm",
      "503-555-0103,Dee,dee@,,Friday",
      '"+15035550104","Eve ""E"" Park",,Mars/Olympus,Monday',
    ].join("\n");
    const answer = await owner.call(api.uploadTaskCsv, {
      query: {
        agentId: world.accounts.A1.id,
        channel: "text",
        message: "Hi {name}, see you {appointment}.",
      },
      form: csvForm(csv),
    });
    expect(answer.rows).toBe(5);
    expect(answer.imported).toBe(2);
    expect(answer.errors).toEqual([
      { line: 3, reason: "Not a valid phone number.", value: "not a number" },
      { line: 5, reason: "Not a valid e-mail address.", value: "dee@" },
      { line: 6, reason: "Unknown time zone (use a name like America/New_York).", value: "Mars/Olympus" },
    ]);
    expect(answer.columns).toEqual([
      { header: "Phone Number", field: "phone" },
      { header: "Name", field: "name" },
      { header: "E-mail", field: "email" },
      { header: "Timezone", field: "timeZone" },
      { header: "Appointment", field: "variable" },
    ]);
    expect(answer.list).toMatchObject({ name: "people", rows: 5, errorRows: 3, state: "active" });
    const listId = answer.list?.id as number;

    await app.tasks.idle();
    const texts = await delivered(app);
    expect(texts.get("+15035550101")).toEqual(["Hi Ann Lee, see you Tuesday 10am."]);
    expect(texts.get("+15035550102")).toEqual(["Hi Cy Diaz, see you Thursday 3pm."]);
    expect(texts.size).toBe(2);

    const listed = await owner.call(api.listTasks, { query: { listId, sort: "createdAt", order: "asc" } });
    expect(listed.total).toBe(2);
    expect(listed.tasks.map((t) => [t.phoneNumber, t.state, t.attempts])).toEqual([
      ["+15035550101", "completed", 1],
      ["+15035550102", "completed", 1],
    ]);
    const [first] = listed.tasks;
    expect(first?.variables).toEqual({ Appointment: "Tuesday 10am" });
    expect(first?.timeZone).toBe("America/Los_Angeles");

    // The conversation is in the inbox and the logs: outbound, with the task's id.
    const detail = await owner.call(api.getTask, { params: { id: first?.id as string } });
    expect(detail.task.transcript.map((m) => [m.role, m.text])).toEqual([
      ["assistant", "Hi Ann Lee, see you Tuesday 10am."],
    ]);
    expect(detail.task.history).toEqual([expect.objectContaining({ attempt: 1, error: null })]);
    const [log] = await app.context.database.db
      .select()
      .from(conversationLogs)
      .where(eq(conversationLogs.uuid, detail.task.conversationUuid as string));
    expect(log).toMatchObject({ direction: "outbound", toNumber: "+15035550101" });
    expect(log?.data).toMatchObject({ taskId: first?.id, taskCompleted: true, channel: "sms" });
    const room = await owner.call(api.getConversation, {
      params: { roomId: detail.task.conversationId as string },
    });
    expect("messages" in room && room.messages.map((m) => m.text)).toEqual([
      "Hi Ann Lee, see you Tuesday 10am.",
    ]);

    // task.completed went to the organisation's webhook, once per task.
    const events = await app.context.database.db
      .select({ payload: webhookDeliveries.payload })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.eventType, "task.completed"));
    expect(events.map((e) => (e.payload.data as { taskId: string }).taskId).sort()).toEqual(
      listed.tasks.map((t) => t.id).sort(),
    );

    const stats = await owner.call(api.getTaskStats, { query: { listId } });
    expect(stats.stats).toMatchObject({ total: 2, byState: { completed: 2 } });
    const lists = await owner.call(api.listTaskLists, {});
    expect(lists.lists[0]).toMatchObject({ id: listId, counts: { total: 2, byState: { completed: 2 } } });

    // The organisation's bell says the list finished, once (the realtime pass after the last change).
    const bell = await waitFor(
      () => owner.call(api.listNotifications),
      (answer) => answer.notifications.some((n) => n.kind === "taskFinished"),
    );
    expect(bell.notifications.filter((n) => n.kind === "taskFinished")).toEqual([
      expect.objectContaining({
        title: "Task list “people” finished",
        body: "2 completed, 0 failed of 2.",
        count: 1,
      }),
    ]);
  });

  it("imports nothing from a file that is not valid CSV", async () => {
    const before = (await owner.call(api.listTaskLists, {})).total;
    const refused = await expectRefusal(
      owner.call(api.uploadTaskCsv, {
        query: { agentId: world.accounts.A1.id },
        form: csvForm('phone,name\n+15035550111,"Unclosed\n+15035550112,Ok'),
      }),
      400,
      api.TASK_MESSAGES.malformed,
    );
    expect(refused.body.reason).toEqual(expect.any(String));
    await expectRefusal(
      owner.call(api.uploadTaskCsv, {
        query: { agentId: world.accounts.A1.id },
        form: csvForm("name,city\nAnn,Paris"),
      }),
      400,
      api.TASK_MESSAGES.noPhoneColumn,
    );
    expect((await owner.call(api.listTaskLists, {})).total).toBe(before);
    expect((await delivered(app)).has("+15035550112")).toBe(false);
  });

  it("a malformed line after several inserted batches still imports nothing", async () => {
    const before = (await owner.call(api.listTaskLists, {})).total;
    const tasksBefore = (await taskStates(app)).length;
    // More good rows than two batches (TASK_CSV_BATCH_ROWS), a bad row among them, then an unclosed quote.
    const lines = ["phone,name"];
    // (Numbers with 0171 in them are left out: a later test searches for its own.)
    for (let i = 0; lines.length <= 4500; i++)
      if (!String(i).padStart(4, "0").includes("0171"))
        lines.push(`+1212555${String(i).padStart(4, "0")},Row ${i}`);
    lines.splice(3000, 0, "not a number,Bad");
    const good = `${lines.join("\n")}\n`;
    const refused = await expectRefusal(
      owner.call(api.uploadTaskCsv, {
        query: { agentId: world.accounts.A1.id, scheduledAt: Date.now() + 24 * 3600_000 },
        form: csvForm(`${good}+13125550000,"Unclosed\n`),
      }),
      400,
      api.TASK_MESSAGES.malformed,
    );
    expect(refused.body.line).toBeGreaterThan(4500);
    expect((await owner.call(api.listTaskLists, {})).total).toBe(before);
    expect((await taskStates(app)).length).toBe(tasksBefore);
    // The same rows without the broken last line: all good rows in batches, the bad one reported by line.
    const imported = await owner.call(api.uploadTaskCsv, {
      query: { agentId: world.accounts.A1.id, scheduledAt: Date.now() + 24 * 3600_000 },
      form: csvForm(good),
    });
    expect(imported).toMatchObject({ rows: 4501, imported: 4500, errorCount: 1 });
    expect(imported.errors).toEqual([
      { line: 3001, reason: "Not a valid phone number.", value: "not a number" },
    ]);
    expect(imported.list).toMatchObject({ rows: 4501, errorRows: 1 });
    expect((await taskStates(app)).length).toBe(tasksBefore + 4500);
    await owner.call(api.changeTaskList, {
      params: { listId: imported.list?.id as number },
      body: { action: "cancel" },
    });
  });

  it("a dry run checks the file and maps columns by hand without importing", async () => {
    const answer = await owner.call(api.uploadTaskCsv, {
      query: { agentId: world.accounts.A1.id, dryRun: "true", phoneColumn: "cell", nameColumn: "who" },
      form: csvForm("who,cell,phone\nAnn,+15035550121,office\n"),
    });
    expect(answer.list).toBeNull();
    expect(answer.preview).toEqual([
      expect.objectContaining({ phoneNumber: "+15035550121", name: "Ann", variables: { phone: "office" } }),
    ]);
  });

  it("waits outside calling hours in the person's time zone, and keeps the daily limit", {
    timeout: within(60_000),
  }, async () => {
    const now = new Date();
    // A one-hour window that closed an hour ago (UTC): nothing may run now.
    const h = (n: number) => String((now.getUTCHours() + 24 + n) % 24).padStart(2, "0");
    const start = `${h(-2)}:00`;
    const end = `${h(-1)}:00`;
    if (start < end) {
      await owner.call(api.saveTaskLimits, { body: { callingHoursStart: start, callingHoursEnd: end } });
      const { task } = await owner.call(api.createTask, {
        body: { agentId: world.accounts.A1.id, phoneNumber: "+15035550131", timeZone: "UTC" },
      });
      await app.tasks.idle();
      const waiting = (await owner.call(api.getTask, { params: { id: task.id } })).task;
      expect(waiting.state).toBe("scheduled");
      expect(waiting.attempts).toBe(0);
      expect(waiting.nextAttemptAt).toBeGreaterThan(Date.now() + 20 * 3600_000);
      await owner.call(api.editTask, { params: { id: task.id }, body: { state: "cancelled" } });
    }
    // Room for two more attempts today: two of four tasks run, the other two wait for tomorrow.
    const before = (await owner.call(api.getTaskStats, {})).stats.attemptsToday;
    await owner.call(api.saveTaskLimits, {
      body: { callingHoursStart: "00:00", callingHoursEnd: "23:59", dailyLimit: before + 2 },
    });
    const made: string[] = [];
    for (const n of [41, 42, 43, 44])
      made.push(
        (
          await owner.call(api.createTask, {
            body: { agentId: world.accounts.A1.id, phoneNumber: `+150355501${n}`, message: "Reminder" },
          })
        ).task.id,
      );
    await app.tasks.idle();
    const states = (await taskStates(app)).filter((t) => made.includes(t.id)).map((t) => t.state);
    expect(states.filter((s) => s === "completed")).toHaveLength(2);
    expect(states.filter((s) => s === "queued" || s === "scheduled")).toHaveLength(2);
    expect((await owner.call(api.getTaskStats, {})).stats).toMatchObject({
      attemptsToday: before + 2,
      dailyLimit: before + 2,
    });
    // A higher limit lets the rest run.
    await owner.call(api.saveTaskLimits, { body: { dailyLimit: 1000 } });
    await waitFor(
      () => taskStates(app),
      (rows) => rows.filter((t) => made.includes(t.id)).every((t) => t.state === "completed"),
    );
  });

  it("a paused list waits, a resumed one runs, a cancelled one cancels what has not run", async () => {
    const upload = await owner.call(api.uploadTaskCsv, {
      query: { agentId: world.accounts.A1.id, message: "Paused test", scheduledAt: Date.now() + 60 * 60_000 },
      form: csvForm("phone\n+15035550151\n+15035550152\n"),
    });
    const listId = upload.list?.id as number;
    const paused = await owner.call(api.changeTaskList, { params: { listId }, body: { action: "pause" } });
    expect(paused.list.state).toBe("paused");
    const cancelled = await owner.call(api.changeTaskList, {
      params: { listId },
      body: { action: "cancel" },
    });
    expect(cancelled.list.counts.byState).toEqual({ cancelled: 2 });
    expect((await delivered(app)).has("+15035550151")).toBe(false);
  });

  it("texts without a message: the agent introduces itself and says why, never with its greeting", async () => {
    const { task } = await owner.call(api.createTask, {
      body: {
        agentId: world.accounts.A1.id,
        phoneNumber: "+15035550177",
        variables: { About: "your cleaning on Friday" },
      },
    });
    await app.tasks.idle();
    const name = (account: { details: unknown }) => (account.details as { displayName: string }).displayName;
    const opening = `Hi, this is ${name(world.accounts.A1)} from ${name(world.accounts.O1)}, texting about your cleaning on Friday.`;
    expect((await delivered(app)).get("+15035550177")).toEqual([opening]);
    expect((await owner.call(api.getTask, { params: { id: task.id } })).task.state).toBe("completed");
  });

  it("an opt-out word stops the number's tasks and is answered by no agent; a reply marks the task", {
    timeout: within(60_000),
  }, async () => {
    const phone = testClient(app)(world.members.o1Owner.token);
    const { task } = await owner.call(api.createTask, {
      body: { agentId: world.accounts.A1.id, phoneNumber: "+15035550161", message: "Can we help?" },
    });
    await app.tasks.idle();
    await phone.call(api.sandboxInboundSms, {
      body: { from: "+15035550161", to: AGENT_NUMBER, text: "Yes please" },
    });
    await app.context.jobs.idle([aiReplyJob]);
    await app.tasks.idle();
    expect((await owner.call(api.getTask, { params: { id: task.id } })).task.outcome).toBe("replied");

    // A later task to the number waits; then the person texts STOP.
    const later = await owner.call(api.createTask, {
      body: {
        agentId: world.accounts.A1.id,
        phoneNumber: "+15035550161",
        message: "Second",
        scheduledAt: Date.now() + 3600_000,
      },
    });
    await phone.call(api.sandboxInboundSms, {
      body: { from: "+15035550161", to: AGENT_NUMBER, text: "stop" },
    });
    await app.context.jobs.idle([aiReplyJob]);
    await app.tasks.idle();
    expect((await owner.call(api.getTask, { params: { id: later.task.id } })).task).toMatchObject({
      state: "cancelled",
      outcome: "opted_out",
    });
    await expectRefusal(
      owner.call(api.createTask, { body: { agentId: world.accounts.A1.id, phoneNumber: "+15035550161" } }),
      400,
      api.TASK_MESSAGES.optedOut,
    );
    const handset = await phone.call(api.sandboxHandset, { query: { number: "+15035550161" } });
    // The agent's task text, the reply and the AI's answer to it, then STOP with no answer after it.
    expect(handset.messages.at(-1)).toMatchObject({ direction: "inbound", text: "stop" });
  });

  it("edits, deletes, and refuses what the caller may not do", async () => {
    const { task } = await owner.call(api.createTask, {
      body: {
        agentId: world.accounts.A1.id,
        phoneNumber: "503 555 0171",
        scheduledAt: Date.now() + 3600_000,
        variables: { plan: "gold" },
      },
    });
    expect(task).toMatchObject({ phoneNumber: "+15035550171", state: "scheduled" });
    const edited = await owner.call(api.editTask, {
      params: { id: task.id },
      body: { name: "Gil", variables: {} },
    });
    expect(edited.task).toMatchObject({ name: "Gil", variables: {} });
    const deleted = await owner.call(api.deleteTask, { params: { id: task.id } });
    expect(deleted.task.state).toBe("deleted");
    const listed = await owner.call(api.listTasks, { query: { search: "0171" } });
    expect(listed.total).toBe(0);
    expect(
      (await owner.call(api.listTasks, { query: { state: "deleted" } })).tasks.map((t) => t.id),
    ).toContain(task.id);
    await expectRefusal(
      owner.call(api.createTask, { body: { agentId: world.accounts.A1.id, phoneNumber: "12" } }),
      400,
      api.TASK_MESSAGES.badPhone,
    );
    // Another organisation's owner cannot see the task.
    const other = testClient(app)(world.members.o2Owner.token);
    await expectRefusal(
      other.call(api.getTask, { params: { id: task.id } }),
      404,
      api.TASK_MESSAGES.notFound,
    );
    // The partner turns tasks off for the organisation: the flag gates every call.
    await app.context.database.db
      .update(accounts)
      .set({ settings: { allowTasks: false } })
      .where(eq(accounts.id, world.accounts.O1.id));
    const admin = testClient(app)(world.members.o1Admin.token);
    await expectRefusal(admin.call(api.listTasks, {}), 403);
    await app.context.database.db
      .update(accounts)
      .set({ settings: {} })
      .where(eq(accounts.id, world.accounts.O1.id));
  });
});

describe("nothing lost or doubled", () => {
  const apps: FastifyInstance[] = [];
  const drops: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });
  afterAll(async () => {
    for (const drop of drops) await drop();
  });

  const prepare = (app: FastifyInstance) => prepareTaskAgent(app, AGENT_NUMBER, { maxConcurrent: 3 });

  const numbers = (n: number) => Array.from({ length: n }, (_, i) => `+1503555${String(2000 + i)}`);

  it("a restart in the middle of a list: every row is texted exactly once", {
    timeout: within(120_000),
  }, async () => {
    const shared = await createSharedTestDatabase();
    drops.push(shared.drop);
    const env = { SHUTDOWN_GRACE_MS: "200" };
    const first = await buildApp(testConfig(env), { database: await shared.open() });
    const { world, owner } = await prepare(first);
    const people = numbers(30);
    await owner.call(api.uploadTaskCsv, {
      query: { agentId: world.accounts.A1.id, message: "Hello {phone}" },
      form: csvForm(`phone\n${people.join("\n")}\n`),
    });
    // Stop the server once some rows ran and others did not.
    await waitFor(
      () => taskStates(first),
      (rows) => rows.filter((t) => t.state === "completed").length >= 3,
    );
    await first.close();
    const mid = await (async () => {
      const again = await buildApp(testConfig(env), { database: await shared.open() });
      apps.push(again);
      return again;
    })();
    const rows = await waitFor(
      () => taskStates(mid),
      (list) => list.length === 30 && list.every((t) => t.state === "completed"),
      60_000,
    );
    expect(rows.every((t) => t.state === "completed")).toBe(true);
    const texts = await delivered(mid);
    expect([...texts.keys()].sort()).toEqual([...people].sort());
    for (const number of people) expect(texts.get(number), number).toEqual([`Hello ${number}`]);
    const attempts = await mid.context.database.db.execute(sql`select count(*)::int as n from task_attempts`);
    expect((attempts as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(30);
  });

  it.skipIf(!process.env.DATABASE_URL)(
    "two server instances on one PostgreSQL database run a list together, each row once",
    { timeout: within(120_000) },
    async () => {
      const shared = await createSharedTestDatabase();
      drops.push(shared.drop);
      const a = await buildApp(testConfig(), { database: await shared.open() });
      apps.push(a);
      const { world, owner } = await prepare(a);
      const b = await buildApp(testConfig(), { database: await shared.open() });
      apps.push(b);
      const people = numbers(40);
      const onB = testClient(b)(world.members.o1Owner.token, world.accounts.O1.id);
      await owner.call(api.uploadTaskCsv, {
        query: { agentId: world.accounts.A1.id, message: "Hi from A" },
        form: csvForm(`phone\n${people.slice(0, 20).join("\n")}\n`),
      });
      await onB.call(api.uploadTaskCsv, {
        query: { agentId: world.accounts.A1.id, message: "Hi from B" },
        form: csvForm(`phone\n${people.slice(20).join("\n")}\n`),
      });
      let most = 0;
      const rows = await waitFor(
        async () => {
          const list = await taskStates(a);
          most = Math.max(most, list.filter((t) => t.state === "in_progress").length);
          return list;
        },
        (list) => list.length === 40 && list.every((t) => t.state === "completed"),
        60_000,
      );
      expect(rows.every((t) => t.state === "completed" && t.attempts === 1)).toBe(true);
      // The organisation's concurrency held across both instances.
      expect(most).toBeLessThanOrEqual(3);
      const texts = await delivered(a);
      expect(texts.size).toBe(40);
      for (const number of people) expect(texts.get(number)?.length, number).toBe(1);
    },
  );
});

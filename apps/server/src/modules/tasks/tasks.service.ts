import { randomUUID } from "node:crypto";
import type * as api from "@switchboard/api";
import {
  DEFAULT_TASK_LIMITS,
  MAX_TASK_CSV_BYTES,
  TASK_LIST_QUERY_KEYS,
  TASK_MESSAGES,
  type Task,
  type TaskDetail,
  type TaskLimits,
  type TaskList,
  taskLimitsSchema,
} from "@switchboard/api";
import { dayBoundsIn, isValidTimeZone, normalizePhoneNumber, validCallingHours } from "@switchboard/core";
import { eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import type { Access, AccessResolver, AccountRow } from "../../access/access.ts";
import { ApiError, badRequest, forbidden, notFound } from "../../api-error.ts";
import { type Database, executeRows } from "../../db/client.ts";
import { rooms } from "../../db/schema/index.ts";
import type { BodyOf, QueryOf } from "../../http/routes.ts";
import { agentNameOf } from "../accounts/index.ts";
import type { AgentsService } from "../agents/index.ts";
import type { AgentReplyEvent, InboundEvent } from "../inbox/index.ts";
import type { TaskChannel } from "./channels.ts";
import {
  type CsvImport,
  listNameOf,
  type ParsedTaskRow,
  parseTaskCsv,
  type RefuseRow,
  readUpload,
  streamOf,
} from "./csv-import.ts";
import { shownListState } from "./list-state.ts";
import type { TaskScheduler } from "./scheduler.ts";
import {
  createTasksRepository,
  type NewTask,
  type TaskListRow,
  type TaskRow,
  type TasksRepository,
} from "./tasks.repository.ts";

type Deps = {
  db: Database;
  access: AccessResolver;
  agents: AgentsService;
  scheduler: () => TaskScheduler;
  channels: Record<"call" | "text", TaskChannel>;
  log: FastifyBaseLogger;
  /** Told of import progress (rows read) of an upload. */
  progress?: (orgId: number, rows: number) => void;
  now?: () => number;
};

/** The organisation a call acts on: the target, or the organisation of a target agent account. */
export function organizationIdOf(target: AccountRow): number {
  if (target.accountType === "organization") return target.id;
  if (target.accountType === "agent" && target.organizationId) return target.organizationId;
  throw badRequest(TASK_MESSAGES.noOrganization);
}

const ms = (date: Date | null) => date?.getTime() ?? null;

export function toTask(row: TaskRow, agentName: string | null): Task {
  return {
    id: row.id,
    listId: row.listId,
    agentId: row.agentAccountId,
    agentName,
    channel: row.channel,
    phoneNumber: row.phoneNumber,
    name: row.name,
    email: row.email,
    timeZone: row.timeZone,
    variables: row.variables,
    message: row.message,
    scheduledAt: ms(row.scheduledAt),
    nextAttemptAt: row.state === "queued" || row.state === "scheduled" ? ms(row.nextAttemptAt) : null,
    attempts: row.attempts,
    maxAttempts: row.maxAttempts,
    state: row.state,
    outcome: (row.outcome as Task["outcome"]) ?? null,
    conversationId: row.roomId,
    conversationUuid: row.conversationUuid,
    callId: row.callId,
    answeredBy: row.answeredBy,
    amdDecisionMs: row.amdDecisionMs,
    lastError: row.lastError,
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
    completedAt: ms(row.completedAt),
  };
}

export function createTasksService(deps: Deps) {
  const repo = createTasksRepository(deps.db);
  const now = deps.now ?? Date.now;
  // Realtime lists and counts: set by the module once the hub and the scheduler exist.
  let changed: (orgId: number, listId: number | null) => void = () => {};

  function requireEdit(access: Access) {
    if (!access.permissions.canEditOrg) throw forbidden(TASK_MESSAGES.readOnly);
  }

  async function limitsOf(orgId: number, db: Database = deps.db): Promise<TaskLimits> {
    const stored = await createTasksRepository(db).limits(orgId);
    const merged = { ...DEFAULT_TASK_LIMITS, ...(stored ?? {}) };
    const parsed = taskLimitsSchema.safeParse(merged);
    return parsed.success ? parsed.data : DEFAULT_TASK_LIMITS;
  }

  function checkTimeZone(zone: string | null | undefined) {
    if (zone && !isValidTimeZone(zone)) throw badRequest(TASK_MESSAGES.badTimeZone);
  }

  function checkChannel(channel: "call" | "text") {
    if (!deps.channels[channel].available()) throw badRequest(TASK_MESSAGES.callsUnavailable);
  }

  /** When a new or changed task becomes due, and its state: scheduled when in the future, else queued. */
  function dueOf(scheduledAt: number | null | undefined) {
    const at = now();
    const due = scheduledAt && scheduledAt > at ? scheduledAt : at;
    return { nextAttemptAt: new Date(due), state: due > at ? ("scheduled" as const) : ("queued" as const) };
  }

  async function listRow(access: Access, listId: number): Promise<TaskListRow> {
    const list = await repo.findList(organizationIdOf(access.target), listId);
    if (!list) throw notFound(TASK_MESSAGES.listNotFound);
    return list;
  }

  async function taskOf(access: Access, id: string): Promise<TaskRow> {
    const orgId = organizationIdOf(access.target);
    const task = await repo.findTask(orgId, id);
    // An agent account sees its own tasks only.
    if (!task || (access.target.accountType === "agent" && task.agentAccountId !== access.target.id))
      throw notFound(TASK_MESSAGES.notFound);
    return task;
  }

  async function present(rows: TaskRow[]): Promise<Task[]> {
    const names = await repo.agentNames([...new Set(rows.map((r) => r.agentAccountId))]);
    return rows.map((row) => toTask(row, names.get(row.agentAccountId) ?? null));
  }

  async function presentLists(orgId: number, rows: TaskListRow[]): Promise<TaskList[]> {
    const counts = await repo.listCounts(
      orgId,
      rows.map((r) => r.id),
    );
    const names = await repo.agentNames([...new Set(rows.map((r) => r.agentAccountId))]);
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      agentId: row.agentAccountId,
      agentName: names.get(row.agentAccountId) ?? null,
      channel: row.channel,
      state: shownListState(row.state, counts.get(row.id) ?? { total: 0, byState: {}, byOutcome: {} }),
      source: row.source,
      rows: row.rows,
      errorRows: row.errorRows,
      counts: counts.get(row.id) ?? { total: 0, byState: {}, byOutcome: {} },
      createdAt: row.createdAt.getTime(),
    }));
  }

  async function create(access: Access, body: BodyOf<typeof api.createTask>) {
    requireEdit(access);
    const orgId = organizationIdOf(access.target);
    const { account: agent } = await deps.agents.resolveAgent(access, body.agentId, "canViewTasks");
    checkChannel(body.channel);
    const phone = normalizePhoneNumber(body.phoneNumber);
    if (!phone) throw badRequest(TASK_MESSAGES.badPhone);
    checkTimeZone(body.timeZone);
    if (await repo.isOptedOut(orgId, phone)) throw badRequest(TASK_MESSAGES.optedOut);
    if (body.listId !== undefined) await listRow(access, body.listId);
    const limits = await limitsOf(orgId);
    const task = await deps.db.transaction(async (tx) => {
      const row = await createTasksRepository(tx).insertTask({
        id: randomUUID(),
        orgId,
        listId: body.listId ?? null,
        agentAccountId: agent.id,
        channel: body.channel,
        phoneNumber: phone,
        name: body.name || null,
        email: body.email || null,
        timeZone: body.timeZone || null,
        variables: body.variables,
        message: body.message || null,
        scheduledAt: body.scheduledAt ? new Date(body.scheduledAt) : null,
        maxAttempts: body.channel === "call" ? limits.maxAttempts : 1,
        ...dueOf(body.scheduledAt),
      });
      await deps.scheduler().trigger(orgId, { transaction: tx });
      return row;
    });
    deps.scheduler().wake();
    changed(orgId, task.listId);
    const [answer] = await present([task]);
    return { success: true as const, task: answer as Task };
  }

  async function list(access: Access, query: QueryOf<typeof api.listTasks>) {
    const orgId = organizationIdOf(access.target);
    const variables: Record<string, string> = {};
    const reserved = new Set<string>(TASK_LIST_QUERY_KEYS);
    for (const [key, value] of Object.entries(query)) {
      if (reserved.has(key) || Object.keys(variables).length >= 5) continue;
      // The catalogue's rule: a string value is cut at its first pipe character; empty values are omitted.
      const text = typeof value === "string" ? value.split("|")[0]?.trim() : undefined;
      if (text && key.length <= 100) variables[key] = text.slice(0, 200);
    }
    const { rows, total } = await repo.list(
      {
        orgId,
        state: query.state,
        outcome: query.outcome,
        channel: query.channel,
        listId: query.listId,
        agentId: access.target.accountType === "agent" ? access.target.id : query.agentId,
        search: query.search || undefined,
        variables,
      },
      query.sort,
      query.order,
      query.limit,
      query.offset,
    );
    const names = new Map<number, string | null>();
    for (const row of rows)
      names.set(row.task.agentAccountId, agentNameOf(row.agentDetails, row.agentUsername));
    return {
      success: true as const,
      tasks: rows.map((row) => toTask(row.task, names.get(row.task.agentAccountId) ?? null)),
      total,
    };
  }

  async function get(access: Access, id: string) {
    const task = await taskOf(access, id);
    const history = await repo.attempts(task.id);
    const transcript = task.conversationUuid ? await repo.messageTranscript(task.conversationUuid) : [];
    const [base] = await present([task]);
    const detail: TaskDetail = {
      ...(base as Task),
      history: history.map((a) => ({
        attempt: a.attempt,
        startedAt: a.startedAt.getTime(),
        endedAt: ms(a.endedAt),
        outcome: a.outcome,
        error: a.error,
        conversationUuid: a.conversationUuid,
        callId: a.callId,
        answeredBy: a.answeredBy,
        amdDecisionMs: a.amdDecisionMs,
        durationSeconds: a.durationSeconds,
      })),
      transcript: transcript
        .filter((m) => m.text.trim())
        .map((m) => ({ role: m.role, text: m.text, at: m.createdAt.getTime() })),
    };
    return { success: true as const, task: detail };
  }

  async function edit(access: Access, id: string, body: BodyOf<typeof api.editTask>) {
    requireEdit(access);
    const task = await taskOf(access, id);
    const patch: Partial<NewTask> = {};
    if (body.state === "cancelled") {
      if (task.state !== "queued" && task.state !== "scheduled") throw badRequest(TASK_MESSAGES.notEditable);
      patch.state = "cancelled";
      patch.completedAt = new Date(now());
    } else if (body.state === "queued") {
      if (task.state !== "failed" && task.state !== "cancelled") throw badRequest(TASK_MESSAGES.notEditable);
      if (await repo.isOptedOut(task.orgId, task.phoneNumber)) throw badRequest(TASK_MESSAGES.optedOut);
      Object.assign(patch, dueOf(null), { attempts: 0, outcome: null, lastError: null, completedAt: null });
    }
    const changesPerson =
      body.phoneNumber !== undefined ||
      body.name !== undefined ||
      body.email !== undefined ||
      body.timeZone !== undefined ||
      body.variables !== undefined ||
      body.message !== undefined ||
      body.scheduledAt !== undefined;
    if (changesPerson) {
      const waiting = patch.state === "queued" || task.state === "queued" || task.state === "scheduled";
      if (!waiting || patch.state === "cancelled") throw badRequest(TASK_MESSAGES.notEditable);
      if (body.phoneNumber !== undefined) {
        const phone = normalizePhoneNumber(body.phoneNumber);
        if (!phone) throw badRequest(TASK_MESSAGES.badPhone);
        if (await repo.isOptedOut(task.orgId, phone)) throw badRequest(TASK_MESSAGES.optedOut);
        patch.phoneNumber = phone;
      }
      if (body.name !== undefined) patch.name = body.name || null;
      if (body.email !== undefined) patch.email = body.email || null;
      if (body.timeZone !== undefined) {
        checkTimeZone(body.timeZone);
        patch.timeZone = body.timeZone || null;
      }
      if (body.variables !== undefined) patch.variables = body.variables;
      if (body.message !== undefined) patch.message = body.message || null;
      if (body.scheduledAt !== undefined) {
        patch.scheduledAt = body.scheduledAt === null ? null : new Date(body.scheduledAt);
        Object.assign(patch, dueOf(body.scheduledAt));
      }
    }
    const updated = await deps.db.transaction(async (tx) => {
      // Only while it still waits (or has ended, for a requeue): a dispatch pass may have just taken it.
      const allowed = body.state === "queued" ? ["failed", "cancelled"] : ["queued", "scheduled"];
      const [locked] = await executeRows<{ state: string }>(
        tx,
        sql`select state from tasks where id = ${task.id} for update`,
      );
      const state = locked?.state;
      if (Object.keys(patch).length > 0 && (!state || !allowed.includes(state)))
        throw badRequest(TASK_MESSAGES.notEditable);
      const row =
        Object.keys(patch).length > 0 ? await createTasksRepository(tx).updateTask(task.id, patch) : task;
      if (patch.state !== "cancelled") await deps.scheduler().trigger(task.orgId, { transaction: tx });
      return row ?? task;
    });
    deps.scheduler().wake();
    changed(task.orgId, task.listId);
    const [answer] = await present([updated]);
    return { success: true as const, task: answer as Task };
  }

  async function remove(access: Access, id: string) {
    requireEdit(access);
    const task = await taskOf(access, id);
    if (task.state === "in_progress") throw new ApiError(409, TASK_MESSAGES.notEditable);
    const updated = (await repo.updateTask(task.id, { state: "deleted" })) ?? task;
    changed(task.orgId, task.listId);
    const [answer] = await present([updated]);
    return { success: true as const, task: answer as Task };
  }

  async function stats(access: Access, query: QueryOf<typeof api.getTaskStats>) {
    const orgId = organizationIdOf(access.target);
    const agentId = access.target.accountType === "agent" ? access.target.id : query.agentId;
    const limits = await limitsOf(orgId);
    const counts = await repo.counts({ orgId, listId: query.listId, agentId });
    const day = dayBoundsIn(now(), limits.defaultTimeZone);
    const rates = await repo.callRates(orgId, query.listId);
    return {
      success: true as const,
      stats: {
        ...counts,
        attemptsToday: await repo.attemptsSince(orgId, new Date(day.start)),
        dailyLimit: limits.dailyLimit,
        running: await repo.running(orgId),
        answerRate: rates.calls > 0 ? Math.round((rates.answered / rates.calls) * 1000) / 10 : null,
        bookedPer100Calls: rates.calls > 0 ? Math.round((rates.booked / rates.calls) * 1000) / 10 : null,
      },
    };
  }

  async function getLimits(access: Access) {
    return { success: true as const, limits: await limitsOf(organizationIdOf(access.target)) };
  }

  async function saveLimits(access: Access, body: BodyOf<typeof api.saveTaskLimits>) {
    requireEdit(access);
    const orgId = organizationIdOf(access.target);
    const next: TaskLimits = { ...(await limitsOf(orgId)), ...body };
    if (!validCallingHours({ start: next.callingHoursStart, end: next.callingHoursEnd }))
      throw badRequest(TASK_MESSAGES.badCallingHours);
    checkTimeZone(next.defaultTimeZone);
    next.optOutWords = [...new Set(next.optOutWords.map((w) => w.toUpperCase()))];
    await repo.saveLimits(orgId, next);
    // New limits may let waiting tasks run now.
    await deps.scheduler().trigger(orgId);
    return { success: true as const, limits: next };
  }

  async function upload(access: Access, request: FastifyRequest, query: QueryOf<typeof api.uploadTaskCsv>) {
    if (!query.dryRun) requireEdit(access);
    const orgId = organizationIdOf(access.target);
    const { account: agent } = await deps.agents.resolveAgent(access, query.agentId, "canViewTasks");
    if (!query.dryRun) checkChannel(query.channel);
    if (!request.isMultipart()) throw badRequest(TASK_MESSAGES.notMultipart);
    let part: Awaited<ReturnType<FastifyRequest["file"]>>;
    try {
      part = await request.file({ limits: { fileSize: MAX_TASK_CSV_BYTES, files: 1 } });
    } catch {
      throw badRequest(TASK_MESSAGES.notMultipart);
    }
    if (part?.fieldname !== "csv") {
      part?.file.resume();
      throw badRequest(TASK_MESSAGES.noFile);
    }
    // The file (at most MAX_TASK_CSV_BYTES) is read first: the transaction below never waits on the network.
    const data = await readUpload(part.file);
    const columns = {
      phoneColumn: query.phoneColumn,
      nameColumn: query.nameColumn,
      emailColumn: query.emailColumn,
      timeZoneColumn: query.timeZoneColumn,
      onProgress: (rows: number) => deps.progress?.(orgId, rows),
    };
    const preview: api.RouteResponse<typeof api.uploadTaskCsv>["preview"] = [];
    /** A batch's rows less the numbers that opted out (row errors too); the first good rows as preview. */
    const keep = async (t: TasksRepository, batch: ParsedTaskRow[], refuse: RefuseRow) => {
      const optedOut = await t.optedOutAmong(
        orgId,
        batch.map((row) => row.phoneNumber),
      );
      const good = optedOut.size === 0 ? batch : [];
      if (optedOut.size > 0)
        for (const row of batch) {
          if (!optedOut.has(row.phoneNumber)) good.push(row);
          else refuse(row.line, TASK_MESSAGES.optedOut, row.phoneNumber);
        }
      for (const row of good) {
        if (preview.length >= 5) break;
        preview.push({
          line: row.line,
          phoneNumber: row.phoneNumber,
          name: row.name,
          email: row.email,
          timeZone: row.timeZone,
          variables: row.variables,
        });
      }
      return good;
    };
    const answerOf = (parsed: CsvImport) => ({
      success: true as const,
      rows: parsed.rows,
      errorCount: parsed.errorCount,
      errors: parsed.errors,
      columns: parsed.columns,
      preview,
    });
    if (query.dryRun) {
      const parsed = await parseTaskCsv(streamOf(data), {
        ...columns,
        onBatch: async (batch, refuse) => void (await keep(repo, batch, refuse)),
      });
      return { ...answerOf(parsed), list: null, imported: 0 };
    }
    const limits = await limitsOf(orgId);
    const due = dueOf(query.scheduledAt);
    const name = query.name || listNameOf(part.filename);
    // The list and all its good rows, or nothing: batches of rows are inserted as the file is read, all in
    // one transaction (a malformed line at the end of the file rolls back what came before it).
    const { list, parsed, imported } = await deps.db.transaction(async (tx) => {
      const t = createTasksRepository(tx);
      const created = await t.insertList({
        orgId,
        agentAccountId: agent.id,
        name,
        channel: query.channel,
        source: "csv",
        rows: 0,
        errorRows: 0,
        createdByUserId: access.caller.user.id,
      });
      const stamp = new Date(now());
      let index = 0;
      const parsed = await parseTaskCsv(streamOf(data), {
        ...columns,
        onBatch: async (batch, refuse) => {
          const good = await keep(t, batch, refuse);
          await t.insertListBatch(
            {
              orgId,
              listId: created.id,
              agentAccountId: agent.id,
              channel: query.channel,
              message: query.message || null,
              scheduledAt: query.scheduledAt ? new Date(query.scheduledAt) : null,
              maxAttempts: query.channel === "call" ? limits.maxAttempts : 1,
              ...due,
              // Rows keep the file's order (the dispatcher takes the oldest first).
              first: new Date(stamp.getTime() + index),
              updatedAt: stamp,
            },
            good,
          );
          index += good.length;
        },
      });
      const list = await t.setListRows(orgId, created.id, parsed.rows, parsed.errorCount);
      await deps.scheduler().trigger(orgId, { transaction: tx });
      return { list, parsed, imported: index };
    });
    deps.scheduler().wake();
    changed(orgId, list.id);
    const [presented] = await presentLists(orgId, [list]);
    return { ...answerOf(parsed), list: presented as TaskList, imported };
  }

  async function lists(access: Access, query: QueryOf<typeof api.listTaskLists>) {
    const orgId = organizationIdOf(access.target);
    const { rows, total } = await repo.lists(orgId, query.limit, query.offset);
    return { success: true as const, lists: await presentLists(orgId, rows), total };
  }

  async function changeList(access: Access, listId: number, action: "pause" | "resume" | "cancel") {
    requireEdit(access);
    const list = await listRow(access, listId);
    if (list.state === "cancelled" && action !== "cancel") throw badRequest(TASK_MESSAGES.notEditable);
    const state = action === "pause" ? "paused" : action === "resume" ? "active" : "cancelled";
    const updated = await deps.db.transaction(async (tx) => {
      const t = createTasksRepository(tx);
      const row = await t.setListState(list.orgId, list.id, state);
      if (action === "cancel")
        await t.settlePending({ orgId: list.orgId, listId: list.id }, { state: "cancelled" });
      if (action === "resume") await deps.scheduler().trigger(list.orgId, { transaction: tx });
      return row ?? list;
    });
    deps.scheduler().wake();
    changed(list.orgId, list.id);
    const [presented] = await presentLists(list.orgId, [updated]);
    return { success: true as const, list: presented as TaskList };
  }

  /** An inbound text: an opt-out word stops texts and tasks to the number; else a task's text was answered. */
  async function onInbound(event: InboundEvent) {
    const { room, message } = event;
    if (room.channel !== "sms" || !room.externalAddress || message.role !== "user") return;
    const limits = await limitsOf(room.orgId);
    const word = message.text
      .trim()
      .replace(/[.!]+$/, "")
      .toUpperCase();
    const task = event.conversationUuid
      ? await repo.findTaskByConversation(room.orgId, event.conversationUuid)
      : null;
    if (word && limits.optOutWords.some((w) => w.toUpperCase() === word)) {
      await deps.db.transaction(async (tx) => {
        const t = createTasksRepository(tx);
        await t.optOut(room.orgId, room.externalAddress as string, word);
        await t.settlePending(
          { orgId: room.orgId, phoneNumber: room.externalAddress as string },
          { state: "cancelled", outcome: "opted_out" },
        );
        // No AI answer to an opt-out, now or later, in this conversation.
        await tx.update(rooms).set({ aiAgentEnabled: false }).where(eq(rooms.id, room.id));
      });
      if (task) await deps.scheduler().lateOutcome(task, "opted_out");
      changed(room.orgId, null);
      return;
    }
    if (task) await deps.scheduler().lateOutcome(task, "replied");
  }

  /** The AI agent answered in a task's conversation: it may have booked or transferred. */
  async function onAgentReply(event: AgentReplyEvent) {
    const uuid = event.message.conversationUuid;
    if (!uuid) return;
    const task = await repo.findTaskByConversation(event.room.orgId, uuid);
    if (!task) return;
    const [conversation] = await executeRows<{
      collected: Record<string, unknown>;
      outcome: Record<string, unknown>;
    }>(deps.db, sql`select collected, outcome from conversations where uuid = ${uuid}`);
    if (!conversation) return;
    if (conversation.collected.appointmentBooked === true) await deps.scheduler().lateOutcome(task, "booked");
    else if (conversation.outcome.transferred !== undefined)
      await deps.scheduler().lateOutcome(task, "transferred");
  }

  /** At start: a pass for every organisation with due tasks (work queued while no server ran). */
  async function sweep() {
    const due = await executeRows<{ org_id: number }>(
      deps.db,
      sql`select distinct org_id from tasks where state in ('queued', 'scheduled') and next_attempt_at <= now()`,
    );
    for (const row of due) await deps.scheduler().trigger(Number(row.org_id));
  }

  return {
    limitsOf,
    create,
    list,
    get,
    edit,
    remove,
    stats,
    getLimits,
    saveLimits,
    upload,
    lists,
    changeList,
    onInbound,
    onAgentReply,
    sweep,
    setChanged(listener: (orgId: number, listId: number | null) => void) {
      changed = listener;
    },
  };
}

export type TasksService = ReturnType<typeof createTasksService>;

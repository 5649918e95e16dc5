import { and, asc, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import {
  accounts,
  conversationMessages,
  taskAttempts,
  taskLimits,
  taskLists,
  taskOptOuts,
  tasks,
} from "../../db/schema/index.ts";
import { agentNameOf } from "../accounts/index.ts";

export type TaskRow = typeof tasks.$inferSelect;
export type NewTask = typeof tasks.$inferInsert;
export type TaskListRow = typeof taskLists.$inferSelect;
export type TaskAttemptRow = typeof taskAttempts.$inferSelect;

/** States of a task that waits for the scheduler. */
export const PENDING_STATES = ["queued", "scheduled"] as const;

export type TaskFilter = {
  orgId: number;
  state?: string | undefined;
  outcome?: string | undefined;
  channel?: string | undefined;
  listId?: number | undefined;
  agentId?: number | undefined;
  search?: string | undefined;
  variables?: Record<string, string>;
};

const SORT_COLUMNS = {
  createdAt: tasks.createdAt,
  updatedAt: tasks.updatedAt,
  scheduledAt: tasks.scheduledAt,
  nextAttemptAt: tasks.nextAttemptAt,
  state: tasks.state,
  phoneNumber: tasks.phoneNumber,
  name: tasks.name,
  attempts: tasks.attempts,
} as const;
export type TaskSort = keyof typeof SORT_COLUMNS;

/** Counts by state and outcome of a set of tasks (deleted ones are counted apart and not in the total). */
export type Counts = { total: number; byState: Record<string, number>; byOutcome: Record<string, number> };

function filterSql(filter: TaskFilter): SQL {
  const parts: SQL[] = [eq(tasks.orgId, filter.orgId)];
  if (filter.state) parts.push(eq(tasks.state, filter.state as TaskRow["state"]));
  else parts.push(sql`${tasks.state} <> 'deleted'`);
  if (filter.outcome) parts.push(eq(tasks.outcome, filter.outcome));
  if (filter.channel) parts.push(eq(tasks.channel, filter.channel as TaskRow["channel"]));
  if (filter.listId !== undefined) parts.push(eq(tasks.listId, filter.listId));
  if (filter.agentId !== undefined) parts.push(eq(tasks.agentAccountId, filter.agentId));
  if (filter.search) {
    const like = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    parts.push(
      sql`(${tasks.phoneNumber} ilike ${like} or ${tasks.name} ilike ${like} or ${tasks.email} ilike ${like})`,
    );
  }
  for (const [key, value] of Object.entries(filter.variables ?? {}))
    parts.push(sql`${tasks.variables} ->> ${key} = ${value}`);
  return and(...parts) as SQL;
}

function countsFrom(rows: { state: string; outcome: string | null; n: number }[]): Counts {
  const counts: Counts = { total: 0, byState: {}, byOutcome: {} };
  for (const row of rows) {
    const n = Number(row.n);
    counts.byState[row.state] = (counts.byState[row.state] ?? 0) + n;
    if (row.state === "deleted") continue;
    counts.total += n;
    if (row.outcome) counts.byOutcome[row.outcome] = (counts.byOutcome[row.outcome] ?? 0) + n;
  }
  return counts;
}

export function createTasksRepository(db: Database) {
  return {
    async insertTasks(rows: NewTask[]): Promise<void> {
      // Bounded statements: PostgreSQL takes at most 65,535 parameters (20 columns a row here).
      for (let i = 0; i < rows.length; i += 1000) await db.insert(tasks).values(rows.slice(i, i + 1000));
    },

    /**
     * One batch of an uploaded list's rows as one statement with one parameter (the rows as JSON): what
     * every row shares is given once, ids come from the database, and created_at keeps the file's order
     * (`first` + the row's place, in ms). Light on memory and round trips, whatever the batch's size.
     */
    async insertListBatch(
      shared: Pick<
        NewTask,
        "orgId" | "listId" | "agentAccountId" | "channel" | "message" | "scheduledAt" | "maxAttempts"
      > & { state: "queued" | "scheduled"; nextAttemptAt: Date; updatedAt: Date; first: Date },
      rows: {
        phoneNumber: string;
        name: string | null;
        email: string | null;
        timeZone: string | null;
        variables: Record<string, string>;
      }[],
    ): Promise<void> {
      if (rows.length === 0) return;
      const json = JSON.stringify(
        rows.map((row, i) => ({
          p: row.phoneNumber,
          n: row.name,
          e: row.email,
          z: row.timeZone,
          v: row.variables,
          i,
        })),
      );
      const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);
      await db.execute(sql`
        insert into tasks (id, org_id, list_id, agent_account_id, channel, phone_number, name, email,
          time_zone, variables, message, scheduled_at, max_attempts, state, next_attempt_at, created_at,
          updated_at)
        select gen_random_uuid()::text, ${shared.orgId}::int, ${shared.listId ?? null}::int,
          ${shared.agentAccountId}::int, ${shared.channel}::text, r.p, r.n, r.e, r.z,
          coalesce(r.v, '{}'::jsonb), ${shared.message ?? null}::text,
          ${iso(shared.scheduledAt)}::timestamptz, ${shared.maxAttempts ?? 3}::int, ${shared.state}::text,
          ${iso(shared.nextAttemptAt)}::timestamptz,
          ${iso(shared.first)}::timestamptz + r.i * interval '1 millisecond', ${iso(shared.updatedAt)}::timestamptz
        from jsonb_to_recordset(${json}::jsonb) as r(p text, n text, e text, z text, v jsonb, i int)
      `);
    },

    async insertTask(row: NewTask): Promise<TaskRow> {
      const [inserted] = await db.insert(tasks).values(row).returning();
      if (!inserted) throw new Error("task insert failed");
      return inserted;
    },

    async insertList(values: typeof taskLists.$inferInsert): Promise<TaskListRow> {
      const [row] = await db.insert(taskLists).values(values).returning();
      if (!row) throw new Error("task list insert failed");
      return row;
    },

    /** A list's counts of rows read and rows refused, once its file has been read. */
    async setListRows(orgId: number, id: number, rows: number, errorRows: number): Promise<TaskListRow> {
      const [row] = await db
        .update(taskLists)
        .set({ rows, errorRows })
        .where(and(eq(taskLists.orgId, orgId), eq(taskLists.id, id)))
        .returning();
      if (!row) throw new Error("task list update failed");
      return row;
    },

    async findList(orgId: number, id: number): Promise<TaskListRow | null> {
      const [row] = await db
        .select()
        .from(taskLists)
        .where(and(eq(taskLists.orgId, orgId), eq(taskLists.id, id)));
      return row ?? null;
    },

    async lists(orgId: number, limit: number, offset: number) {
      const rows = await db
        .select()
        .from(taskLists)
        .where(eq(taskLists.orgId, orgId))
        .orderBy(desc(taskLists.id))
        .limit(limit)
        .offset(offset);
      const [total] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(taskLists)
        .where(eq(taskLists.orgId, orgId));
      return { rows, total: Number(total?.n ?? 0) };
    },

    async setListState(orgId: number, id: number, state: TaskListRow["state"]): Promise<TaskListRow | null> {
      const [row] = await db
        .update(taskLists)
        .set({ state, updatedAt: new Date() })
        .where(and(eq(taskLists.orgId, orgId), eq(taskLists.id, id)))
        .returning();
      return row ?? null;
    },

    /** Counts by state and outcome per list (one statement for all the lists given). */
    async listCounts(orgId: number, listIds: number[]): Promise<Map<number, Counts>> {
      const result = new Map<number, Counts>();
      if (listIds.length === 0) return result;
      const rows = await db
        .select({
          listId: tasks.listId,
          state: tasks.state,
          outcome: tasks.outcome,
          n: sql<number>`count(*)::int`,
        })
        .from(tasks)
        .where(and(eq(tasks.orgId, orgId), inArray(tasks.listId, listIds)))
        .groupBy(tasks.listId, tasks.state, tasks.outcome);
      for (const id of listIds)
        result.set(
          id,
          countsFrom(rows.filter((row) => row.listId === id) as Parameters<typeof countsFrom>[0]),
        );
      return result;
    },

    async counts(filter: TaskFilter): Promise<Counts> {
      const { state: _state, ...rest } = filter;
      const rows = await db
        .select({ state: tasks.state, outcome: tasks.outcome, n: sql<number>`count(*)::int` })
        .from(tasks)
        .where(
          and(
            eq(tasks.orgId, rest.orgId),
            ...(rest.listId !== undefined ? [eq(tasks.listId, rest.listId)] : []),
            ...(rest.agentId !== undefined ? [eq(tasks.agentAccountId, rest.agentId)] : []),
          ),
        )
        .groupBy(tasks.state, tasks.outcome);
      return countsFrom(rows);
    },

    async list(filter: TaskFilter, sort: TaskSort, order: "asc" | "desc", limit: number, offset: number) {
      const column = SORT_COLUMNS[sort];
      const where = filterSql(filter);
      const rows = await db
        .select({ task: tasks, agentDetails: accounts.details, agentUsername: accounts.username })
        .from(tasks)
        .leftJoin(accounts, eq(accounts.id, tasks.agentAccountId))
        .where(where)
        .orderBy(
          order === "asc" ? asc(column) : desc(column),
          order === "asc" ? asc(tasks.id) : desc(tasks.id),
        )
        .limit(limit)
        .offset(offset);
      const [total] = await db.select({ n: sql<number>`count(*)::int` }).from(tasks).where(where);
      return { rows, total: Number(total?.n ?? 0) };
    },

    async findTask(orgId: number, id: string): Promise<TaskRow | null> {
      const [row] = await db
        .select()
        .from(tasks)
        .where(and(eq(tasks.orgId, orgId), eq(tasks.id, id)));
      return row ?? null;
    },

    async findTaskById(id: string): Promise<TaskRow | null> {
      const [row] = await db.select().from(tasks).where(eq(tasks.id, id));
      return row ?? null;
    },

    async findTaskByConversation(orgId: number, conversationUuid: string): Promise<TaskRow | null> {
      const [row] = await db
        .select()
        .from(tasks)
        .where(and(eq(tasks.orgId, orgId), eq(tasks.conversationUuid, conversationUuid)))
        .limit(1);
      return row ?? null;
    },

    async updateTask(id: string, patch: Partial<NewTask>): Promise<TaskRow | null> {
      const [row] = await db
        .update(tasks)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(tasks.id, id))
        .returning();
      return row ?? null;
    },

    /** Moves the waiting tasks of a list (or of a number) to `state`; answers how many. */
    async settlePending(
      where: { orgId: number; listId?: number; phoneNumber?: string },
      patch: { state: "cancelled"; outcome?: string | null; lastError?: string | null },
    ): Promise<number> {
      const rows = await db
        .update(tasks)
        .set({ ...patch, updatedAt: new Date(), completedAt: new Date() })
        .where(
          and(
            eq(tasks.orgId, where.orgId),
            inArray(tasks.state, [...PENDING_STATES]),
            ...(where.listId !== undefined ? [eq(tasks.listId, where.listId)] : []),
            ...(where.phoneNumber !== undefined ? [eq(tasks.phoneNumber, where.phoneNumber)] : []),
          ),
        )
        .returning({ id: tasks.id });
      return rows.length;
    },

    async attempts(taskId: string): Promise<TaskAttemptRow[]> {
      return db
        .select()
        .from(taskAttempts)
        .where(eq(taskAttempts.taskId, taskId))
        .orderBy(asc(taskAttempts.attempt));
    },

    async findAttempt(taskId: string, attempt: number): Promise<TaskAttemptRow | null> {
      const [row] = await db
        .select()
        .from(taskAttempts)
        .where(and(eq(taskAttempts.taskId, taskId), eq(taskAttempts.attempt, attempt)));
      return row ?? null;
    },

    async insertAttempt(values: typeof taskAttempts.$inferInsert): Promise<void> {
      await db.insert(taskAttempts).values(values);
    },

    async updateAttempt(
      taskId: string,
      attempt: number,
      patch: Partial<typeof taskAttempts.$inferInsert>,
    ): Promise<void> {
      await db
        .update(taskAttempts)
        .set(patch)
        .where(and(eq(taskAttempts.taskId, taskId), eq(taskAttempts.attempt, attempt)));
    },

    /**
     * Marks that a text attempt begins handing its message to the carrier: true for the first run of the
     * attempt to get here, false for a re-run (its server died after the mark; the carrier may have it).
     */
    async startSend(taskId: string, attempt: number): Promise<boolean> {
      const rows = await db
        .update(taskAttempts)
        .set({ sendStartedAt: sql`now()` })
        .where(
          and(
            eq(taskAttempts.taskId, taskId),
            eq(taskAttempts.attempt, attempt),
            sql`${taskAttempts.sendStartedAt} is null`,
          ),
        )
        .returning({ id: taskAttempts.id });
      return rows.length > 0;
    },

    /** A task text's stored message: what it says and whether the carrier took it. */
    async findTextMessage(messageId: number) {
      const [row] = await db
        .select({
          text: conversationMessages.text,
          deliveryStatus: conversationMessages.deliveryStatus,
          carrierMessageId: conversationMessages.carrierMessageId,
        })
        .from(conversationMessages)
        .where(eq(conversationMessages.id, messageId));
      return row ?? null;
    },

    async attemptsSince(orgId: number, since: Date): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(taskAttempts)
        .where(and(eq(taskAttempts.orgId, orgId), sql`${taskAttempts.startedAt} >= ${since.toISOString()}`));
      return Number(row?.n ?? 0);
    },

    async running(orgId: number): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(tasks)
        .where(and(eq(tasks.orgId, orgId), eq(tasks.state, "in_progress")));
      return Number(row?.n ?? 0);
    },

    /** Ended call attempts of the organisation's tasks: answered ones and ones with a booking. */
    async callRates(orgId: number, listId?: number) {
      const [row] = await db
        .select({
          calls: sql<number>`count(*) filter (where ${taskAttempts.outcome} is not null)::int`,
          answered: sql<number>`count(*) filter (where ${taskAttempts.outcome} in ('answered', 'booked', 'transferred'))::int`,
          booked: sql<number>`count(*) filter (where ${taskAttempts.outcome} = 'booked')::int`,
        })
        .from(taskAttempts)
        .innerJoin(tasks, eq(tasks.id, taskAttempts.taskId))
        .where(
          and(
            eq(taskAttempts.orgId, orgId),
            eq(tasks.channel, "call"),
            ...(listId !== undefined ? [eq(tasks.listId, listId)] : []),
          ),
        );
      return {
        calls: Number(row?.calls ?? 0),
        answered: Number(row?.answered ?? 0),
        booked: Number(row?.booked ?? 0),
      };
    },

    async limits(orgId: number): Promise<Record<string, unknown> | null> {
      const [row] = await db.select().from(taskLimits).where(eq(taskLimits.orgId, orgId));
      return row?.limits ?? null;
    },

    async saveLimits(orgId: number, limits: Record<string, unknown>): Promise<void> {
      await db
        .insert(taskLimits)
        .values({ orgId, limits })
        .onConflictDoUpdate({ target: taskLimits.orgId, set: { limits, updatedAt: new Date() } });
    },

    async isOptedOut(orgId: number, phoneNumber: string): Promise<boolean> {
      const [row] = await db
        .select({ n: sql<number>`1` })
        .from(taskOptOuts)
        .where(and(eq(taskOptOuts.orgId, orgId), eq(taskOptOuts.phoneNumber, phoneNumber)));
      return row !== undefined;
    },

    async optedOutAmong(orgId: number, numbers: string[]): Promise<Set<string>> {
      if (numbers.length === 0) return new Set();
      const found = new Set<string>();
      for (let i = 0; i < numbers.length; i += 5000) {
        const rows = await db
          .select({ phoneNumber: taskOptOuts.phoneNumber })
          .from(taskOptOuts)
          .where(
            and(eq(taskOptOuts.orgId, orgId), inArray(taskOptOuts.phoneNumber, numbers.slice(i, i + 5000))),
          );
        for (const row of rows) found.add(row.phoneNumber);
      }
      return found;
    },

    async optOut(orgId: number, phoneNumber: string, word: string): Promise<void> {
      await db.insert(taskOptOuts).values({ orgId, phoneNumber, word }).onConflictDoNothing();
    },

    async messageTranscript(conversationUuid: string) {
      return db
        .select({
          role: conversationMessages.role,
          text: conversationMessages.text,
          createdAt: conversationMessages.createdAt,
        })
        .from(conversationMessages)
        .where(eq(conversationMessages.conversationUuid, conversationUuid))
        .orderBy(asc(conversationMessages.id))
        .limit(500);
    },

    async agentNames(ids: number[]): Promise<Map<number, string>> {
      const map = new Map<number, string>();
      if (ids.length === 0) return map;
      const rows = await db
        .select({ id: accounts.id, details: accounts.details, username: accounts.username })
        .from(accounts)
        .where(inArray(accounts.id, ids));
      for (const row of rows) map.set(row.id, agentNameOf(row.details, row.username) ?? row.username);
      return map;
    },
  };
}

export type TasksRepository = ReturnType<typeof createTasksRepository>;

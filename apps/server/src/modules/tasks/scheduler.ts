import type { TaskLimits, TaskOutcome } from "@switchboard/api";
import { dayBoundsIn, nextCallingTime } from "@switchboard/core";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { AccessResolver } from "../../access/access.ts";
import { type Database, executeRows } from "../../db/client.ts";
import type { JobAttempt } from "../../jobs/job.ts";
import type { JobRunner } from "../../jobs/runner.ts";
import type { WebhookEvents } from "../webhooks/index.ts";
import { type ChannelResult, type TaskChannel, taskValues } from "./channels.ts";
import { dispatchTasksJob, runTaskJob } from "./jobs.ts";
import { createTasksRepository, type TaskRow } from "./tasks.repository.ts";

/** Namespace of the organisations' advisory locks (the dispatch pass of one organisation at a time). */
const DISPATCH_LOCK = 74_171;
/** Most candidate rows one dispatch statement reads. */
const CANDIDATE_BATCH = 200;

/**
 * Outcomes that come after a task ran (the person replied, booked, was transferred, opted out): a later one
 * replaces an earlier one only when it ranks higher.
 */
const LATE_OUTCOME_RANK: Partial<Record<TaskOutcome, number>> = {
  replied: 1,
  answered: 1,
  transferred: 2,
  booked: 3,
  opted_out: 4,
};

export type SchedulerDeps = {
  db: Database;
  jobs: JobRunner;
  access: AccessResolver;
  channels: Record<"call" | "text", TaskChannel>;
  limitsOf: (orgId: number, db?: Database) => Promise<TaskLimits>;
  webhooks?: WebhookEvents;
  /** Told when an organisation's tasks changed (realtime lists and counts). */
  changed: (orgId: number, listId: number | null) => void;
  log: FastifyBaseLogger;
  now?: () => number;
};

type Candidate = { id: string; time_zone: string | null; phone_number: string; list_id: number | null };

/**
 * The scheduler on the job runner: dispatch passes claim due tasks per organisation within its limits, run
 * jobs carry out one attempt each through the task's channel, and keep what came of it.
 */
export function createTaskScheduler(deps: SchedulerDeps) {
  const now = deps.now ?? Date.now;
  const repo = createTasksRepository(deps.db);

  /** Queues a dispatch pass of the organisation now (or at `at`), in `transaction` when given. */
  async function trigger(orgId: number, options: { at?: number; transaction?: Database } = {}) {
    const at = options.at ? Math.ceil(options.at / 1000) * 1000 : 0;
    await deps.jobs.send(
      dispatchTasksJob,
      { orgId, at },
      {
        ...(options.transaction ? { transaction: options.transaction } : {}),
        ...(at > 0 ? { startAfter: new Date(at) } : {}),
      },
    );
  }

  function wake() {
    deps.jobs.wake(dispatchTasksJob);
    deps.jobs.wake(runTaskJob);
  }

  /** One dispatch pass over an organisation (the `tasks-dispatch` job). */
  async function dispatch(orgId: number): Promise<void> {
    const limits = await deps.limitsOf(orgId);
    const claimed = await deps.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${DISPATCH_LOCK}, ${orgId})`);
      const t = createTasksRepository(tx);
      const at = now();
      const day = dayBoundsIn(at, limits.defaultTimeZone);
      const running = await t.running(orgId);
      const today = await t.attemptsSince(orgId, new Date(day.start));
      let slots = Math.min(limits.maxConcurrent - running, limits.dailyLimit - today);
      const lists = new Set<number | null>();
      let count = 0;
      const hours = { start: limits.callingHoursStart, end: limits.callingHoursEnd };
      for (let pass = 0; slots > 0 && pass < 50; pass++) {
        const candidates = await executeRows<Candidate>(
          tx,
          sql`
          select t.id, t.time_zone, t.phone_number, t.list_id from tasks t
          left join task_lists l on l.id = t.list_id
          where t.org_id = ${orgId} and t.state in ('queued', 'scheduled')
            and t.next_attempt_at <= ${new Date(at).toISOString()}
            and (t.list_id is null or l.state = 'active')
          order by t.next_attempt_at, t.created_at, t.id
          limit ${Math.min(CANDIDATE_BATCH, Math.max(slots * 4, 20))}
          for update of t skip locked`,
        );
        if (candidates.length === 0) break;
        const optedOut = await t.optedOutAmong(
          orgId,
          candidates.map((c) => c.phone_number),
        );
        for (const candidate of candidates) {
          if (optedOut.has(candidate.phone_number)) {
            await t.updateTask(candidate.id, {
              state: "cancelled",
              outcome: "opted_out",
              completedAt: new Date(at),
            });
            lists.add(candidate.list_id);
            continue;
          }
          const zone = candidate.time_zone ?? limits.defaultTimeZone;
          const opens = nextCallingTime(at, zone, hours);
          if (opens > at) {
            // Outside the person's calling hours: waits for the next opening.
            await t.updateTask(candidate.id, { state: "scheduled", nextAttemptAt: new Date(opens) });
            lists.add(candidate.list_id);
            continue;
          }
          if (slots <= 0) break;
          const [task] = await executeRows<{ attempts: number }>(
            tx,
            sql`update tasks set state = 'in_progress', attempts = attempts + 1, updated_at = now()
              where id = ${candidate.id} returning attempts`,
          );
          if (!task) continue;
          await t.insertAttempt({
            orgId,
            taskId: candidate.id,
            attempt: task.attempts,
            startedAt: new Date(at),
          });
          await deps.jobs.send(
            runTaskJob,
            { taskId: candidate.id, attempt: task.attempts },
            { transaction: tx },
          );
          slots--;
          count++;
          lists.add(candidate.list_id);
        }
      }
      // The next pass: when the next waiting task is due (a scheduled time, calling hours, a retry), or the
      // next day when the daily limit stops the organisation. Runs that end trigger passes of their own.
      const [next] = await executeRows<{ next: string | Date | null }>(
        tx,
        sql`select min(t.next_attempt_at) as next from tasks t left join task_lists l on l.id = t.list_id
          where t.org_id = ${orgId} and t.state in ('queued', 'scheduled') and (t.list_id is null or l.state = 'active')`,
      );
      const nextRaw = next?.next ?? null;
      const nextAt = nextRaw === null ? null : new Date(nextRaw).getTime();
      if (nextAt !== null) {
        if (today + count >= limits.dailyLimit)
          await trigger(orgId, { at: Math.max(day.end, nextAt), transaction: tx });
        else if (nextAt > at) await trigger(orgId, { at: nextAt, transaction: tx });
      }
      return { count, lists };
    });
    if (claimed.count > 0 || claimed.lists.size > 0) {
      wake();
      for (const listId of claimed.lists) deps.changed(orgId, listId);
    }
  }

  /** One attempt of one task (the `tasks-run` job). */
  async function run(payload: { taskId: string; attempt: number }, job: JobAttempt): Promise<void> {
    const task = await repo.findTaskById(payload.taskId);
    // Stale or repeated: the task moved on (ended, cancelled, deleted, or a later attempt).
    if (task?.state !== "in_progress" || task.attempts !== payload.attempt) return;
    const attempt = await repo.findAttempt(task.id, payload.attempt);
    if (!attempt || attempt.endedAt) return;
    const agent = await deps.access.loadAccount(task.agentAccountId);
    const organization = await deps.access.loadAccount(task.orgId);
    let result: ChannelResult;
    try {
      if (!agent || !organization)
        result = { result: "failed", outcome: "failed", error: "The agent no longer exists." };
      else {
        const channel = deps.channels[task.channel];
        result = await channel.run({
          task,
          attempt,
          agent,
          organization,
          limits: await deps.limitsOf(task.orgId),
          values: taskValues(task),
          signal: job.signal,
          remember: (patch, tx) => createTasksRepository(tx).updateAttempt(task.id, attempt.attempt, patch),
          startSend: () => repo.startSend(task.id, attempt.attempt),
        });
      }
    } catch (error) {
      // Aborted (the server stops) or failed: retried by the job runner; on its last attempt the task fails.
      if (!job.finalAttempt || job.signal.aborted) throw error;
      deps.log.error({ err: error, taskId: task.id }, "task attempt failed");
      result = {
        result: "failed",
        outcome: "failed",
        error: error instanceof Error ? error.message : "The task could not run.",
      };
    }
    await finish(task, attempt.attempt, result);
  }

  /** Keeps what an attempt came to and moves the task on, in one transaction with the next dispatch. */
  async function finish(task: TaskRow, attemptNumber: number, result: ChannelResult) {
    const at = now();
    const limits = await deps.limitsOf(task.orgId);
    const retry = result.result === "retry" && task.attempts < task.maxAttempts;
    const final = !retry;
    const state = retry ? "scheduled" : result.result === "retry" ? "failed" : result.result;
    const updated = await deps.db.transaction(async (tx) => {
      const t = createTasksRepository(tx);
      await t.updateAttempt(task.id, attemptNumber, {
        endedAt: new Date(at),
        outcome: result.outcome,
        error: result.error ?? null,
        ...(result.roomId ? { roomId: result.roomId } : {}),
        ...(result.conversationUuid ? { conversationUuid: result.conversationUuid } : {}),
        ...(result.callId ? { callId: result.callId } : {}),
        answeredBy: result.answeredBy ?? null,
        amdDecisionMs: result.amdDecisionMs ?? null,
        durationSeconds: result.durationSeconds ?? null,
      });
      const row = await t.updateTask(task.id, {
        state,
        outcome: result.outcome,
        lastError: result.error ?? null,
        ...(result.roomId ? { roomId: result.roomId } : {}),
        ...(result.conversationUuid ? { conversationUuid: result.conversationUuid } : {}),
        ...(result.callId ? { callId: result.callId } : {}),
        ...(result.answeredBy !== undefined ? { answeredBy: result.answeredBy } : {}),
        ...(result.amdDecisionMs !== undefined ? { amdDecisionMs: result.amdDecisionMs } : {}),
        ...(retry
          ? { nextAttemptAt: new Date(at + limits.retryDelayMinutes * 60_000) }
          : { completedAt: new Date(at) }),
      });
      if (result.conversationUuid)
        await markConversation(tx, result.conversationUuid, {
          taskId: task.id,
          taskOutcome: result.outcome,
          ...(state === "completed" ? { taskCompleted: true } : {}),
          ...(task.channel === "call" ? taskCallMarks(result.outcome) : {}),
        });
      if (final && row) await emitEnded(row, tx);
      await trigger(task.orgId, { transaction: tx });
      return row;
    });
    wake();
    deps.webhooks?.wake();
    deps.changed(task.orgId, updated?.listId ?? task.listId);
  }

  /** task.completed for a task that ended (completed or failed). */
  async function emitEnded(row: TaskRow, tx: Database) {
    await deps.webhooks?.emit(
      row.orgId,
      "task.completed",
      {
        taskId: row.id,
        agentId: row.agentAccountId,
        name: row.name,
        result: {
          state: row.state,
          outcome: row.outcome,
          channel: row.channel,
          phoneNumber: row.phoneNumber,
          attempts: row.attempts,
          listId: row.listId,
          conversationId: row.roomId,
          conversationUuid: row.conversationUuid,
          callId: row.callId,
          variables: row.variables,
        },
        completedAt: (row.completedAt ?? new Date()).getTime(),
      },
      { transaction: tx },
    );
  }

  /**
   * A later outcome of a task that ran (the person replied, booked, was transferred, opted out): kept when it
   * ranks above the task's current one, on the task and on its conversation's log row.
   */
  async function lateOutcome(task: TaskRow, outcome: TaskOutcome): Promise<boolean> {
    const current = (task.outcome as TaskOutcome | null) ?? null;
    if (current && (LATE_OUTCOME_RANK[current] ?? 0) >= (LATE_OUTCOME_RANK[outcome] ?? 0)) return false;
    await deps.db.transaction(async (tx) => {
      await createTasksRepository(tx).updateTask(task.id, { outcome });
      if (task.conversationUuid)
        await markConversation(tx, task.conversationUuid, {
          taskOutcome: outcome,
          ...(task.channel === "call" ? taskCallMarks(outcome) : {}),
        });
    });
    deps.changed(task.orgId, task.listId);
    return true;
  }

  return { trigger, wake, dispatch, run, finish, lateOutcome };
}

/** The log fields the tasks' dashboard metrics read on a call task's conversation. */
function taskCallMarks(outcome: string | null): Record<string, number> {
  if (outcome === null) return {};
  const answered = outcome === "answered" || outcome === "booked" || outcome === "transferred";
  return { taskCall: 1, taskAnswered: answered ? 1 : 0, taskBooked: outcome === "booked" ? 1 : 0 };
}

/**
 * Adds the task's fields to a conversation's collected data (which every later turn copies into its log
 * row) and to its log row now.
 */
export async function markConversation(tx: Database, uuid: string, marks: Record<string, unknown>) {
  const json = JSON.stringify(marks);
  await tx.execute(
    sql`update conversations set collected = collected || ${json}::jsonb where uuid = ${uuid}`,
  );
  await tx.execute(
    sql`update conversation_logs set data = data || ${json}::jsonb, updated_at = now() where uuid = ${uuid}`,
  );
}

export type TaskScheduler = ReturnType<typeof createTaskScheduler>;

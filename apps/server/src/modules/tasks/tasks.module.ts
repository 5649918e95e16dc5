import { eq, sql } from "drizzle-orm";
import type { AppContext } from "../../app-context.ts";
import { executeRows } from "../../db/client.ts";
import { outboundCalls } from "../../db/schema/index.ts";
import { JOB_SCHEMA } from "../../jobs/schema.ts";
import type { RealtimeHub } from "../../realtime/realtime-hub.ts";
import type { AgentsService } from "../agents/index.ts";
import type { InboxService } from "../inbox/index.ts";
import type { WebhookEvents } from "../webhooks/index.ts";
import { callChannel, type OutboundCallsPort, textChannel, unavailableCallChannel } from "./channels.ts";
import { dispatchTasksJob, runTaskJob } from "./jobs.ts";
import { listHasFinished } from "./list-state.ts";
import { createTaskScheduler, type TaskScheduler } from "./scheduler.ts";
import { type Counts, createTasksRepository } from "./tasks.repository.ts";
import { tasksRoutes } from "./tasks.routes.ts";
import { createTasksService } from "./tasks.service.ts";

export type FinishedList = { listId: number; name: string; counts: Counts };

/** Realtime task events of one organisation at most this often (a list running sends many changes). */
const REALTIME_INTERVAL_MS = 500;

/**
 * Tasks: outbound calls and texts from lists. The service (CRUD, CSV import, limits, stats), the scheduler
 * (dispatch passes and run jobs on the job runner) and the channels it runs tasks through: texts through
 * the inbox's SMS path; calls through the numbers module's outbound calls.
 */
export function createTasksModule(
  context: AppContext,
  deps: {
    agents: AgentsService;
    inbox: InboxService;
    realtime: RealtimeHub;
    webhooks?: WebhookEvents;
    /** The numbers module's outbound calls: call tasks go through it (without it they are refused). */
    outbound?: OutboundCallsPort;
    /** Told of each list that finished: nothing left to run after a change (may repeat: it dedupes). */
    listFinished?: (orgId: number, list: FinishedList) => Promise<void>;
    now?: () => number;
  },
) {
  const channels = {
    text: textChannel({
      inbox: deps.inbox,
      agents: deps.agents,
      sms: context.sms,
      findMessage: (messageId) => createTasksRepository(context.database.db).findTextMessage(messageId),
    }),
    call: deps.outbound
      ? callChannel({
          outbound: deps.outbound,
          db: context.database.db,
          findCall: async (callId) => {
            const [row] = await context.database.db
              .select({ status: outboundCalls.status, outcome: outboundCalls.outcome })
              .from(outboundCalls)
              .where(eq(outboundCalls.id, callId));
            return row ?? null;
          },
        })
      : unavailableCallChannel(),
  };
  let scheduler: TaskScheduler | null = null;
  const repo = createTasksRepository(context.database.db);
  /** Lists that changed and now have nothing queued, scheduled or running (cancelled lists aside). */
  const announceFinished = async (orgId: number, listIds: number[]) => {
    const { listFinished } = deps;
    if (!listFinished || listIds.length === 0) return;
    for (const [listId, counts] of await repo.listCounts(orgId, listIds)) {
      if (!listHasFinished(counts)) continue;
      const list = await repo.findList(orgId, listId);
      if (!list || list.state === "cancelled") continue;
      await listFinished(orgId, { listId, name: list.name, counts });
    }
  };
  const pending = new Map<number, Set<number | null>>();
  const timers = new Map<number, NodeJS.Timeout>();
  const publish = (orgId: number) => {
    timers.delete(orgId);
    const lists = pending.get(orgId) ?? new Set([null]);
    pending.delete(orgId);
    const listId = lists.size === 1 ? ([...lists][0] ?? null) : null;
    void deps.realtime.publish({ orgId, agentId: null, event: { type: "tasks", listId } });
    void announceFinished(
      orgId,
      [...lists].filter((id): id is number => id !== null),
    ).catch((error) => context.log.warn({ err: error, orgId }, "could not check for finished task lists"));
  };
  const changed = (orgId: number, listId: number | null) => {
    let lists = pending.get(orgId);
    if (!lists) {
      lists = new Set();
      pending.set(orgId, lists);
    }
    lists.add(listId);
    if (!timers.has(orgId))
      timers.set(
        orgId,
        setTimeout(() => publish(orgId), REALTIME_INTERVAL_MS),
      );
  };
  const service = createTasksService({
    db: context.database.db,
    access: context.access,
    agents: deps.agents,
    scheduler: () => scheduler as TaskScheduler,
    channels,
    log: context.log,
    ...(deps.now ? { now: deps.now } : {}),
  });
  service.setChanged(changed);
  scheduler = createTaskScheduler({
    db: context.database.db,
    jobs: context.jobs,
    access: context.access,
    channels,
    limitsOf: (orgId, db) => service.limitsOf(orgId, db),
    changed,
    log: context.log,
    ...(deps.webhooks ? { webhooks: deps.webhooks } : {}),
    ...(deps.now ? { now: deps.now } : {}),
  });
  const running = scheduler;
  context.jobs.register(dispatchTasksJob, (payload) => running.dispatch(payload.orgId));
  context.jobs.register(runTaskJob, (payload, attempt) => running.run(payload, attempt));
  deps.inbox.onInbound((event) => service.onInbound(event));
  deps.inbox.onAgentReply((event) => service.onAgentReply(event));
  return {
    tasks: service,
    scheduler: running,
    routes: tasksRoutes(service),
    /** After the job runner started: a pass for organisations whose tasks came due while no server ran. */
    start: () => service.sweep(),
    /**
     * Resolves when no dispatch or run is due or running on any instance (tests and benchmarks); passes
     * queued for later (the next calling hours, a retry) do not count.
     */
    async idle(timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const [result] = await executeRows<{ n: number }>(
          context.database.db,
          sql.raw(`select count(*)::int as n from ${JOB_SCHEMA}.job
            where name in ('${dispatchTasksJob.name}', '${runTaskJob.name}')
              and (state = 'active' or (state in ('created', 'retry') and start_after <= now()))`),
        );
        const busy = Number(result?.n ?? 0);
        if (busy === 0) return;
        if (Date.now() > until) throw new Error(`Tasks still running after ${timeoutMs} ms`);
        context.jobs.wake(dispatchTasksJob);
        context.jobs.wake(runTaskJob);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async stop() {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}

export type TasksModule = ReturnType<typeof createTasksModule>;

declare module "fastify" {
  interface FastifyInstance {
    /** Outbound tasks: tests wait for the scheduler here. */
    tasks: TasksModule;
  }
}

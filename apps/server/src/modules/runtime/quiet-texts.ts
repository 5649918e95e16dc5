import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { type Database, executeRows } from "../../db/client.ts";
import type { JobRunner } from "../../jobs/runner.ts";
import { analyzeConversationJob, quietTextsJob } from "./jobs.ts";

/** A conversation idle for longer than this before a check is left alone (a server down for a week). */
const LOOKBACK_MS = 7 * 24 * 3600 * 1000;
const BATCH = 200;

/** Text conversations are the channels with no hang-up. */
export const isTextChannel = (channel: string) => channel === "sms" || channel === "web";

/** A conversation may be analysed once it ended, or, a text one, once it has been quiet `quietMs`. */
export function analysable(
  conversation: { status: string; channel: string; lastActivityAt: Date },
  now: number,
  quietMs: number,
): boolean {
  if (conversation.status === "ended") return true;
  return isTextChannel(conversation.channel) && now - conversation.lastActivityAt.getTime() >= quietMs;
}

/**
 * The analysis of text conversations: a job checks every so often (a quarter of the quiet time, at most a
 * minute) for text conversations quiet for `quietMs` and not analysed since their last message, and queues
 * their analysis. A conversation that goes on later is analysed again after its next quiet spell.
 */
export function createQuietTexts(deps: {
  db: Database;
  jobs: JobRunner;
  quietMs: number;
  log: FastifyBaseLogger;
  now?: () => number;
}) {
  // Read at each use, not captured: the job runner's database reads the same clock (PGlite's is the process's).
  const now = deps.now ?? (() => Date.now());
  const checkEveryMs = Math.min(60_000, Math.max(1000, Math.round(deps.quietMs / 4)));

  // Each check looks at the conversations that went quiet since the one before (the first, after a start,
  // back to LOOKBACK_MS): one that cannot be analysed (its model fails) is not asked again every minute.
  let checkedUpTo: Date | null = null;

  /** The text conversations gone quiet since the last check and not analysed since, longest quiet first. */
  async function due(quietSince: Date): Promise<{ uuid: string; lastActivityAt: Date }[]> {
    const from = checkedUpTo ?? new Date(quietSince.getTime() - LOOKBACK_MS);
    const rows = await executeRows<{ uuid: string; last_activity_at: Date | string }>(
      deps.db,
      sql`select c.uuid, c.last_activity_at from conversations c
        where c.channel in ('sms', 'web')
          and c.last_activity_at <= ${quietSince} and c.last_activity_at >= ${from}
          and coalesce((c.outcome->'analysis'->>'analyzedAt')::bigint, 0)
            < (extract(epoch from c.last_activity_at) * 1000)::bigint
          and exists (select 1 from conversation_logs l where l.uuid = c.uuid)
        order by c.last_activity_at
        limit ${BATCH}`,
    );
    return rows.map((row) => ({ uuid: row.uuid, lastActivityAt: new Date(row.last_activity_at) }));
  }

  /** Queues the analysis of every conversation due; how many. */
  async function queueDue(): Promise<number> {
    const quietSince = new Date(now() - deps.quietMs);
    const rows = await due(quietSince);
    for (const row of rows) await deps.jobs.send(analyzeConversationJob, { uuid: row.uuid });
    // A full batch: the next check goes on from the last one taken (those taken are excluded once analysed).
    checkedUpTo = rows.length === BATCH ? (rows.at(-1)?.lastActivityAt ?? quietSince) : quietSince;
    return rows.length;
  }

  const nextCheck = () => ({ startAfter: new Date(now() + checkEveryMs) });

  deps.jobs.register(quietTextsJob, async () => {
    try {
      await queueDue();
    } finally {
      await deps.jobs.send(quietTextsJob, {}, nextCheck());
    }
  });

  return {
    queueDue,
    /** After the job runner started: queue the first check. */
    async start() {
      await deps.jobs
        .send(quietTextsJob, {}, nextCheck())
        .catch((error: unknown) => deps.log.warn({ err: error }, "could not queue the quiet texts' check"));
    },
  };
}

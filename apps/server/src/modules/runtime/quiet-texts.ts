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
  const now = deps.now ?? Date.now;
  const checkEveryMs = Math.min(60_000, Math.max(1000, Math.round(deps.quietMs / 4)));

  /** The text conversations due for an analysis, longest quiet first. */
  async function due(): Promise<string[]> {
    const quietSince = new Date(now() - deps.quietMs);
    const oldest = new Date(quietSince.getTime() - LOOKBACK_MS);
    const rows = await executeRows<{ uuid: string }>(
      deps.db,
      sql`select uuid from conversations
        where channel in ('sms', 'web')
          and last_activity_at <= ${quietSince} and last_activity_at > ${oldest}
          and coalesce((outcome->'analysis'->>'analyzedAt')::bigint, 0)
            < (extract(epoch from last_activity_at) * 1000)::bigint
        order by last_activity_at
        limit ${BATCH}`,
    );
    return rows.map((row) => row.uuid);
  }

  /** Queues the analysis of every conversation due; how many. */
  async function queueDue(): Promise<number> {
    const uuids = await due();
    for (const uuid of uuids) await deps.jobs.send(analyzeConversationJob, { uuid });
    return uuids.length;
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

import { sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { insertGeneratedConversations } from "./generated-transcripts.ts";
import { type GeneratedLog, type GenerateLogsOptions, generateLogs } from "./log-generator.ts";

/**
 * Inserts generated logs in batches (one statement of column arrays per batch). Answers the rows written.
 * Works on PGlite and PostgreSQL through Drizzle.
 */
export async function insertGeneratedLogs(
  db: Database,
  options: GenerateLogsOptions,
  batchSize = 5000,
): Promise<number> {
  let written = 0;
  let batch: GeneratedLog[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const col = <K extends keyof GeneratedLog>(key: K) => batch.map((row) => row[key]);
    await db.execute(sql`
      INSERT INTO conversation_logs
        (org_id, account_id, account_name, agent_id, "timestamp", duration, from_number, to_number, cnam,
         room_id, direction, transfer, call_id, uuid, channel, data)
      SELECT o, a, n, ag, ts::timestamptz, d, f, t, c, r, dir, tr, ci, u, ch, dt::jsonb
      FROM unnest(
        ${sql.param(col("orgId"))}::int[], ${sql.param(col("accountId"))}::int[], ${sql.param(col("accountName"))}::text[],
        ${sql.param(col("agentId"))}::int[], ${sql.param(batch.map((row) => new Date(row.timestamp).toISOString()))}::text[],
        ${sql.param(col("duration"))}::int[], ${sql.param(col("fromNumber"))}::text[], ${sql.param(col("toNumber"))}::text[],
        ${sql.param(col("cnam"))}::text[], ${sql.param(col("roomId"))}::text[], ${sql.param(col("direction"))}::text[],
        ${sql.param(col("transfer"))}::text[], ${sql.param(col("callId"))}::text[], ${sql.param(col("uuid"))}::text[],
        ${sql.param(col("channel"))}::text[], ${sql.param(batch.map((row) => JSON.stringify(row.data)))}::text[]
      ) AS x(o, a, n, ag, ts, d, f, t, c, r, dir, tr, ci, u, ch, dt)`);
    if (options.usage) {
      await db.execute(sql`
        INSERT INTO runtime_usage
          (org_id, agent_account_id, room_id, conversation_uuid, channel, provider, model, input_tokens,
           output_tokens, total_tokens, steps, messages_in, messages_out, created_at)
        SELECT o, ag, r, u, ch, 'sandbox', 'sandbox', ti, tout, ti + tout, 1, mi, mo, ts::timestamptz
        FROM unnest(
          ${sql.param(col("orgId"))}::int[], ${sql.param(col("agentId"))}::int[], ${sql.param(col("roomId"))}::text[],
          ${sql.param(col("uuid"))}::text[], ${sql.param(batch.map((row) => row.channel))}::text[],
          ${sql.param(batch.map((row) => 300 + row.duration * 6))}::int[], ${sql.param(batch.map((row) => 60 + row.duration * 2))}::int[],
          ${sql.param(batch.map((row) => (row.channel === "sms" ? 2 + (row.duration % 4) : 0)))}::int[],
          ${sql.param(batch.map((row) => (row.channel === "sms" ? 2 + (row.duration % 3) : 0)))}::int[],
          ${sql.param(batch.map((row) => new Date(row.timestamp).toISOString()))}::text[]
        ) AS x(o, ag, r, u, ch, ti, tout, mi, mo, ts)`);
    }
    if (options.conversations) await insertGeneratedConversations(db, batch);
    written += batch.length;
    batch = [];
  };
  for (const row of generateLogs(options)) {
    batch.push(row);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return written;
}

import type { UsageBuckets } from "@switchboard/core";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { type Database, executeRows } from "../../db/client.ts";
import {
  accounts,
  memberships,
  productPlans,
  subscriptions,
  usageDebits,
  users,
} from "../../db/schema/index.ts";

export type UsageDebitRow = typeof usageDebits.$inferSelect;

/**
 * The usage the runtime metered, as the usage statistics count it (one definition for both): tokens and SMS
 * in/out from runtime_usage; voice and advanced-voice minutes from the voice log rows, each call rounded up to
 * the minute. `scope` is SQL over the two tables' `org_id` / agent columns.
 */
export const USAGE_SQL = {
  tokens: sql`coalesce(sum(total_tokens), 0)::float8`,
  smsOut: sql`coalesce(sum(messages_out) FILTER (WHERE channel = 'sms'), 0)::float8`,
  smsIn: sql`coalesce(sum(messages_in) FILTER (WHERE channel = 'sms'), 0)::float8`,
  voice: sql`coalesce(sum(ceil(duration / 60.0)) FILTER (WHERE coalesce(data ->> 'voiceTier', '') <> 'advanced'), 0)::float8`,
  advanced: sql`coalesce(sum(ceil(duration / 60.0)) FILTER (WHERE data ->> 'voiceTier' = 'advanced'), 0)::float8`,
  // The row's channel column (migration 0031), in the logs' covering index: data.channel made every
  // statement read and parse each row's JSON.
  isVoice: sql`channel = 'voice'`,
};

/** Calls at the advanced voice tier: the predicate of conversation_logs_advanced_voice_idx (migration 0034). */
const ADVANCED_VOICE = sql`channel = 'voice' AND (data ->> 'voiceTier') = 'advanced'`;

const iso = (ms: number) => new Date(ms).toISOString();
const DAY_MS = 86_400_000;

export function createUsageRepository(db: Database) {
  /**
   * The day billing periods start from (billing-period.ts): the start of the organisation's latest
   * subscription, so usage periods and the plan's paid periods are one; without one, its creation.
   */
  async function billingAnchor(orgId: number, createdAt: Date): Promise<Date> {
    const [latest] = await db
      .select({ start: subscriptions.createdAt })
      .from(subscriptions)
      .where(eq(subscriptions.orgId, orgId))
      .orderBy(desc(subscriptions.createdAt))
      .limit(1);
    return latest?.start ?? createdAt;
  }

  return {
    /** One organisation's usage from `start` to `end` (ms, both inclusive). */
    async totals(orgId: number, start: number, end: number): Promise<UsageBuckets> {
      const [runtime] = await executeRows<{ tokens: number; sms_out: number; sms_in: number }>(
        db,
        sql`SELECT ${USAGE_SQL.tokens} AS tokens, ${USAGE_SQL.smsOut} AS sms_out, ${USAGE_SQL.smsIn} AS sms_in
              FROM runtime_usage WHERE org_id = ${orgId}::int
              AND created_at >= ${iso(start)}::timestamptz AND created_at <= ${iso(end)}::timestamptz`,
      );
      // Every call's minutes (rounded up per call) of the whole UTC days of the window from
      // conversation_log_durations (calls per day and exact duration), the partial days at its edges from the
      // rows' covering index; the advanced calls' minutes from their partial index (migration 0034). Their
      // difference is the other calls'. (Summed from the rows' JSON, a sweep of one organisation with 300,000
      // calls this month took ~1 s on three processes, every USAGE_DEBIT_INTERVAL_SECONDS.)
      const firstDay = Math.ceil(start / DAY_MS) * DAY_MS;
      const lastDay = Math.floor((end + 1) / DAY_MS) * DAY_MS;
      const minutes = (from: number, to: number, toInclusive: boolean) =>
        sql`(SELECT coalesce(sum(ceil(duration / 60.0)), 0) FROM conversation_logs
              WHERE org_id = ${orgId}::int AND ${USAGE_SQL.isVoice}
              AND "timestamp" >= ${iso(from)}::timestamptz
              AND "timestamp" ${toInclusive ? sql`<=` : sql`<`} ${iso(to)}::timestamptz)`;
      const all =
        lastDay > firstDay
          ? sql`(SELECT coalesce(sum(ceil(duration / 60.0) * n), 0) FROM conversation_log_durations
                  WHERE org_id = ${orgId}::int AND ${USAGE_SQL.isVoice}
                  AND day >= ${iso(firstDay)}::timestamptz AND day < ${iso(lastDay)}::timestamptz)
              + ${minutes(start, firstDay, false)} + ${minutes(lastDay, end, true)}`
          : minutes(start, end, true);
      const [voice] = await executeRows<{ all: number; advanced: number }>(
        db,
        sql`SELECT (${all})::float8 AS all, (SELECT coalesce(sum(ceil(duration / 60.0)), 0)
              FROM conversation_logs WHERE org_id = ${orgId}::int AND ${ADVANCED_VOICE}
              AND "timestamp" >= ${iso(start)}::timestamptz AND "timestamp" <= ${iso(end)}::timestamptz)::float8 AS advanced`,
      );
      return {
        number: 0,
        tokens: Number(runtime?.tokens ?? 0),
        voice: Number(voice?.all ?? 0) - Number(voice?.advanced ?? 0),
        advancedVoice: Number(voice?.advanced ?? 0),
        "outbound-message": Number(runtime?.sms_out ?? 0),
        "inbound-message": Number(runtime?.sms_in ?? 0),
      };
    },

    /** The plan an organisation's usage is priced by: its active subscription's, else the free plan, else none. */
    async planOf(orgId: number) {
      const [active] = await db
        .select({ name: productPlans.name, productItems: productPlans.productItems })
        .from(subscriptions)
        .innerJoin(productPlans, eq(productPlans.id, subscriptions.productPlanId))
        .where(and(eq(subscriptions.orgId, orgId), eq(subscriptions.status, "active")))
        .limit(1);
      if (active) return active;
      const [free] = await db
        .select({ name: productPlans.name, productItems: productPlans.productItems })
        .from(productPlans)
        .where(
          and(eq(productPlans.active, true), eq(productPlans.monthCents, 0), eq(productPlans.yearCents, 0)),
        )
        .orderBy(asc(productPlans.sortOrder), asc(productPlans.id))
        .limit(1);
      return free ?? null;
    },

    async organization(orgId: number) {
      const [row] = await db
        .select({ id: accounts.id, createdAt: accounts.createdAt, accountType: accounts.accountType })
        .from(accounts)
        .where(eq(accounts.id, orgId));
      if (row?.accountType !== "organization") return null;
      return { ...row, billingAnchor: await billingAnchor(orgId, row.createdAt) };
    },

    billingAnchor,

    /** When usage charging began for the organisation (usage before it is never charged), or null. */
    async chargeFromOf(orgId: number): Promise<number | null> {
      const [row] = await db
        .select({ chargeFrom: usageDebits.chargeFrom })
        .from(usageDebits)
        .where(eq(usageDebits.orgId, orgId));
      return row?.chargeFrom?.getTime() ?? null;
    },

    /**
     * Organisations with usage since `since` (ms), or with usage still owed: those a sweep looks at. Each
     * organisation is probed on the usage tables' (org_id, time) indexes, never a scan of all usage.
     */
    async organizationsToSweep(since: number): Promise<number[]> {
      const rows = await executeRows<{ id: number }>(
        db,
        sql`SELECT a.id FROM accounts a WHERE a.account_type = 'organization' AND (
                EXISTS (SELECT 1 FROM runtime_usage r WHERE r.org_id = a.id AND r.created_at >= ${iso(since)}::timestamptz)
                OR EXISTS (SELECT 1 FROM conversation_logs l WHERE l.org_id = a.id
                  AND l."timestamp" >= ${iso(since)}::timestamptz AND l.channel = 'voice')
                OR EXISTS (SELECT 1 FROM ledger_accounts g WHERE g.owner_account_id = a.id
                  AND g.kind = 'receivable' AND g.balance < 0))
              ORDER BY a.id`,
      );
      return rows.map((row) => Number(row.id));
    },

    async cursor(orgId: number): Promise<UsageDebitRow | null> {
      const [row] = await db.select().from(usageDebits).where(eq(usageDebits.orgId, orgId));
      return row ?? null;
    },

    /** Cents charged in the billing period starting at `periodStart` (0 when the cursor is elsewhere). */
    async debitedIn(orgId: number, periodStart: number): Promise<number> {
      const [row] = await db
        .select({ periodStart: usageDebits.periodStart, debitedCents: usageDebits.debitedCents })
        .from(usageDebits)
        .where(eq(usageDebits.orgId, orgId));
      return row?.periodStart?.getTime() === periodStart ? row.debitedCents : 0;
    },

    /**
     * Moves the cursor from `seq` to the next state, in the caller's transaction: false when another sweep
     * moved it first (nothing changed).
     */
    async advance(
      tx: Database,
      orgId: number,
      seq: number,
      next: {
        periodStart: Date;
        seq: number;
        debitedCents: number;
        charged: UsageBuckets;
        carryMicros: number;
      },
    ): Promise<boolean> {
      const rows = await executeRows<{ org_id: number }>(
        tx,
        sql`INSERT INTO usage_debits (org_id, period_start, seq, debited_cents, charged, carry_micros, updated_at)
              VALUES (${orgId}::int, ${next.periodStart.toISOString()}::timestamptz, ${next.seq}::int,
                ${next.debitedCents}::bigint, ${JSON.stringify(next.charged)}::jsonb, ${next.carryMicros}::bigint, now())
              ON CONFLICT (org_id) DO UPDATE SET period_start = excluded.period_start, seq = excluded.seq,
                debited_cents = excluded.debited_cents, charged = excluded.charged,
                carry_micros = excluded.carry_micros, updated_at = now()
              WHERE usage_debits.seq = ${seq}::int
              RETURNING org_id`,
      );
      return rows.length === 1;
    },

    /** Usage before `at` is not charged (history from before debits began): for new organisations' seeds. */
    async chargeFrom(orgId: number, at: Date) {
      await db
        .insert(usageDebits)
        .values({ orgId, chargeFrom: at })
        .onConflictDoUpdate({ target: usageDebits.orgId, set: { chargeFrom: at } });
    },

    /** The owners' e-mail addresses. */
    async ownerEmails(orgId: number): Promise<string[]> {
      const rows = await db
        .select({ email: users.email })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(and(eq(memberships.accountId, orgId), eq(memberships.role, "owner")));
      return rows.map((row) => row.email).filter((email): email is string => Boolean(email));
    },
  };
}

export type UsageRepository = ReturnType<typeof createUsageRepository>;

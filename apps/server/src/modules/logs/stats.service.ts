import type { CampaignStats, UsagePointAnswer } from "@switchboard/api";
import {
  DAY_MS,
  formatUsageDate,
  padUsageSeries,
  parseIsoDay,
  USAGE_BUCKETS,
  USAGE_PADDING_DAYS,
  type UsageBucket,
  type UsageBuckets,
  utcDay,
} from "@switchboard/core";
import { and, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { Access, AccountRow } from "../../access/access.ts";
import { badRequest, notFound } from "../../api-error.ts";
import type { Database } from "../../db/client.ts";
import { accounts } from "../../db/schema/index.ts";
import {
  billingPeriod,
  LIST_PRICES_USD,
  MICROS_PER_CENT,
  microsToUsd,
  type PricedUsage,
  priceUsage,
  pricingOf,
  USAGE_SQL,
  type UsagePricing,
  unitPriceUsd,
} from "../usage/index.ts";
import type { LogScope } from "./log-scope.ts";
import type { LogsRepository } from "./logs.repository.ts";
import { param } from "./sql.ts";

/**
 * Usage statistics (call catalogue "Stats, usage"): what the runtime metered, summed per bucket, and the
 * campaign (agent) statistics of one day from the log rows.
 *
 * Buckets: tokens — model tokens of every agent turn (runtime_usage); inbound-message / outbound-message —
 * SMS messages in and out (runtime_usage, channel sms); voice / advancedVoice — minutes of voice calls
 * (log rows of channel voice, each call rounded up to the minute; advanced when its data says
 * voiceTier advanced); number — phone numbers held, none until the deployment rents numbers.
 */

/** List prices of this deployment in USD per unit (the prices of usage no plan prices). */
export const USAGE_PRICES: UsageBuckets = LIST_PRICES_USD;

export const STATS_MESSAGES = {
  campaignNotFound: "Campaign not found",
  badRange: "startDate: must be on or before endDate",
  badDate: (name: string) => `${name}: must be a date (YYYY-MM-DD)`,
} as const;

type Frequency = "day" | "week" | "month";

const zero = (): UsageBuckets => ({
  number: 0,
  tokens: 0,
  voice: 0,
  advancedVoice: 0,
  "outbound-message": 0,
  "inbound-message": 0,
});

const roundUsd = (value: number) => Math.round(value * 1_000_000) / 1_000_000;

/** Costs in USD per bucket from millionths of a cent (rounded to a millionth of a dollar for the answer). */
function costsOf(priced: PricedUsage): UsageBuckets {
  const out = zero();
  for (const bucket of USAGE_BUCKETS) out[bucket] = roundUsd(microsToUsd(priced.costs[bucket]));
  return out;
}

/** Start (UTC midnight ms) of the bucket holding `day`. */
function bucketStart(day: number, frequency: Frequency): number {
  if (frequency === "day") return day;
  const date = new Date(day);
  if (frequency === "month") return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  const weekday = (date.getUTCDay() + 6) % 7; // Monday first, as PostgreSQL's date_trunc('week')
  return day - weekday * DAY_MS;
}

function nextBucket(start: number, frequency: Frequency): number {
  if (frequency === "day") return start + DAY_MS;
  if (frequency === "week") return start + 7 * DAY_MS;
  const date = new Date(start);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function readDay(text: string, name: string): number {
  const value = text.trim();
  const day = parseIsoDay(value.slice(0, 10));
  if (day === null) throw badRequest(STATS_MESSAGES.badDate(name));
  return day;
}

/** `YYYY-MM-DD` or `MM-DD-YYYY` as a UTC day. */
function readCampaignDay(text: string): number {
  const us = /^(\d{2})-(\d{2})-(\d{4})$/.exec(text);
  const day = us ? utcDay(Number(us[3]), Number(us[1]), Number(us[2])) : parseIsoDay(text);
  if (day === null) throw badRequest(STATS_MESSAGES.badDate("date"));
  return day;
}

type Deps = {
  db: Database;
  repo: LogsRepository;
  scopeOf: (target: AccountRow) => Promise<LogScope>;
  loadAccount: (id: number) => Promise<AccountRow | null>;
  /** The plan an organisation's usage is priced by (usage/pricing.ts); none: list prices. */
  planOf: (orgId: number) => Promise<Parameters<typeof pricingOf>[0]>;
  /** Cents the usage debits charged an organisation in the billing period starting at `periodStart`. */
  debitedThisPeriod?: (orgId: number, periodStart: number) => Promise<number>;
  /** When usage charging began for an organisation (its usage before is never charged). */
  chargeFromOf?: (orgId: number) => Promise<number | null>;
  /** An organisation's usage from `start` to `end` (ms, inclusive), as the usage debits count it. */
  usageTotals?: (orgId: number, start: number, end: number) => Promise<UsageBuckets>;
  /** The day an organisation's billing periods start from (its latest plan's start, else its creation). */
  billingAnchorOf?: (orgId: number, createdAt: Date) => Promise<Date>;
  now?: () => number;
};

function scopeCondition(scope: LogScope, orgColumn: string, agentColumn: string): SQL {
  const parts: SQL[] = [];
  if (scope.orgIds !== null) {
    if (scope.orgIds.length === 0) return sql`FALSE`;
    parts.push(sql`${sql.identifier(orgColumn)} = ANY(${param(scope.orgIds, "int[]")})`);
  }
  if (scope.agentId !== null)
    parts.push(sql`${sql.identifier(agentColumn)} = ${param(scope.agentId, "int")}`);
  return parts.length > 0 ? sql.join(parts, sql` AND `) : sql`TRUE`;
}

const instant = (ms: number) => param(new Date(ms).toISOString(), "timestamptz");

export function createStatsService(deps: Deps) {
  const now = deps.now ?? Date.now;

  async function usage(
    access: Access,
    query: {
      billingPeriod?: "current" | "previous" | "true" | undefined;
      startDate?: string | undefined;
      endDate?: string | undefined;
      frequency: Frequency;
      giveCosts: "true" | "false";
      combineCosts: "true" | "false";
      timeseries: boolean;
    },
  ) {
    const at = now();
    let start: number;
    let end: number;
    let current = false;
    if (query.startDate !== undefined || query.endDate !== undefined) {
      const endDay = query.endDate !== undefined ? readDay(query.endDate, "endDate") : utcDayOf(at);
      start = query.startDate !== undefined ? readDay(query.startDate, "startDate") : endDay - 29 * DAY_MS;
      end = endDay + DAY_MS - 1;
      if (start > end) throw badRequest(STATS_MESSAGES.badRange);
      if (end - start > 3 * 366 * DAY_MS) throw badRequest("endDate: a range holds at most three years");
    } else {
      const owner =
        access.target.accountType === "agent" && access.target.organizationId
          ? ((await deps.loadAccount(access.target.organizationId)) ?? access.target)
          : access.target;
      const which = query.billingPeriod === "previous" ? "previous" : "current";
      // One period everywhere: from the start of the organisation's plan (usage debits use the same anchor).
      const anchor =
        owner.accountType === "organization" && deps.billingAnchorOf
          ? await deps.billingAnchorOf(owner.id, owner.createdAt)
          : owner.createdAt;
      ({ start, end } = billingPeriod(anchor, at, which));
      current = which === "current";
    }
    const scope = await deps.scopeOf(access.target);
    const frequency = query.frequency;
    // The bucket's start in ms: the frequency is a parameter of date_trunc.
    const bucket = (column: SQL) =>
      sql`(extract(epoch from date_trunc(${param(frequency, "text")}, ${column} AT TIME ZONE 'UTC')) * 1000)::float8`;
    const [usageRows, voiceRows] = await Promise.all([
      deps.repo.query<{ bucket: number; tokens: number; sms_out: number; sms_in: number }>(
        sql`SELECT ${bucket(sql`created_at`)} AS bucket,
          ${USAGE_SQL.tokens} AS tokens, ${USAGE_SQL.smsOut} AS sms_out, ${USAGE_SQL.smsIn} AS sms_in
          FROM runtime_usage WHERE ${scopeCondition(scope, "org_id", "agent_account_id")}
          AND created_at >= ${instant(start)} AND created_at <= ${instant(end)} GROUP BY 1`,
      ),
      deps.repo.query<{ bucket: number; voice: number; advanced: number }>(
        sql`SELECT ${bucket(sql`"timestamp"`)} AS bucket,
          ${USAGE_SQL.voice} AS voice, ${USAGE_SQL.advanced} AS advanced
          FROM conversation_logs WHERE ${scopeCondition(scope, "org_id", "agent_id")} AND ${USAGE_SQL.isVoice}
          AND "timestamp" >= ${instant(start)} AND "timestamp" <= ${instant(end)} GROUP BY 1`,
      ),
    ]);

    const buckets = new Map<number, UsageBuckets>();
    for (let at2 = bucketStart(start, frequency); at2 <= end; at2 = nextBucket(at2, frequency))
      buckets.set(at2, zero());
    const add = (bucket: number, key: UsageBucket, amount: number) => {
      const entry = buckets.get(bucket) ?? zero();
      entry[key] += Number(amount);
      buckets.set(bucket, entry);
    };
    for (const row of usageRows) {
      add(Number(row.bucket), "tokens", row.tokens);
      add(Number(row.bucket), "outbound-message", row.sms_out);
      add(Number(row.bucket), "inbound-message", row.sms_in);
    }
    for (const row of voiceRows) {
      add(Number(row.bucket), "voice", row.voice);
      add(Number(row.bucket), "advancedVoice", row.advanced);
    }
    const totals = zero();
    for (const entry of buckets.values()) for (const key of USAGE_BUCKETS) totals[key] += entry[key];

    const giveCosts = query.giveCosts === "true";
    const combine = query.combineCosts === "true";
    // Priced by the organisation's plan (an organisation or its agent), with the same function the usage
    // debits charge by; above organisations (several of them), at list prices.
    const orgId =
      access.target.accountType === "organization"
        ? access.target.id
        : access.target.accountType === "agent"
          ? access.target.organizationId
          : null;
    const pricing: UsagePricing = pricingOf(orgId ? await deps.planOf(orgId) : null);
    const prices = zero();
    for (const key of USAGE_BUCKETS) prices[key] = unitPriceUsd(pricing.buckets[key], totals[key]);
    const answer: {
      success: true;
      startDate: string;
      endDate: string;
      frequency: Frequency;
      usage: UsageBuckets;
      prices: UsageBuckets;
      plan: string | null;
      costs?: UsageBuckets;
      totalCost?: number;
      debitedCents?: number;
      notChargedCents?: number;
      pendingCents?: number;
      timeseries?: UsagePointAnswer[];
    } = {
      success: true,
      startDate: isoDate(start),
      endDate: isoDate(end),
      frequency,
      usage: totals,
      prices,
      plan: pricing.planName,
    };
    if (giveCosts) {
      const priced = priceUsage(pricing, totals);
      answer.costs = costsOf(priced);
      if (combine) answer.totalCost = roundUsd(microsToUsd(priced.total));
    }
    // The current period of an organisation (or its agent): what the usage debits charged in it so far.
    if (current && orgId && access.target.accountType === "organization" && deps.debitedThisPeriod) {
      answer.debitedCents = await deps.debitedThisPeriod(orgId, start);
      // How the period's total comes to what was charged: usage from before charging began is never
      // charged (usage-debits.service.ts), and the rest waits for the next debit.
      const chargeFrom = deps.chargeFromOf ? await deps.chargeFromOf(orgId) : null;
      const waived =
        chargeFrom !== null && chargeFrom > start && deps.usageTotals
          ? await deps.usageTotals(orgId, start, Math.min(chargeFrom - 1, end))
          : null;
      const cents = (micros: number) => Math.floor(micros / MICROS_PER_CENT);
      const totalCents = cents(priceUsage(pricing, totals).total);
      answer.notChargedCents = waived ? cents(priceUsage(pricing, waived).total) : 0;
      answer.pendingCents = Math.max(0, totalCents - answer.notChargedCents - answer.debitedCents);
    }
    if (query.timeseries) {
      const input = [...buckets.entries()].map(([bucket, values]) => ({
        date: formatUsageDate(bucket),
        ...values,
      }));
      const series = current && frequency === "day" ? padUsageSeries(input, USAGE_PADDING_DAYS) : input;
      // Tiers count from the start of the range: each point costs what it added to the running total.
      const running = zero();
      let before = priceUsage(pricing, running);
      answer.timeseries = series.map((point) => {
        const values: UsageBuckets = zero();
        for (const key of USAGE_BUCKETS) {
          values[key] = Number(point[key] ?? 0);
          running[key] += values[key];
        }
        const out: UsagePointAnswer = { date: point.date, ...values };
        if (giveCosts) {
          const after = priceUsage(pricing, running);
          const added: PricedUsage = { costs: { ...after.costs }, total: after.total - before.total };
          for (const key of USAGE_BUCKETS) added.costs[key] = after.costs[key] - before.costs[key];
          before = after;
          out.costs = costsOf(added);
          if (combine) out.totalCost = roundUsd(microsToUsd(added.total));
        }
        return out;
      });
    }
    return answer;
  }

  /** The agents (campaigns) of the scope. */
  async function agentsOf(scope: LogScope): Promise<AccountRow[]> {
    if (scope.agentId !== null) {
      const agent = await deps.loadAccount(scope.agentId);
      return agent ? [agent] : [];
    }
    if (scope.orgIds === null || scope.orgIds.length === 0) return [];
    return deps.db
      .select()
      .from(accounts)
      .where(
        and(
          inArray(accounts.organizationId, scope.orgIds),
          eq(accounts.accountType, "agent"),
          isNull(accounts.deletedAt),
        ),
      )
      .orderBy(accounts.id);
  }

  async function campaignDay(
    scope: LogScope,
    day: number,
    agentIds: number[],
  ): Promise<Map<number, CampaignStats>> {
    const rows = await deps.repo.query<{
      agent_id: number;
      calls: number;
      answered: number;
      minutes: number;
      transfers: number;
      booked: number;
      inbound: number;
      outbound: number;
    }>(
      sql`SELECT agent_id, count(*)::int AS calls, count(*) FILTER (WHERE duration > 0)::int AS answered,
        coalesce(sum(duration), 0)::float8 / 60 AS minutes, count(*) FILTER (WHERE transfer = '1')::int AS transfers,
        count(*) FILTER (WHERE data -> 'appointmentBooked' IN ('true'::jsonb, '"true"'::jsonb))::int AS booked,
        count(*) FILTER (WHERE direction = 'inbound')::int AS inbound,
        count(*) FILTER (WHERE direction = 'outbound')::int AS outbound
        FROM conversation_logs WHERE ${scopeCondition(scope, "org_id", "agent_id")}
        AND agent_id = ANY(${param(agentIds, "int[]")})
        AND "timestamp" >= ${instant(day)} AND "timestamp" < ${instant(day + DAY_MS)} GROUP BY agent_id`,
    );
    return new Map(
      rows.map((row) => [
        row.agent_id,
        {
          campaignId: String(row.agent_id),
          agentId: row.agent_id,
          agentName: "",
          calls: row.calls,
          answered: row.answered,
          minutes: Math.round(Number(row.minutes) * 100) / 100,
          transfers: row.transfers,
          appointmentsBooked: row.booked,
          inbound: row.inbound,
          outbound: row.outbound,
        },
      ]),
    );
  }

  const agentName = (agent: AccountRow) => {
    const details = agent.details as Record<string, unknown>;
    const name = details.agentName ?? details.accountName ?? details.displayName;
    return typeof name === "string" && name.trim() ? name : agent.username;
  };

  const empty = (agent: AccountRow): CampaignStats => ({
    campaignId: String(agent.id),
    agentId: agent.id,
    agentName: agentName(agent),
    calls: 0,
    answered: 0,
    minutes: 0,
    transfers: 0,
    appointmentsBooked: 0,
    inbound: 0,
    outbound: 0,
  });

  async function campaigns(access: Access, date: string) {
    const day = readCampaignDay(date);
    const scope = await deps.scopeOf(access.target);
    const agents = await agentsOf(scope);
    const stats =
      agents.length > 0
        ? await campaignDay(
            scope,
            day,
            agents.map((agent) => agent.id),
          )
        : new Map();
    return {
      success: true as const,
      date: isoDate(day),
      campaigns: agents.map((agent) => ({
        ...(stats.get(agent.id) ?? empty(agent)),
        agentName: agentName(agent),
      })),
    };
  }

  async function campaign(access: Access, body: { dateString: string; campaignId: string | number }) {
    const day = readCampaignDay(body.dateString);
    const scope = await deps.scopeOf(access.target);
    const id = Number(body.campaignId);
    const agent = (await agentsOf(scope)).find((candidate) => candidate.id === id);
    if (!agent) throw notFound(STATS_MESSAGES.campaignNotFound);
    const stats = (await campaignDay(scope, day, [agent.id])).get(agent.id) ?? empty(agent);
    return { success: true as const, date: isoDate(day), stats: { ...stats, agentName: agentName(agent) } };
  }

  return { usage, campaigns, campaign };
}

function utcDayOf(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

export type StatsService = ReturnType<typeof createStatsService>;

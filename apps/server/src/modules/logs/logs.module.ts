import type { AppContext } from "../../app-context.ts";
import { createUsageRepository } from "../usage/index.ts";
import { scopeOf } from "./log-scope.ts";
import { createLogsRepository } from "./logs.repository.ts";
import { logsRoutes } from "./logs.routes.ts";
import { createLogsService } from "./logs.service.ts";
import { createMetricsService } from "./metrics.service.ts";
import { createStatsService } from "./stats.service.ts";

/** Conversation logs, dashboard metrics, usage and campaign statistics (issue 8). */
export function createLogsModule(context: AppContext, deps: { now?: () => number } = {}) {
  const db = context.database.db;
  const repo = createLogsRepository(context.database);
  const scope = (target: Parameters<typeof scopeOf>[1]) => scopeOf(db, target);
  const clock = deps.now ? { now: deps.now } : {};
  const logs = createLogsService({ repo, scopeOf: scope, ...clock });
  const metrics = createMetricsService({
    db,
    repo,
    scopeOf: scope,
    loadAccount: context.access.loadAccount,
    fieldsOf: logs.fieldsOf,
    ...clock,
  });
  const usage = createUsageRepository(db);
  const stats = createStatsService({
    db,
    repo,
    scopeOf: scope,
    loadAccount: context.access.loadAccount,
    planOf: usage.planOf,
    debitedThisPeriod: usage.debitedIn,
    billingAnchorOf: (orgId, createdAt) => usage.billingAnchor(orgId, createdAt),
    chargeFromOf: (orgId) => usage.chargeFromOf(orgId),
    usageTotals: (orgId, start, end) => usage.totals(orgId, start, end),
    ...clock,
  });
  return { logs, metrics, stats, routes: logsRoutes(logs, metrics, stats) };
}

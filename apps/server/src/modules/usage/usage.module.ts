import type { AppContext } from "../../app-context.ts";
import type { LedgerService } from "../ledger/index.ts";
import type { NotificationsService } from "../notifications/index.ts";
import { debitOrganizationJob, sweepUsageDebitsJob } from "./jobs.ts";
import { createUsageDebits } from "./usage-debits.service.ts";

/**
 * Usage debits (issue 21): every USAGE_DEBIT_INTERVAL_SECONDS a sweep charges each organisation's wallet
 * for the usage it has not been charged for, priced by its plan (usage/pricing.ts, as the usage statistics
 * show it); a debit that takes a wallet below LOW_BALANCE_USD notifies its organisation once.
 */
export function createUsageModule(
  context: AppContext,
  deps: { ledger: LedgerService; notifications: NotificationsService },
) {
  const { config, log } = context;
  const debits = createUsageDebits({
    db: context.database.db,
    ledger: deps.ledger,
    notifyOnce: (orgId, input) => deps.notifications.notifyOnce(orgId, input),
    email: context.email,
    lowBalanceCents: config.usage.lowBalanceCents,
    log,
  });
  const everyMs = config.usage.debitIntervalSeconds * 1000;

  context.jobs.register(debitOrganizationJob, async ({ orgId }) => {
    const outcome = await debits.debitOrganization(orgId);
    if (outcome.postings > 0) log.info({ orgId, ...outcome }, "usage debited");
  });
  context.jobs.register(sweepUsageDebitsJob, async () => {
    try {
      for (const orgId of await debits.organizationsToSweep())
        await context.jobs.send(debitOrganizationJob, { orgId });
    } finally {
      await context.jobs.send(sweepUsageDebitsJob, {}, { startAfter: new Date(Date.now() + everyMs) });
    }
  });

  return {
    debits,
    routes: [],
    /** After the job runner started: queue the first sweep (one waits at most, whichever instance asks). */
    async start() {
      await context.jobs
        .send(sweepUsageDebitsJob, {}, { startAfter: new Date(Date.now() + Math.min(everyMs, 10_000)) })
        .catch((error) => log.warn({ err: error }, "could not queue the usage debit sweep"));
    },
  };
}

export type UsageModule = ReturnType<typeof createUsageModule>;

declare module "fastify" {
  interface FastifyInstance {
    /** Usage debits (tests). */
    usage: UsageModule;
  }
}

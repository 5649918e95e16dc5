import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../db/client.ts";
import type { ProductItem } from "../../db/schema/index.ts";
import type { KeyedGate } from "../../http/keyed-gate.ts";
import type { EmailProvider } from "../../providers/email/email-provider.ts";
import type { NumberProvider } from "../../providers/numbers/number-provider.ts";
import { InsufficientFundsError, type LedgerService } from "../ledger/index.ts";
import { type NewNotification, noticeToOwners } from "../notifications/index.ts";
import { NUMBER_GRACE_DAYS, nextRenewal, releaseDateOf, termsForNumber } from "./number-plan.ts";
import type { NumbersRepository, PhoneNumberRow } from "./numbers.repository.ts";

/**
 * Monthly renewals of phone numbers (issue 32), run by the `numbers-renewals` job.
 *
 * Each number renews on the day of the month it was taken (`paid_through`). At its renewal a number is
 * priced by the organisation's plan as it is then — the plan's included numbers are its oldest ones and
 * cost nothing; each one above them costs its tier's monthly price, charged to the wallet (kind `number`,
 * wallet -> `revenue:numbers`). Exactly once per month: the idempotency key is the number and the renewal
 * date, and the renewal date moves in the charge's own transaction only from the date it was read at.
 *
 * A wallet short of the price leaves the number past due (it keeps working) and notifies the organisation
 * once per missed renewal (the bell and an e-mail to its owners); every later run tries again, so a top-up
 * pays it and the number keeps its renewal day. Unpaid NUMBER_GRACE_DAYS after its renewal date, it is
 * released. A number the plan no longer allows at all (a downgrade to Free) is past due the same way, for
 * nothing that a top-up could pay: choosing a plan with numbers keeps it.
 */
export type NumberRenewalsDeps = {
  db: Database;
  repo: NumbersRepository;
  provider: NumberProvider;
  ledger: LedgerService;
  money: KeyedGate;
  planOf: (orgId: number) => Promise<{ name: string; productItems: Record<string, ProductItem> } | null>;
  notifyOnce: (orgId: number, input: NewNotification & { groupKey: string }) => Promise<boolean>;
  email: EmailProvider | null;
  /** The organisation's owners' e-mail addresses (the usage repository's). */
  ownerEmails: (orgId: number) => Promise<string[]>;
  log: FastifyBaseLogger;
};

/** Months a number catches up in one run (a server down for longer charges the rest on the next runs). */
const MAX_MONTHS_PER_RUN = 12;

/** Another run renewed the number first. */
class RenewalMoved extends Error {}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const day = (at: Date) => at.toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

export type RenewalOutcome = { charged: number; chargedCents: number; pastDue: number; released: number };

export function createNumberRenewals(deps: NumberRenewalsDeps) {
  const { repo, ledger } = deps;

  const notify = (orgId: number, notice: NewNotification & { groupKey: string }) =>
    noticeToOwners(deps, orgId, notice, "your numbers");

  /** The renewal at `row.paidThrough` could not be paid: past due, or released once the grace is over. */
  async function unpaid(
    row: PhoneNumberRow,
    cents: number,
    at: number,
    outcome: RenewalOutcome,
    pastDue: Set<number>,
  ) {
    const releaseAt = releaseDateOf(row.paidThrough);
    if (at >= releaseAt.getTime()) {
      // Ours first, only if still unpaid (another server may have renewed it), then the carrier's.
      if (!(await repo.releaseUnpaid(row))) return;
      if (row.kind === "marketplace" && row.provider === deps.provider.kind)
        await deps.provider.release(row.number, row.providerId);
      outcome.released += 1;
      await notify(row.orgId, {
        kind: "lowBalance",
        title: `Phone number ${row.number} was released`,
        body: `Its renewal of ${dollars(cents)} due ${day(row.paidThrough)} was not paid within ${NUMBER_GRACE_DAYS} days, so the number went back to the carrier.`,
        link: "/app/numbers",
        groupKey: `numberReleased:${row.id}`,
      });
      return;
    }
    await repo.markPastDue(row.id, row.paidThrough, cents);
    pastDue.add(row.id);
    await notify(row.orgId, {
      kind: "lowBalance",
      title: `Phone number ${row.number} is past due`,
      body:
        cents > 0
          ? `Its monthly renewal of ${dollars(cents)} due ${day(row.paidThrough)} could not be paid: the wallet is short. Add funds by ${day(releaseAt)} to keep the number; after that it is released.`
          : `Your plan no longer includes this number. Choose a plan with phone numbers by ${day(releaseAt)} to keep it; after that it is released.`,
      link: "/app/numbers",
      groupKey: `numberPastDue:${row.id}:${row.paidThrough.toISOString()}`,
    });
  }

  /** One month of one number: true when its renewal date moved on (by this run or another). */
  async function renewOnce(
    row: PhoneNumberRow,
    ordinal: number,
    plan: Awaited<ReturnType<NumberRenewalsDeps["planOf"]>>,
    at: number,
    outcome: RenewalOutcome,
    pastDue: Set<number>,
  ): Promise<boolean> {
    const terms = termsForNumber(plan, ordinal - 1);
    const next = nextRenewal(row.createdAt, row.paidThrough);
    if (!terms.allowed) {
      await unpaid(row, 0, at, outcome, pastDue);
      return false;
    }
    const price = terms.monthlyCents;
    if (price === 0) {
      await deps.db.transaction((tx) => repo.renew(tx, row.id, row.paidThrough, next));
      return true;
    }
    if ((await ledger.balances(row.orgId)).usd.available < price) {
      await unpaid(row, price, at, outcome, pastDue);
      return false;
    }
    try {
      const posted = await ledger.post({
        idempotencyKey: `number-renewal:${row.id}:${row.paidThrough.toISOString()}`,
        kind: "number",
        ownerAccountId: row.orgId,
        description: `Phone number ${row.number}, month from ${day(row.paidThrough)} to ${day(next)} (${terms.planName} plan, number ${ordinal}: ${dollars(price)} a month)`,
        metadata: {
          number: row.number,
          planName: terms.planName,
          ordinal,
          monthlyCents: price,
          renewal: row.paidThrough.toISOString(),
        },
        postings: [
          { account: ledger.wallet(row.orgId), amount: -price },
          { account: ledger.platform("revenue:numbers"), amount: price },
        ],
        within: async (tx) => {
          if (!(await repo.renew(tx, row.id, row.paidThrough, next))) throw new RenewalMoved();
        },
      });
      if (!posted.replayed) {
        outcome.charged += 1;
        outcome.chargedCents += price;
      }
      return true;
    } catch (error) {
      if (error instanceof RenewalMoved) return true;
      if (error instanceof InsufficientFundsError) {
        await unpaid(row, price, at, outcome, pastDue);
        return false;
      }
      throw error;
    }
  }

  /** Renews the organisation's numbers due at `at`, catching up missed months. */
  async function renewOrganization(orgId: number, at: number): Promise<RenewalOutcome> {
    const outcome: RenewalOutcome = { charged: 0, chargedCents: 0, pastDue: 0, released: 0 };
    // Numbers left past due by this run (a number is looked at again when another one renewed).
    const pastDue = new Set<number>();
    await deps.money.run(orgId, async () => {
      const plan = await deps.planOf(orgId);
      for (let month = 0; month < MAX_MONTHS_PER_RUN; month++) {
        // Read again each month: a released number moves the ones after it into the plan's included ones.
        const held = await repo.heldInOrder(orgId);
        let moved = false;
        for (const [index, row] of held.entries()) {
          if (row.paidThrough.getTime() > at) continue;
          try {
            if (await renewOnce(row, index + 1, plan, at, outcome, pastDue)) moved = true;
          } catch (error) {
            // One number's failure (its provider's release) leaves the others renewed; the next run retries it.
            deps.log.warn({ err: error, orgId, number: row.number }, "number renewal failed");
          }
        }
        if (!moved) break;
      }
    });
    return { ...outcome, pastDue: pastDue.size };
  }

  return {
    renewOrganization,
    /** Every organisation with a number due at `at` (the job's run; tests pass their own clock). */
    async renewDue(at: number = Date.now()): Promise<RenewalOutcome> {
      const total: RenewalOutcome = { charged: 0, chargedCents: 0, pastDue: 0, released: 0 };
      for (const orgId of await repo.organizationsWithRenewalsDue(new Date(at))) {
        const outcome = await renewOrganization(orgId, at).catch((error: unknown) => {
          // Busy (its money gate full) or failing: the next run tries the organisation again.
          deps.log.warn({ err: error, orgId }, "number renewals of an organisation failed");
          return { charged: 0, chargedCents: 0, pastDue: 0, released: 0 };
        });
        total.charged += outcome.charged;
        total.chargedCents += outcome.chargedCents;
        total.pastDue += outcome.pastDue;
        total.released += outcome.released;
      }
      return total;
    },
  };
}

export type NumberRenewals = ReturnType<typeof createNumberRenewals>;

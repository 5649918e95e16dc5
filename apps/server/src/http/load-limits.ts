import { createKeyedGate } from "./keyed-gate.ts";
import { createCallerLimit } from "./rate-limit.ts";

/**
 * The limits one server puts on costly calls (issue 30, M2 and M3):
 * - `invoiceDecode`: calls that decode a lightning invoice (a signature recovery: 15-50 ms of the event
 *   loop each) — validateInvoice and requestWithdrawal;
 * - `payments`: calls that start a payment or a withdrawal (checkouts, invoices, payouts);
 * - `money`: an organisation's money movements (holds, credits, plans, refunds) one at a time; the others
 *   wait in the process rather than on its wallet's row lock with a pooled connection each.
 */
export function createLoadLimits() {
  return {
    invoiceDecode: createCallerLimit({
      perToken: { burst: 20, perSecond: 1 },
      perNetwork: { burst: 60, perSecond: 3 },
    }),
    payments: createCallerLimit({
      perToken: { burst: 40, perSecond: 1 },
      perNetwork: { burst: 120, perSecond: 4 },
    }),
    money: createKeyedGate({ concurrency: 1, queue: 50, waitMs: 10_000 }),
  };
}

export type LoadLimits = ReturnType<typeof createLoadLimits>;

/** The ledger module's public entry point: other modules use it only through what this file exports. */
export { createLedgerModule } from "./ledger.module.ts";
export {
  createLedgerService,
  InsufficientFundsError,
  type LedgerService,
  type PostingInput,
} from "./ledger.service.ts";
export type { WithdrawalRow, Withdrawals } from "./withdrawals.ts";

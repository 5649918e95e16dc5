/** The wallet module's public entry point: other modules use it only through what this file exports. */
export { sandboxConnectPage, sandboxPayoutPage, sandboxWalletPage } from "./sandbox-pages.ts";
export type { WalletModule } from "./wallet.module.ts";
export type { WalletService } from "./wallet.service.ts";
export { walletOwnerOf } from "./wallet-owner.ts";

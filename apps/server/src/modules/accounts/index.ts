/** The accounts module's public entry point: other modules use it only through what this file exports. */
export { agentNameOf, displayNameOf, toApiAccount } from "./account-view.ts";
export type { AccountsModule } from "./accounts.module.ts";
export { type AccountsRepository, insertAccountIn } from "./accounts.repository.ts";
export { RESERVED_USERNAMES } from "./accounts.service.ts";
export { canBeParent } from "./hierarchy.ts";
export { detectImageType } from "./image-type.ts";
export { storedPhoneNumber } from "./phone-number.ts";
export { platformPartner } from "./platform-partner.ts";

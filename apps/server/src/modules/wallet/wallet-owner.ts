import type { AccountRow } from "../../access/access.ts";

/** The account whose wallet a call acts on: an agent account's organisation; otherwise the target itself. */
export function walletOwnerOf(target: AccountRow): number {
  if (target.accountType === "agent" && target.organizationId) return target.organizationId;
  return target.id;
}

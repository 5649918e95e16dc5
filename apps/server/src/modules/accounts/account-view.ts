import type { Account } from "@switchboard/api";
import type { AccountRow, UserRow } from "../../access/access.ts";

const DISPLAY_NAME_KEYS = [
  "displayName",
  "orgName",
  "resellerName",
  "partnerName",
  "agentName",
  "accountName",
  "name",
];

/** The display name of §3 list items: orgName for organisations, resellerName for resellers, ... */
export function displayNameOf(row: AccountRow): string {
  const details = row.details as Record<string, unknown>;
  for (const key of DISPLAY_NAME_KEYS) {
    const value = details[key];
    if (typeof value === "string" && value.trim()) return value;
  }
  return row.username;
}

/** The name an agent is shown by. */
export function agentNameOf(details: unknown, username: string | null): string | null {
  const record = (details ?? {}) as Record<string, unknown>;
  for (const key of ["agentName", "displayName", "name"]) {
    const value = record[key];
    if (typeof value === "string" && value.trim()) return value.trim();
  }
  return username;
}

/** An account row as the API shows it. */
export function toApiAccount(row: AccountRow): Account {
  return {
    id: row.id,
    accountType: row.accountType,
    parentId: row.parentId,
    partnerId: row.partnerId,
    resellerId: row.resellerId,
    organizationId: row.organizationId,
    username: row.username,
    displayName: displayNameOf(row),
    email: row.email,
    phoneNumber: row.phoneNumber,
    timestamp: row.createdAt.getTime(),
    details: row.details,
    settings: row.settings,
    socialLinks: row.socialLinks,
    socialLinksPosition: row.socialLinksPosition,
    switchboardPhoneNumber: row.switchboardPhoneNumber,
    subscription: null,
    premium: row.premium,
    smsEnabled: row.smsEnabled,
    externalAccountId: row.externalAccountId,
    externalBillingId: row.externalBillingId,
    disabled: row.disabledAt !== null,
  };
}

export function toApiUser(user: UserRow) {
  return {
    id: user.id,
    email: user.email,
    phoneNumber: user.phoneNumber,
    fullName: user.fullName,
    superAdmin: user.superAdmin,
    temporary: user.temporary,
  };
}

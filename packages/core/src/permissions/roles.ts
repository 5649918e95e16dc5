import { LEGACY_ACCOUNT_CUTOFF_MS } from "../constants.ts";

export type AccountType = "partner" | "reseller" | "organization" | "agent";

/** What an account is, as far as role derivation needs it (product spec §6). */
export type RoleSubject = {
  accountType: AccountType;
  /** The organisation id of the account (for an organisation: its own id). */
  organizationId?: number | null;
  partnerId?: number | null;
  resellerId?: number | null;
  /** Creation time, ms epoch. */
  timestamp?: number | null;
};

export type AccountRole = "partner" | "reseller" | "organization";

/**
 * Partner if the account type is partner or its organisation id equals its partner id; reseller if the type
 * is reseller or the organisation id equals the reseller id; otherwise organisation.
 */
export function deriveRole(subject: RoleSubject): AccountRole {
  const orgId = subject.organizationId ?? null;
  if (subject.accountType === "partner" || (orgId !== null && orgId === (subject.partnerId ?? null)))
    return "partner";
  if (subject.accountType === "reseller" || (orgId !== null && orgId === (subject.resellerId ?? null)))
    return "reseller";
  return "organization";
}

/** Accounts created before the cutoff are legacy accounts. */
export function isLegacyAccount(timestamp: number | null | undefined): boolean {
  return typeof timestamp === "number" && timestamp < LEGACY_ACCOUNT_CUTOFF_MS;
}

import type { OverlayName } from "../../overlays/overlay-names.ts";
import type { ListKind } from "./api.ts";

type AccountType = "partner" | "reseller" | "organization" | "agent";

/** What each list is called and which overlays act on its accounts. */
export const LIST_LABELS: Record<ListKind, { title: string; singular: string; empty: string }> = {
  partners: { title: "Partners", singular: "partner", empty: "No partners yet." },
  resellers: { title: "Resellers", singular: "reseller", empty: "No resellers yet." },
  organizations: { title: "Organizations", singular: "organization", empty: "No organizations yet." },
  agents: { title: "Agent accounts", singular: "agent account", empty: "No agent accounts yet." },
};

export const TAKEOVER_OVERLAY: Record<Exclude<AccountType, "agent">, OverlayName> = {
  partner: "partnerTakeover",
  reseller: "resellerTakeover",
  organization: "orgTakeover",
};

export const INFO_OVERLAY: Record<Exclude<AccountType, "agent">, OverlayName> = {
  partner: "partnerInfo",
  reseller: "resellerInfo",
  organization: "orgInfo",
};

/** The account type each takeover or info overlay expects. */
export const OVERLAY_ACCOUNT_TYPE: Partial<Record<OverlayName, AccountType>> = {
  partnerTakeover: "partner",
  resellerTakeover: "reseller",
  orgTakeover: "organization",
  partnerInfo: "partner",
  resellerInfo: "reseller",
  orgInfo: "organization",
  resellerPreview: "reseller",
  orgAdmin: "organization",
  deleteOrganization: "organization",
  agentInfo: "agent",
  agentAdmin: "agent",
  agentSettings: "agent",
  deleteAgent: "agent",
};

/**
 * The lists shown for the account in view: a super admin acting as such also sees every partner; a partner
 * its resellers and organisations; a reseller its organisations; an organisation its agent accounts.
 */
export function listKindsFor(accountType: AccountType, superAdminView: boolean): ListKind[] {
  switch (accountType) {
    case "partner":
      return superAdminView ? ["partners", "resellers", "organizations"] : ["resellers", "organizations"];
    case "reseller":
      return ["organizations"];
    case "organization":
      return ["agents"];
    default:
      return [];
  }
}

/** An overlay value naming an account id, or null (`true`, empty, not a number). */
export function overlayAccountId(value: string): number | null {
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

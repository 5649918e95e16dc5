import type { AccountRole } from "./roles.ts";

export const VIEWING_AS_VALUES = ["superAdmin", "partner", "reseller", "owner", "admin"] as const;
export type ViewingAs = (typeof VIEWING_AS_VALUES)[number];

/** A user's real rank: super admin, the role of their account, and for organisation users owner or admin. */
export type RealRank = { superAdmin: boolean; role: AccountRole; isOwner?: boolean };

export function isViewingAs(value: unknown): value is ViewingAs {
  return typeof value === "string" && (VIEWING_AS_VALUES as readonly string[]).includes(value);
}

/**
 * Which viewing-as values a rank may use: a super admin any; a partner partner and below; a reseller
 * reseller and below; an organisation's owner owner and admin; its admin admin only. Viewing as only ever
 * narrows what a user may do: an admin viewing "as owner" would gain the owner's flags.
 */
export function allowedViewingAs(rank: RealRank): readonly ViewingAs[] {
  if (rank.superAdmin) return VIEWING_AS_VALUES;
  if (rank.role === "partner") return ["partner", "reseller", "owner", "admin"];
  if (rank.role === "reseller") return ["reseller", "owner", "admin"];
  return rank.isOwner ? ["owner", "admin"] : ["admin"];
}

/** superAdmin for super admins, partner for partners, reseller for resellers, otherwise admin. */
export function defaultViewingAs(rank: RealRank): ViewingAs {
  if (rank.superAdmin) return "superAdmin";
  if (rank.role === "partner") return "partner";
  if (rank.role === "reseller") return "reseller";
  return "admin";
}

/** A stored value is restored only if the user's real rank permits it; otherwise the default applies. */
export function restoreViewingAs(stored: unknown, rank: RealRank): ViewingAs {
  return isViewingAs(stored) && allowedViewingAs(rank).includes(stored) ? stored : defaultViewingAs(rank);
}

/** Acting as a higher role: super admin, partner or reseller, and not viewing as owner or admin. */
export function isActingAsHigherRole(rank: RealRank, viewingAs: ViewingAs): boolean {
  const higher = rank.superAdmin || rank.role === "partner" || rank.role === "reseller";
  return higher && viewingAs !== "owner" && viewingAs !== "admin";
}

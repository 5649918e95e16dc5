import type { AccountType } from "@switchboard/core";
import type { AccountRow } from "../../access/access.ts";

/** Which account type may sit directly under which (null: at the top, under the super admin). */
const ALLOWED_PARENTS: Record<AccountType, readonly (AccountType | null)[]> = {
  partner: [null],
  reseller: ["partner"],
  organization: [null, "partner", "reseller"],
  agent: ["organization"],
};

export function canBeParent(childType: AccountType, parent: AccountRow | null): boolean {
  return ALLOWED_PARENTS[childType].includes(parent ? parent.accountType : null);
}

/** Ancestor ids a new account under `parent` carries. The organisation's own id is set after insert. */
export function ancestorsUnder(parent: AccountRow | null) {
  if (!parent) return { parentId: null, partnerId: null, resellerId: null, organizationId: null };
  switch (parent.accountType) {
    case "partner":
      return { parentId: parent.id, partnerId: parent.id, resellerId: null, organizationId: null };
    case "reseller":
      return {
        parentId: parent.id,
        partnerId: parent.partnerId,
        resellerId: parent.id,
        organizationId: null,
      };
    default:
      return {
        parentId: parent.id,
        partnerId: parent.partnerId,
        resellerId: parent.resellerId,
        organizationId: parent.organizationId ?? parent.id,
      };
  }
}

/** A username from a name or e-mail: lower-case letters, digits and dashes, at most 30 characters. */
export function usernameBase(source: string): string {
  const local = source.includes("@") ? (source.split("@")[0] ?? source) : source;
  const slug = local
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 30);
  return slug.length >= 3 ? slug : `account-${slug}`.replace(/-+$/, "");
}

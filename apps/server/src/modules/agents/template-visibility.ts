import type { AccountRow } from "../../access/access.ts";

/** Owners whose templates an account may use: itself and its ancestors (plus the built-in ones, owner null). */
export function visibleTemplateOwners(target: AccountRow): number[] {
  return [target.id, target.partnerId, target.resellerId, target.organizationId].filter(
    (value): value is number => typeof value === "number",
  );
}

export function isTemplateVisible(target: AccountRow, template: { ownerAccountId: number | null }): boolean {
  return template.ownerAccountId === null || visibleTemplateOwners(target).includes(template.ownerAccountId);
}

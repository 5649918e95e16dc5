/** Permission flags of product spec §6, in the spec's order. */
export const PERMISSION_FLAGS = [
  "canViewOrg",
  "canEditOrg",
  "canOnboardWithoutPlan",
  "canManageUsers",
  "canInviteUsers",
  "canViewBilling",
  "canManageBilling",
  "canDeleteOrg",
  "canViewTasks",
  "canAddAgents",
  "canTakeoverAgent",
  "canUseFullEditor",
  "canViewEmbeds",
  "canSetupSMS",
  "canSelectNumber",
  "canInspectJSON",
  "canDeactivateOrg",
] as const;

export type PermissionFlag = (typeof PERMISSION_FLAGS)[number];

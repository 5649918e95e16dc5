import { PERMISSION_FLAGS, type PermissionFlag } from "./flags.ts";
import type { RealRank, ViewingAs } from "./viewing-as.ts";

export type Permissions = Record<PermissionFlag, boolean>;

/** Partner-controlled settings that drive the flags (product spec §3 account settings). */
export type PartnerSettings = Partial<
  Record<
    | "grantTrialEntry"
    | "showMembers"
    | "showBilling"
    | "allowSignup"
    | "allowTasks"
    | "allowAddAgents"
    | "allowAgentTakeover"
    | "allowFullEditor"
    | "allowEmbeds"
    | "smsMessaging"
    | "allowOrgNumberAssignment",
    unknown
  >
>;

/** Setting-to-flag map of §6; canViewOrg and canEditOrg are always true, canInspectJSON never from settings. */
export const SETTING_FOR_FLAG: Readonly<Record<PermissionFlag, keyof PartnerSettings | null>> = {
  canViewOrg: null,
  canEditOrg: null,
  canOnboardWithoutPlan: "grantTrialEntry",
  canManageUsers: "showMembers",
  canInviteUsers: "showMembers",
  canViewBilling: "showBilling",
  canManageBilling: "showBilling",
  canDeleteOrg: "allowSignup",
  canViewTasks: "allowTasks",
  canAddAgents: "allowAddAgents",
  canTakeoverAgent: "allowAgentTakeover",
  canUseFullEditor: "allowFullEditor",
  canViewEmbeds: "allowEmbeds",
  canSetupSMS: "smsMessaging",
  canSelectNumber: "allowOrgNumberAssignment",
  canInspectJSON: null,
  canDeactivateOrg: "allowSignup",
};

/** The flags a test account holds; all others are false. */
const TEST_ACCOUNT_FLAGS: ReadonlySet<PermissionFlag> = new Set([
  "canViewOrg",
  "canEditOrg",
  "canOnboardWithoutPlan",
  "canSelectNumber",
  "canDeactivateOrg",
]);

/** Flags an admin (not owner) never holds. */
const OWNER_ONLY_FLAGS: ReadonlySet<PermissionFlag> = new Set([
  "canViewBilling",
  "canManageBilling",
  "canDeleteOrg",
  "canDeactivateOrg",
  "canInspectJSON",
]);

export type PermissionInput = {
  rank: RealRank;
  viewingAs: ViewingAs;
  /** The signed-in account is one of the fixed test accounts. */
  isTestAccount?: boolean;
  /** The caller is on the organisation's own account (its owner), rather than an admin of it. */
  isOwnOrganization?: boolean;
  settings?: PartnerSettings | null;
};

const allFlags = (value: (flag: PermissionFlag) => boolean): Permissions =>
  Object.fromEntries(PERMISSION_FLAGS.map((flag) => [flag, value(flag)])) as Permissions;

/** A setting grants its flags unless it is explicitly false. */
const settingAllows = (settings: PartnerSettings | null | undefined, flag: PermissionFlag): boolean => {
  const key = SETTING_FOR_FLAG[flag];
  if (key === null) return flag !== "canInspectJSON";
  return settings?.[key] !== false;
};

/** The permission table of product spec §6, row by row. */
export function derivePermissions(input: PermissionInput): Permissions {
  const { rank, viewingAs } = input;
  const viewingAsThemselves =
    (viewingAs === "superAdmin" && rank.superAdmin) ||
    (viewingAs === "partner" && (rank.superAdmin || rank.role === "partner")) ||
    (viewingAs === "reseller" && (rank.superAdmin || rank.role === "partner" || rank.role === "reseller"));
  if (viewingAsThemselves) return allFlags(() => true);
  if (input.isTestAccount) return allFlags((flag) => TEST_ACCOUNT_FLAGS.has(flag));
  // Viewing as owner gives the owner's flags only to a rank that holds them: the owner, or a level above.
  const ownerView =
    viewingAs === "owner" &&
    (rank.superAdmin || rank.isOwner === true || rank.role === "partner" || rank.role === "reseller");
  if (input.isOwnOrganization || ownerView) return allFlags((flag) => settingAllows(input.settings, flag));
  return allFlags((flag) => !OWNER_ONLY_FLAGS.has(flag) && settingAllows(input.settings, flag));
}

/**
 * The fixed test accounts of §6 (the spec leaves the five usernames out; these are Switchboard's own).
 * They may view and edit their organisation, onboard without a plan, pick a number and deactivate.
 */
export const TEST_ACCOUNT_USERNAMES: readonly string[] = [
  "test-account-1",
  "test-account-2",
  "test-account-3",
  "test-account-4",
  "test-account-5",
];

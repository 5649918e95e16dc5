import { describe, expect, it } from "vitest";
import { PERMISSION_FLAGS, type PermissionFlag } from "./flags.ts";
import { derivePermissions, type PermissionInput } from "./permissions.ts";

const only = (...flags: PermissionFlag[]) =>
  Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, flags.includes(f)]));
const allBut = (...flags: PermissionFlag[]) =>
  Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, !flags.includes(f)]));
const ALL = allBut();

const superAdmin = { superAdmin: true, role: "organization" } as const;
const partner = { superAdmin: false, role: "partner" } as const;
const reseller = { superAdmin: false, role: "reseller" } as const;
const orgUser = { superAdmin: false, role: "organization" } as const;
const orgOwner = { superAdmin: false, role: "organization", isOwner: true } as const;

describe("permission table (product spec §6)", () => {
  it.each<[string, PermissionInput, Record<string, boolean>]>([
    // Row 1: viewing as themselves -> all true, whatever the settings.
    [
      "super admin viewing as superAdmin",
      { rank: superAdmin, viewingAs: "superAdmin", settings: { showBilling: false } },
      ALL,
    ],
    ["super admin viewing as partner", { rank: superAdmin, viewingAs: "partner" }, ALL],
    ["super admin viewing as reseller", { rank: superAdmin, viewingAs: "reseller" }, ALL],
    [
      "partner viewing as partner",
      { rank: partner, viewingAs: "partner", settings: { allowTasks: false } },
      ALL,
    ],
    ["partner viewing as reseller", { rank: partner, viewingAs: "reseller" }, ALL],
    ["reseller viewing as reseller", { rank: reseller, viewingAs: "reseller" }, ALL],
    // Row 2: test accounts.
    [
      "test account",
      { rank: orgUser, viewingAs: "owner", isTestAccount: true },
      only("canViewOrg", "canEditOrg", "canOnboardWithoutPlan", "canSelectNumber", "canDeactivateOrg"),
    ],
    // Row 3: own organisation, or viewing as owner: settings-driven, canInspectJSON false.
    [
      "own organisation, no settings",
      { rank: orgUser, viewingAs: "admin", isOwnOrganization: true },
      allBut("canInspectJSON"),
    ],
    ["super admin viewing as owner", { rank: superAdmin, viewingAs: "owner" }, allBut("canInspectJSON")],
    ["reseller viewing as owner", { rank: reseller, viewingAs: "owner" }, allBut("canInspectJSON")],
    ["organisation owner viewing as owner", { rank: orgOwner, viewingAs: "owner" }, allBut("canInspectJSON")],
    [
      "organisation admin claiming owner gains nothing (viewing as only narrows)",
      { rank: orgUser, viewingAs: "owner" },
      allBut("canViewBilling", "canManageBilling", "canDeleteOrg", "canDeactivateOrg", "canInspectJSON"),
    ],
    // Row 4: admin or other: settings-driven minus billing, delete, deactivate and JSON inspection.
    [
      "organisation admin",
      { rank: orgUser, viewingAs: "admin" },
      allBut("canViewBilling", "canManageBilling", "canDeleteOrg", "canDeactivateOrg", "canInspectJSON"),
    ],
    [
      "partner viewing as admin",
      { rank: partner, viewingAs: "admin" },
      allBut("canViewBilling", "canManageBilling", "canDeleteOrg", "canDeactivateOrg", "canInspectJSON"),
    ],
    [
      "reseller claiming partner (not their rank) falls to the admin row",
      { rank: reseller, viewingAs: "partner" },
      allBut("canViewBilling", "canManageBilling", "canDeleteOrg", "canDeactivateOrg", "canInspectJSON"),
    ],
    [
      "organisation user claiming superAdmin falls to the admin row",
      { rank: orgUser, viewingAs: "superAdmin" },
      allBut("canViewBilling", "canManageBilling", "canDeleteOrg", "canDeactivateOrg", "canInspectJSON"),
    ],
  ])("%s", (_name, input, expected) => {
    expect(derivePermissions(input)).toEqual(expected);
  });
});

describe("setting-to-flag map (own account or owner)", () => {
  it.each<[string, PermissionFlag[]]>([
    ["grantTrialEntry", ["canOnboardWithoutPlan"]],
    ["showMembers", ["canManageUsers", "canInviteUsers"]],
    ["showBilling", ["canViewBilling", "canManageBilling"]],
    ["allowSignup", ["canDeleteOrg", "canDeactivateOrg"]],
    ["allowTasks", ["canViewTasks"]],
    ["allowAddAgents", ["canAddAgents"]],
    ["allowAgentTakeover", ["canTakeoverAgent"]],
    ["allowFullEditor", ["canUseFullEditor"]],
    ["allowEmbeds", ["canViewEmbeds"]],
    ["smsMessaging", ["canSetupSMS"]],
    ["allowOrgNumberAssignment", ["canSelectNumber"]],
  ])("%s: false turns off exactly %j", (setting, flags) => {
    const owner = derivePermissions({ rank: orgOwner, viewingAs: "owner", settings: { [setting]: false } });
    expect(owner).toEqual(allBut("canInspectJSON", ...flags));
  });

  it("only an explicit false turns a flag off (missing, null, 0, '' and true keep it on)", () => {
    for (const value of [undefined, null, 0, "", true, "false"]) {
      const owner = derivePermissions({
        rank: orgOwner,
        viewingAs: "owner",
        settings: { allowTasks: value },
      });
      expect(owner.canViewTasks).toBe(true);
    }
  });

  it("canViewOrg and canEditOrg stay true for owner and admin whatever the settings", () => {
    const everythingOff = Object.fromEntries(
      ["grantTrialEntry", "showMembers", "showBilling", "allowSignup", "allowTasks", "allowAddAgents"].map(
        (k) => [k, false],
      ),
    );
    for (const viewingAs of ["owner", "admin"] as const) {
      const flags = derivePermissions({ rank: orgOwner, viewingAs, settings: everythingOff });
      expect(flags.canViewOrg && flags.canEditOrg).toBe(true);
    }
  });

  it("settings limit an admin too, on top of the admin exclusions", () => {
    const admin = derivePermissions({ rank: orgUser, viewingAs: "admin", settings: { allowTasks: false } });
    expect(admin).toEqual(
      allBut(
        "canViewBilling",
        "canManageBilling",
        "canDeleteOrg",
        "canDeactivateOrg",
        "canInspectJSON",
        "canViewTasks",
      ),
    );
  });
});

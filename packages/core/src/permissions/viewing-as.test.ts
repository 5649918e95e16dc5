import { describe, expect, it } from "vitest";
import { deriveRole, isLegacyAccount } from "./roles.ts";
import {
  allowedViewingAs,
  defaultViewingAs,
  isActingAsHigherRole,
  type RealRank,
  restoreViewingAs,
  type ViewingAs,
} from "./viewing-as.ts";

const superAdmin: RealRank = { superAdmin: true, role: "organization" };
const partner: RealRank = { superAdmin: false, role: "partner" };
const reseller: RealRank = { superAdmin: false, role: "reseller" };
const orgUser: RealRank = { superAdmin: false, role: "organization" };

describe("role derivation", () => {
  it.each([
    [{ accountType: "partner" as const }, "partner"],
    [{ accountType: "organization" as const, organizationId: 5, partnerId: 5, resellerId: 9 }, "partner"],
    [{ accountType: "reseller" as const }, "reseller"],
    [{ accountType: "organization" as const, organizationId: 9, partnerId: 5, resellerId: 9 }, "reseller"],
    [
      { accountType: "organization" as const, organizationId: 7, partnerId: 5, resellerId: 9 },
      "organization",
    ],
    [{ accountType: "agent" as const, organizationId: 7, partnerId: 5, resellerId: 9 }, "organization"],
    [
      { accountType: "organization" as const, organizationId: null, partnerId: null, resellerId: null },
      "organization",
    ],
  ])("%j -> %s", (subject, role) => {
    expect(deriveRole(subject)).toBe(role);
  });

  it("legacy accounts are those created before 1692075600000 ms", () => {
    expect(isLegacyAccount(1_692_075_599_999)).toBe(true);
    expect(isLegacyAccount(1_692_075_600_000)).toBe(false);
    expect(isLegacyAccount(undefined)).toBe(false);
  });
});

describe("viewing-as rules", () => {
  it.each<[string, RealRank, ViewingAs[]]>([
    ["super admin: any", superAdmin, ["superAdmin", "partner", "reseller", "owner", "admin"]],
    ["partner: partner and below", partner, ["partner", "reseller", "owner", "admin"]],
    ["reseller: reseller and below", reseller, ["reseller", "owner", "admin"]],
    ["an organisation's owner: owner and admin", { ...orgUser, isOwner: true }, ["owner", "admin"]],
    ["an organisation's admin: admin only", orgUser, ["admin"]],
  ])("allowed for %s", (_name, rank, allowed) => {
    expect([...allowedViewingAs(rank)]).toEqual(allowed);
  });

  it.each<[RealRank, ViewingAs]>([
    [superAdmin, "superAdmin"],
    [partner, "partner"],
    [reseller, "reseller"],
    [orgUser, "admin"],
    [{ superAdmin: false, role: "organization", isOwner: true }, "admin"],
  ])("default for %j is %s", (rank, expected) => {
    expect(defaultViewingAs(rank)).toBe(expected);
  });

  it("a stored value is restored only when the real rank permits it", () => {
    expect(restoreViewingAs("owner", partner)).toBe("owner");
    expect(restoreViewingAs("superAdmin", partner)).toBe("partner");
    expect(restoreViewingAs("partner", reseller)).toBe("reseller");
    expect(restoreViewingAs("reseller", orgUser)).toBe("admin");
    expect(restoreViewingAs("partner", superAdmin)).toBe("partner");
    expect(restoreViewingAs("nonsense", superAdmin)).toBe("superAdmin");
    expect(restoreViewingAs(null, orgUser)).toBe("admin");
    expect(restoreViewingAs("owner", orgUser)).toBe("admin");
    expect(restoreViewingAs("owner", { ...orgUser, isOwner: true })).toBe("owner");
  });

  it.each<[RealRank, ViewingAs, boolean]>([
    [superAdmin, "superAdmin", true],
    [superAdmin, "reseller", true],
    [superAdmin, "owner", false],
    [partner, "partner", true],
    [partner, "admin", false],
    [reseller, "reseller", true],
    [reseller, "owner", false],
    [orgUser, "owner", false],
    [orgUser, "admin", false],
  ])("acting as a higher role: %j viewing as %s -> %s", (rank, viewingAs, expected) => {
    expect(isActingAsHigherRole(rank, viewingAs)).toBe(expected);
  });
});

import { describe, expect, it } from "vitest";
import {
  FEATURE_SLUGS,
  FEATURES,
  featureForSegments,
  loadedFeature,
  loadFeature,
  visibleFeatures,
} from "./registry.ts";

describe("product areas", () => {
  it("lists every area in sidebar order", () => {
    expect(FEATURES.map((feature) => feature.slug)).toEqual([...FEATURE_SLUGS]);
    expect(FEATURES.map((feature) => feature.label)).toEqual([
      "Dashboard",
      "Accounts",
      "Agents",
      "Inbox",
      "Contacts",
      "Calls",
      "Tasks",
      "Knowledge base",
      "Numbers",
      "Developers",
      "Billing",
      "Wallet",
      "Settings",
    ]);
  });

  it("maps path segments to an area", () => {
    expect(featureForSegments([])).toBe("dashboard");
    expect(featureForSegments(["inbox"])).toBe("inbox");
    expect(featureForSegments(["settings", "profile"])).toBe("settings");
    expect(featureForSegments(["paymentSuccess"])).toBe("wallet");
    expect(featureForSegments(["paymentCancel"])).toBe("wallet");
    expect(featureForSegments(["stripePayoutConnectSuccess"])).toBe("wallet");
    expect(featureForSegments(["stripePayoutConnectFailure"])).toBe("wallet");
    expect(featureForSegments(["nope"])).toBeNull();
  });

  it("loads every page as a component", async () => {
    for (const slug of FEATURE_SLUGS) {
      const page = await loadFeature(slug);
      expect(typeof page).toBe("function");
      expect(loadedFeature(slug)).toBe(page);
    }
  });
});

describe("permission-gated areas", () => {
  const all = Object.fromEntries(
    ["canViewBilling", "canViewTasks", "canViewOrg"].map((flag) => [flag, true]),
  ) as Record<string, boolean>;
  const labels = (permissions: Record<string, boolean>, accountType: "partner" | "organization" | "agent") =>
    visibleFeatures({ permissions, accountType }).map((feature) => feature.label);

  it("Billing and Wallet need canViewBilling", () => {
    expect(labels(all, "organization")).toEqual(expect.arrayContaining(["Billing", "Wallet"]));
    const noBilling = labels({ ...all, canViewBilling: false }, "organization");
    expect(noBilling).not.toContain("Billing");
    expect(noBilling).not.toContain("Wallet");
  });

  it("Tasks needs canViewTasks", () => {
    expect(labels({ ...all, canViewTasks: false }, "organization")).not.toContain("Tasks");
  });

  it("Accounts shows for partners, resellers and organisations, not agent accounts", () => {
    expect(labels(all, "partner")).toContain("Accounts");
    expect(labels(all, "organization")).toContain("Accounts");
    expect(labels(all, "agent")).not.toContain("Accounts");
  });

  it("an organisation's own data (contacts, tasks, knowledge, numbers, developer keys) is not a partner's area", () => {
    const organizationAreas = ["Contacts", "Tasks", "Knowledge base", "Numbers", "Developers"];
    expect(labels(all, "organization")).toEqual(expect.arrayContaining(organizationAreas));
    expect(labels(all, "agent")).toEqual(expect.arrayContaining(organizationAreas));
    const partner = labels(all, "partner");
    for (const area of organizationAreas) expect(partner).not.toContain(area);
    expect(partner).toEqual(expect.arrayContaining(["Dashboard", "Accounts", "Agents", "Inbox", "Calls"]));
  });
});

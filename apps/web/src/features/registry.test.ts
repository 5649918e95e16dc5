import { describe, expect, it } from "vitest";
import { FEATURE_SLUGS, FEATURES, featureForSegments, loadedFeature, loadFeature } from "./registry.ts";

describe("product areas", () => {
  it("lists every area in sidebar order", () => {
    expect(FEATURES.map((feature) => feature.slug)).toEqual([...FEATURE_SLUGS]);
    expect(FEATURES.map((feature) => feature.label)).toEqual([
      "Dashboard",
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
    expect(featureForSegments(["paymentSuccess"])).toBeNull();
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

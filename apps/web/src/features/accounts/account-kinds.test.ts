import { describe, expect, it } from "vitest";
import { listKindsFor, overlayAccountId } from "./account-kinds.ts";

describe("the lists of the Accounts area", () => {
  it("follow the account in view and the super admin's view", () => {
    expect(listKindsFor("partner", true)).toEqual(["partners", "resellers", "organizations"]);
    expect(listKindsFor("partner", false)).toEqual(["resellers", "organizations"]);
    expect(listKindsFor("reseller", false)).toEqual(["organizations"]);
    expect(listKindsFor("organization", false)).toEqual(["agents"]);
    expect(listKindsFor("agent", true)).toEqual([]);
  });

  it("read account ids from overlay values", () => {
    expect(overlayAccountId("42")).toBe(42);
    expect(overlayAccountId("true")).toBeNull();
    expect(overlayAccountId("-1")).toBeNull();
    expect(overlayAccountId("")).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { readCachedList, writeCachedList } from "./api.ts";

const list = { success: true as const, accounts: [], totalAccounts: 0, page: 0, pageSize: 20 };

describe("the first page kept in localStorage (orgAccountsData, resellerAccountsData)", () => {
  it("is kept per account in view and viewing-as value", () => {
    writeCachedList("organizations", 3, "reseller", list);
    expect(JSON.parse(window.localStorage.getItem("orgAccountsData") ?? "null")).toMatchObject({
      accountId: 3,
    });
    expect(readCachedList("organizations", 3, "reseller")).toEqual(list);
    expect(readCachedList("organizations", 4, "reseller")).toBeUndefined();
    expect(readCachedList("organizations", 3, "admin")).toBeUndefined();
    writeCachedList("resellers", 2, "partner", list);
    expect(window.localStorage.getItem("resellerAccountsData")).not.toBeNull();
  });

  it("keeps no other list", () => {
    writeCachedList("agents", 42, "owner", list);
    expect(window.localStorage.length).toBe(0);
    expect(readCachedList("agents", 42, "owner")).toBeUndefined();
  });
});

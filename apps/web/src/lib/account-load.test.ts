import { describe, expect, it } from "vitest";
import { fakeAccount, fakeAccountView } from "../test/accounts.ts";
import { accountLoadFailure, realRankOf, viewingAsToStore } from "./account-load.ts";
import { RequestError } from "./shell-api.ts";

describe("accountLoadFailure", () => {
  it("logs out when the server refuses the account (401, 403, 404, success false)", () => {
    for (const status of [401, 403, 404, 400, 200])
      expect(accountLoadFailure(new RequestError(status, "no"))).toBe("logout");
  });

  it("retries network failures and server errors", () => {
    expect(accountLoadFailure(new RequestError(0, "offline"))).toBe("retry");
    expect(accountLoadFailure(new RequestError(503, "busy"))).toBe("retry");
    expect(accountLoadFailure(new Error("?"))).toBe("retry");
  });
});

describe("viewing-as restore (core's restoreViewingAs)", () => {
  const reseller = fakeAccount({ id: 3, accountType: "reseller", organizationId: null, resellerId: null });
  const resellerView = fakeAccountView({ homeAccount: reseller, role: "owner" });
  const orgAdminView = fakeAccountView({ role: "admin" });
  const superAdminView = fakeAccountView({ user: { ...fakeAccountView().user, superAdmin: true } });

  it("derives the real rank from the home account and the super admin flag", () => {
    // The owner's view belongs to an organisation's owner; a reseller's rank is its own.
    expect(realRankOf(resellerView)).toEqual({ superAdmin: false, role: "reseller", isOwner: false });
    expect(realRankOf(fakeAccountView({ role: "owner" }))).toMatchObject({ isOwner: true });
    expect(realRankOf(orgAdminView)).toMatchObject({ superAdmin: false, role: "organization" });
    expect(realRankOf(superAdminView).superAdmin).toBe(true);
  });

  it("keeps a stored value the rank permits", () => {
    expect(viewingAsToStore("owner", resellerView)).toBeNull();
    expect(viewingAsToStore("partner", superAdminView)).toBeNull();
    expect(viewingAsToStore(null, orgAdminView)).toBeNull();
  });

  it("replaces a stored value the rank does not permit by the rank's default", () => {
    expect(viewingAsToStore("partner", resellerView)).toBe("reseller");
    expect(viewingAsToStore("superAdmin", orgAdminView)).toBe("admin");
  });
});

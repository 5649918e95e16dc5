import { describe, expect, it } from "vitest";
import { fakeAccount, fakeAccountView } from "../test/accounts.ts";
import { showsViewingBadge } from "./header-account.tsx";

describe("the Viewing as badge", () => {
  it("is not shown to an owner or admin on their own organisation", () => {
    expect(showsViewingBadge(fakeAccountView())).toBe(false);
    expect(showsViewingBadge(fakeAccountView({ viewingAs: "owner" }))).toBe(false);
    expect(showsViewingBadge(fakeAccountView({ allowedViewingAs: ["admin"] }))).toBe(false);
  });

  it("is shown when a higher level acts on an account below its own", () => {
    const partner = fakeAccount({ id: 2, accountType: "partner", organizationId: null });
    expect(
      showsViewingBadge(
        fakeAccountView({
          homeAccount: partner,
          viewingAs: "partner",
          allowedViewingAs: ["partner", "reseller", "owner", "admin"],
        }),
      ),
    ).toBe(true);
  });

  it("is shown to a super admin on their own account in a lower role, not in their own", () => {
    const allowedViewingAs: ["superAdmin", "partner", "reseller", "owner", "admin"] = [
      "superAdmin",
      "partner",
      "reseller",
      "owner",
      "admin",
    ];
    expect(showsViewingBadge(fakeAccountView({ allowedViewingAs, viewingAs: "superAdmin" }))).toBe(false);
    expect(showsViewingBadge(fakeAccountView({ allowedViewingAs, viewingAs: "owner" }))).toBe(true);
  });
});

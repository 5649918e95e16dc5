import { describe, expect, it } from "vitest";
import {
  ACCOUNT_TYPE_MISMATCH,
  accountAppPath,
  appPath,
  checkAccountType,
  describeAccount,
  parseAppPath,
  segmentForAccountType,
} from "./account-path.ts";

describe("parseAppPath", () => {
  it("returns null outside /app", () => {
    expect(parseAppPath("/")).toBeNull();
    expect(parseAppPath("/mobile/start")).toBeNull();
    expect(parseAppPath("/application")).toBeNull();
  });

  it("reads /app with no account", () => {
    expect(parseAppPath("/app")).toEqual({ account: null, accounts: [], accountPrefix: "/app", rest: [] });
    expect(parseAppPath("/app/")).toEqual({ account: null, accounts: [], accountPrefix: "/app", rest: [] });
    expect(parseAppPath("/app/inbox")?.rest).toEqual(["inbox"]);
  });

  it("names the account in view from a type followed by a numeric id", () => {
    expect(parseAppPath("/app/org/42")).toEqual({
      account: { type: "org", id: 42 },
      accounts: [{ type: "org", id: 42 }],
      accountPrefix: "/app/org/42",
      rest: [],
    });
    for (const type of ["partner", "reseller", "org", "agent"] as const) {
      expect(parseAppPath(`/app/${type}/7/settings`)?.account).toEqual({ type, id: 7 });
    }
  });

  it("keeps the area after the account", () => {
    const parsed = parseAppPath("/app/org/42/inbox");
    expect(parsed?.account).toEqual({ type: "org", id: 42 });
    expect(parsed?.rest).toEqual(["inbox"]);
  });

  it("takes the last pair as the account in view and keeps the chain", () => {
    const parsed = parseAppPath("/app/partner/1/org/42/logs");
    expect(parsed?.account).toEqual({ type: "org", id: 42 });
    expect(parsed?.accounts).toEqual([
      { type: "partner", id: 1 },
      { type: "org", id: 42 },
    ]);
    expect(parsed?.accountPrefix).toBe("/app/partner/1/org/42");
    expect(parsed?.rest).toEqual(["logs"]);
  });

  it("finds a pair after the area too", () => {
    const parsed = parseAppPath("/app/inbox/agent/9");
    expect(parsed?.account).toEqual({ type: "agent", id: 9 });
    expect(parsed?.rest).toEqual(["inbox"]);
  });

  it("ignores a type without a numeric id", () => {
    expect(parseAppPath("/app/org/abc")).toMatchObject({ account: null, rest: ["org", "abc"] });
    expect(parseAppPath("/app/org")).toMatchObject({ account: null, rest: ["org"] });
    expect(parseAppPath("/app/org/-1")).toMatchObject({ account: null, rest: ["org", "-1"] });
    expect(parseAppPath("/app/org/4.2")).toMatchObject({ account: null, rest: ["org", "4.2"] });
    expect(parseAppPath("/app/organization/42")).toMatchObject({ account: null });
  });

  it("decodes the remaining segments", () => {
    expect(parseAppPath("/app/knowledge-base/my%20doc")?.rest).toEqual(["knowledge-base", "my doc"]);
  });
});

describe("appPath", () => {
  it("keeps the account prefix", () => {
    expect(appPath("/app/org/42", "inbox")).toBe("/app/org/42/inbox");
    expect(appPath("/app", "dashboard")).toBe("/app/dashboard");
    expect(appPath("/app")).toBe("/app");
  });
});

describe("describeAccount", () => {
  it("labels the account type", () => {
    expect(describeAccount({ type: "org", id: 42 })).toBe("Organization 42");
    expect(describeAccount({ type: "agent", id: 3 })).toBe("Agent account 3");
  });
});

describe("the account-type check (spec §5)", () => {
  it("passes when the path names no type or the same type", () => {
    expect(checkAccountType(null, "organization")).toBeNull();
    expect(checkAccountType("org", "organization")).toBeNull();
    expect(checkAccountType("reseller", "reseller")).toBeNull();
    expect(checkAccountType("agent", "agent")).toBeNull();
  });

  it("fails with Account type does not match otherwise", () => {
    expect(checkAccountType("reseller", "organization")).toBe("Account type does not match");
    expect(checkAccountType("org", "agent")).toBe(ACCOUNT_TYPE_MISMATCH);
  });
});

describe("accountAppPath", () => {
  it("writes the account's segment", () => {
    expect(accountAppPath("organization", 42)).toBe("/app/org/42");
    expect(accountAppPath("reseller", 3, "accounts")).toBe("/app/reseller/3/accounts");
    expect(segmentForAccountType("agent")).toBe("agent");
  });
});

import { describe, expect, it } from "vitest";
import {
  clearLocalData,
  createMemoryStorage,
  readSession,
  readStoredViewingAs,
  readToken,
  saveSession,
  saveViewingAs,
  updateUserData,
} from "./session.ts";

describe("the stored session (localStorage token, id, userData, viewingAs)", () => {
  it("is empty without a token", () => {
    expect(readSession()).toBeNull();
    window.localStorage.setItem("userData", JSON.stringify({ id: 1 }));
    expect(readSession()).toBeNull();
  });

  it("stores token, id and userData under the spec's keys", () => {
    window.localStorage.setItem("viewingAs", "superAdmin");
    saveSession({
      token: "tok",
      id: 42,
      userData: { id: 42, username: "bluebird", accountId: 42, accountType: "organization" },
    });
    expect(window.localStorage.getItem("token")).toBe("tok");
    expect(window.localStorage.getItem("id")).toBe("42");
    expect(JSON.parse(window.localStorage.getItem("userData") ?? "null")).toEqual({
      id: 42,
      username: "bluebird",
      accountId: 42,
      accountType: "organization",
    });
    // A new sign-in does not inherit the previous person's viewing-as choice.
    expect(window.localStorage.getItem("viewingAs")).toBeNull();
    expect(readToken()).toBe("tok");
    expect(readSession()?.userData?.username).toBe("bluebird");
  });

  it("survives unreadable userData", () => {
    window.localStorage.setItem("token", "tok");
    window.localStorage.setItem("userData", "{broken");
    expect(readSession()).toEqual({ token: "tok", id: 0, userData: null });
  });

  it("merges what the account load learnt into userData", () => {
    saveSession({
      token: "t",
      id: 5,
      userData: { id: 5, username: "u", accountId: null, accountType: null },
    });
    updateUserData({ accountId: 5, accountType: "reseller", fullName: "Rae" });
    expect(readSession()?.userData).toMatchObject({
      id: 5,
      accountId: 5,
      accountType: "reseller",
      fullName: "Rae",
    });
  });

  it("keeps only valid viewing-as values", () => {
    window.localStorage.setItem("viewingAs", "emperor");
    expect(readStoredViewingAs()).toBeNull();
    saveViewingAs("owner");
    expect(readStoredViewingAs()).toBe("owner");
  });

  it("clears everything but the theme", () => {
    saveSession({
      token: "t",
      id: 5,
      userData: { id: 5, username: "u", accountId: null, accountType: null },
    });
    window.localStorage.setItem("theme", "dark");
    window.localStorage.setItem("orgAccountsData", "[]");
    clearLocalData();
    expect(window.localStorage.length).toBe(1);
    expect(window.localStorage.getItem("theme")).toBe("dark");
  });
});

describe("createMemoryStorage", () => {
  it("stands in for localStorage where the browser denies it", () => {
    const storage = createMemoryStorage();
    saveSession(
      { token: "t", id: 1, userData: { id: 1, username: "u", accountId: 1, accountType: "agent" } },
      storage,
    );
    expect(readSession(storage)?.token).toBe("t");
    storage.setItem("theme", "dark");
    clearLocalData(storage);
    expect(storage.length).toBe(1);
    expect(storage.key(0)).toBe("theme");
  });
});

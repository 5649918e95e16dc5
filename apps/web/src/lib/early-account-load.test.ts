import { beforeEach, describe, expect, it, vi } from "vitest";

const fetchAccountView = vi.fn();
vi.mock("./shell-api.ts", () => ({ fetchAccountView: (...args: unknown[]) => fetchAccountView(...args) }));

const { startEarlyAccountLoad, takeEarlyAccountLoad } = await import("./early-account-load.ts");

const input = { token: "t1", targetAccountId: null, viewingAs: null };

describe("the early account load", () => {
  beforeEach(() => {
    fetchAccountView.mockReset();
    fetchAccountView.mockImplementation(async () => ({ success: true, account: { id: 7 } }));
    takeEarlyAccountLoad(input); // forget what an earlier test left
  });

  it("is handed to the account layer once, for the same token, account and viewing-as", async () => {
    startEarlyAccountLoad(input, 1_000);
    expect(fetchAccountView).toHaveBeenCalledTimes(1);
    const taken = takeEarlyAccountLoad({ ...input }, 1_500);
    await expect(taken).resolves.toMatchObject({ account: { id: 7 } });
    expect(takeEarlyAccountLoad(input, 1_600)).toBeNull();
  });

  it("is not used for another account, another viewing-as value or when it is old", () => {
    startEarlyAccountLoad(input, 0);
    expect(takeEarlyAccountLoad({ ...input, targetAccountId: 42 }, 10)).toBeNull();
    startEarlyAccountLoad(input, 0);
    expect(takeEarlyAccountLoad({ ...input, viewingAs: "admin" }, 10)).toBeNull();
    startEarlyAccountLoad(input, 0);
    expect(takeEarlyAccountLoad(input, 60_000)).toBeNull();
  });

  it("starts one request for the same visit, and keeps a failure for the account layer to report", async () => {
    fetchAccountView.mockImplementation(async () => {
      throw new Error("Account not found");
    });
    startEarlyAccountLoad(input, 0);
    startEarlyAccountLoad(input, 5);
    expect(fetchAccountView).toHaveBeenCalledTimes(1);
    await expect(takeEarlyAccountLoad(input, 10)).rejects.toThrow("Account not found");
  });
});

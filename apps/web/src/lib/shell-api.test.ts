import * as api from "@switchboard/api";
import { describe, expect, it } from "vitest";
import { fakeAccountView, stubFetch } from "../test/accounts.ts";
import { offContract } from "../test/contract.ts";
import { fetchAccountView, RequestError, requestJson, revokeToken, SHELL_PATHS } from "./shell-api.ts";

describe("the shell's own calls", () => {
  it("use the route table's paths and methods", () => {
    expect(SHELL_PATHS.getAccount).toBe(api.getAccount.path);
    expect(SHELL_PATHS.logout).toBe(api.logout.path);
    expect(SHELL_PATHS.oneTimeAuth).toBe(api.oneTimeAuth.path);
    expect(api.getAccount.method).toBe("GET");
    expect(api.logout.method).toBe("POST");
    expect(api.oneTimeAuth.method).toBe("GET");
  });

  it("send the token as a Bearer header, targetAccountId and viewingAs in the query", async () => {
    const calls = stubFetch({
      "GET /api/v1/account": () => fakeAccountView(),
      "POST /api/v1/logout": () => ({ success: true }),
    });
    await fetchAccountView({ token: "t", targetAccountId: 42, viewingAs: "owner" });
    expect(Object.fromEntries(calls[0]?.url.searchParams ?? [])).toEqual({
      targetAccountId: "42",
      viewingAs: "owner",
    });
    expect(calls[0]?.headers.get("authorization")).toBe("Bearer t");
    await revokeToken("t", true);
    expect(calls[1]?.url.search).toBe("?everywhere=true");
    expect(calls[1]?.headers.get("authorization")).toBe("Bearer t");
  });

  it("throw the server's message with the status", async () => {
    stubFetch({});
    const error = await requestJson("GET", "/api/v1/nothing").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).status).toBe(404);
    expect((error as RequestError).message).toBe("Not found: GET /api/v1/nothing");
  });

  it("count an account answer with success false as failed", async () => {
    stubFetch({
      "GET /api/v1/account": () =>
        offContract({ success: false, message: "Gone" }, "a 200 answer with success false counts as failed"),
    });
    await expect(fetchAccountView({ token: "t", targetAccountId: null, viewingAs: null })).rejects.toThrow(
      "Gone",
    );
  });
});

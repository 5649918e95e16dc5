import { getAccount } from "@switchboard/api";
import { afterEach, describe, expect, it, vi } from "vitest";
import { signInAs } from "../test/accounts.ts";
import { apiClient, withViewingAs } from "./api-client.ts";
import { saveViewingAs, setTargetAccountId } from "./session.ts";

afterEach(() => {
  window.localStorage.clear();
  setTargetAccountId(null);
});

describe("the web app's API client", () => {
  it("sends the session as an Authorization header, never as ?token= (issue 32 item 19)", async () => {
    const calls = signInAs();
    setTargetAccountId(42);
    saveViewingAs("owner");
    await apiClient.call(getAccount);
    const call = calls[0];
    expect(call?.headers.get("authorization")).toBe("Bearer test-token");
    expect(call?.url.searchParams.has("token")).toBe(false);
    expect(call?.url.searchParams.get("targetAccountId")).toBe("42");
    expect(call?.url.searchParams.get("viewingAs")).toBe("owner");
  });
});

describe("withViewingAs", () => {
  it("adds the viewing-as value to calls that carry a token", async () => {
    const inner = vi.fn(async () => new Response("{}"));
    const wrapped = withViewingAs(inner as unknown as typeof fetch, () => "owner");
    await wrapped("/api/v2/listOrganizations?token=t&targetAccountId=3");
    expect(inner).toHaveBeenCalledWith(
      "/api/v2/listOrganizations?token=t&targetAccountId=3&viewingAs=owner",
      undefined,
    );
  });

  it("adds it to calls that carry the token as a header", async () => {
    const inner = vi.fn(async () => new Response("{}"));
    const init = { headers: { authorization: "Bearer t" } };
    await withViewingAs(inner as unknown as typeof fetch, () => "owner")(
      "/api/v2/logs?targetAccountId=3",
      init,
    );
    expect(inner).toHaveBeenCalledWith("/api/v2/logs?targetAccountId=3&viewingAs=owner", init);
  });

  it("leaves public calls and calls without a stored value alone", async () => {
    const inner = vi.fn(async () => new Response("{}"));
    await withViewingAs(inner as unknown as typeof fetch, () => "owner")("/api/v1/signin/email");
    await withViewingAs(inner as unknown as typeof fetch, () => null)("/api/v1/account?token=t");
    expect(inner.mock.calls.map((call) => (call as unknown[])[0])).toEqual([
      "/api/v1/signin/email",
      "/api/v1/account?token=t",
    ]);
  });
});

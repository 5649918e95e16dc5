import { describe, expect, it, vi } from "vitest";
import { withViewingAs } from "./api-client.ts";

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

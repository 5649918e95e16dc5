import type { APIRequestContext } from "@playwright/test";
import { DEMO, expect, rootSession } from "./helpers.ts";

/** A call of the server's API as the demo owner (a fresh session token); a refusal fails the journey. */
export async function ownerApi(
  request: APIRequestContext,
  method: "GET" | "POST",
  path: string,
  data?: unknown,
) {
  const token = encodeURIComponent(await rootSession(request, DEMO.owner));
  const url = `${path}${path.includes("?") ? "&" : "?"}token=${token}`;
  const response = method === "GET" ? await request.get(url) : await request.post(url, { data });
  expect(response.ok(), `${method} ${path}: ${await response.text()}`).toBe(true);
  return response.json();
}

/** The id of the demo organisation's Front Desk agent. */
export async function frontDeskId(request: APIRequestContext): Promise<number> {
  const { accounts } = (await ownerApi(request, "GET", "/api/v2/listAccounts?pagination=false")) as {
    accounts: { id: number; displayName: string }[];
  };
  const agent = accounts.find((account) => account.displayName === "Front Desk");
  expect(agent, "the demo Front Desk agent").toBeTruthy();
  return (agent as { id: number }).id;
}

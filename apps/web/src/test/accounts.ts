import { PERMISSION_FLAGS, type PermissionFlag } from "@switchboard/core";
import { vi } from "vitest";
import { sessionStorageChanged } from "../lib/session.ts";
import type { AccountView } from "../lib/shell-api.ts";
import { checkFixture, isOffContract, type OffContract, routeFor } from "./contract.ts";

type Account = AccountView["account"];

export function fakeAccount(overrides: Partial<Account> = {}): Account {
  return {
    id: 42,
    accountType: "organization",
    parentId: 3,
    partnerId: 2,
    resellerId: 3,
    organizationId: 42,
    username: "bluebird-dental",
    displayName: "Bluebird Dental",
    email: "owner@bluebird.example",
    phoneNumber: null,
    timestamp: 1_700_000_000_000,
    details: { orgName: "Bluebird Dental" },
    settings: {},
    socialLinks: {},
    socialLinksPosition: null,
    switchboardPhoneNumber: null,
    subscription: null,
    premium: false,
    smsEnabled: false,
    externalAccountId: null,
    externalBillingId: null,
    disabled: false,
    ...overrides,
  };
}

export function permissions(
  value: boolean | ((flag: PermissionFlag) => boolean) = true,
): Record<PermissionFlag, boolean> {
  return Object.fromEntries(
    PERMISSION_FLAGS.map((flag) => [flag, typeof value === "function" ? value(flag) : value]),
  ) as Record<PermissionFlag, boolean>;
}

/** An account answer: by default the owner of organisation 42 on their own account. */
export function fakeAccountView(overrides: Partial<AccountView> = {}): AccountView {
  const account = overrides.account ?? fakeAccount();
  return {
    success: true,
    account,
    homeAccount: account,
    user: {
      id: 7,
      email: "owner@bluebird.example",
      phoneNumber: null,
      fullName: "Olive Owner",
      superAdmin: false,
      temporary: false,
    },
    role: "owner",
    viewingAs: "admin",
    allowedViewingAs: ["owner", "admin"],
    actingAsHigherRole: false,
    permissions: permissions((flag) => flag !== "canInspectJSON"),
    timeZone: null,
    ...overrides,
  };
}

/** Stores a session in localStorage, as a sign-in would. */
export function storeTestSession(token = "test-token", id = 42): void {
  window.localStorage.setItem("token", token);
  window.localStorage.setItem("id", String(id));
  window.localStorage.setItem(
    "userData",
    JSON.stringify({ id, username: "bluebird-dental", accountId: id, accountType: "organization" }),
  );
  sessionStorageChanged();
}

export type FetchCall = { method: string; url: URL; body: unknown; headers: Headers };
type Handler = (call: FetchCall) => unknown;

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

/** Contract violations of faked answers in the running test; setup.ts fails the test when any remain. */
export const fixtureViolations: Error[] = [];

/** Checks a handler's answer against its route's schema; answers the Response to send. */
async function contractAnswer(method: string, pathname: string, answer: unknown): Promise<Response> {
  if (isOffContract(answer)) {
    return answer.answer instanceof Response ? answer.answer : json(answer.answer);
  }
  const response = answer instanceof Response ? answer : json(answer);
  const route = routeFor(method, pathname);
  if (!route) throw new Error(`No route of the table answers ${method} ${pathname}`);
  if (response.headers.get("content-type")?.includes("application/json")) {
    checkFixture(route, await response.clone().json(), response.status);
  }
  return response;
}

/**
 * Replaces fetch: `handlers` maps "METHOD /path" to an answer (a Response, or a value sent as JSON 200).
 * Every answer is checked against its route's response schema (or the error shape), so a fixture that
 * drifts from the contract fails the test; wrap a deliberately malformed answer in `offContract`.
 * Unknown calls answer 404. Answers the list of calls made.
 */
export function stubFetch(handlers: Record<string, Handler>): FetchCall[] {
  for (const key of Object.keys(handlers)) {
    const [method = "", pathname = ""] = key.split(" ");
    if (!routeFor(method, pathname)) throw new Error(`stubFetch: no route of the table answers ${key}`);
  }
  const calls: FetchCall[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
      const raw = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      const url = new URL(raw, "http://localhost");
      const method = (init?.method ?? "GET").toUpperCase();
      let body: unknown;
      if (typeof init?.body === "string") body = JSON.parse(init.body);
      else if (init?.body !== undefined) body = init.body;
      const call = { method, url, body, headers: new Headers(init?.headers) };
      calls.push(call);
      const handler = handlers[`${method} ${url.pathname}`];
      if (!handler) return json({ success: false, message: `Not found: ${method} ${url.pathname}` }, 404);
      try {
        return await contractAnswer(method, url.pathname, await handler(call));
      } catch (error) {
        // The app may swallow a failed fetch (an error state on screen); setup.ts fails the test anyway.
        fixtureViolations.push(error as Error);
        throw error;
      }
    }),
  );
  return calls;
}

/** Signs in (localStorage) and answers GET /api/v1/account with `view`, plus any other handlers. */
export function signInAs(
  view: AccountView | ((call: FetchCall) => AccountView | Response | OffContract) = fakeAccountView(),
  handlers: Record<string, Handler> = {},
): FetchCall[] {
  storeTestSession();
  return stubFetch({
    "GET /api/v1/account": (call) => (typeof view === "function" ? view(call) : view),
    "POST /api/v1/logout": () => ({ success: true }),
    ...handlers,
  });
}

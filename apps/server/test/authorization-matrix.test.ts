import { fillPath, pathParamNames, type RouteDefinition, routeTable } from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueSessionToken } from "../src/modules/auth/sessions.ts";
import { buildHierarchy, fingerprints } from "./fixtures.ts";
import { buildTestApp } from "./helpers.ts";

/**
 * Generated from the route table: every route that needs a token is called by callers who must not reach
 * the target, and must refuse without leaking it. New routes are covered by being in the table.
 */
const guarded = routeTable.filter((route) => route.auth !== "none");
const OWNER_ONLY = new Set([
  "canViewBilling",
  "canManageBilling",
  "canDeleteOrg",
  "canDeactivateOrg",
  "canInspectJSON",
]);

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
/** Organisation API tokens of O1: one its owner made, one the super admin made for it (no higher reach). */
let apiTokens: { owner: string; superAdmin: string };

async function makeApiToken(sessionToken: string, orgId: number): Promise<string> {
  const res = await app.inject({
    method: "POST",
    url: `/api/v2/tokens?token=${sessionToken}&targetAccountId=${orgId}`,
    payload: { description: "matrix", type: "full" },
  });
  expect(res.statusCode).toBe(200);
  return res.json().token as string;
}

beforeAll(async () => {
  app = await buildTestApp();
  world = await buildHierarchy(app);
  const { O1 } = world.accounts;
  apiTokens = {
    owner: await makeApiToken(world.members.o1Owner.token, O1.id),
    superAdmin: await makeApiToken(world.members.superAdmin.token, O1.id),
  };
});
afterAll(async () => {
  await app.close();
});

async function call(
  route: RouteDefinition,
  query: Record<string, string | number>,
  paramValue: number,
  bearer?: string,
) {
  const params = Object.fromEntries(pathParamNames(route.path).map((name) => [name, paramValue]));
  const search = new URLSearchParams(
    Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
  ).toString();
  const res = await app.inject({
    method: route.method,
    url: `${fillPath(route.path, params)}${search ? `?${search}` : ""}`,
    ...(bearer ? { headers: { authorization: `Bearer ${bearer}` } } : {}),
    ...(route.method === "GET"
      ? {}
      : { payload: { targetAccountId: paramValue, targetOrganizationId: paramValue } }),
  });
  return { status: res.statusCode, body: res.body };
}

function expectRefusedWithoutLeak(
  result: { status: number; body: string },
  victim: Parameters<typeof fingerprints>[0],
) {
  expect([401, 403, 404]).toContain(result.status);
  expect(JSON.parse(result.body)).toMatchObject({ success: false });
  for (const mark of fingerprints(victim)) expect(result.body).not.toContain(mark);
}

describe.each(guarded.map((route) => [`${route.method} ${route.path}`, route] as const))(
  "%s",
  (_name, route) => {
    it("(a) refuses a call without a token", async () => {
      const { O1 } = world.accounts;
      const result = await call(route, { targetAccountId: O1.id }, O1.id);
      expect(result.status).toBe(401);
      expect(JSON.parse(result.body)).toEqual({ success: false, message: "No auth token provided" });
    });

    it("(b) refuses a token of an unrelated organisation", async () => {
      const { O1 } = world.accounts;
      expectRefusedWithoutLeak(
        await call(route, { token: world.members.uOwner.token, targetAccountId: O1.id }, O1.id),
        O1,
      );
    });

    it("(c) refuses an organisation admin acting on its parent reseller", async () => {
      const { R1 } = world.accounts;
      expectRefusedWithoutLeak(
        await call(route, { token: world.members.o1Admin.token, targetAccountId: R1.id }, R1.id),
        R1,
      );
    });

    it("(d) refuses a reseller acting on another partner's organisation", async () => {
      const { O2 } = world.accounts;
      expectRefusedWithoutLeak(
        await call(route, { token: world.members.r1Owner.token, targetAccountId: O2.id }, O2.id),
        O2,
      );
    });

    it("(e) never answers another tenant's data through path ids, even on the caller's own account", async () => {
      const { O2 } = world.accounts;
      // A token of its own: a route such as logout may revoke the token it is called with.
      const token = await issueSessionToken(
        app.context.database.db,
        world.members.o1Owner.userId,
        world.accounts.O1.id,
      );
      const result = await call(route, { token }, O2.id);
      for (const mark of fingerprints(O2)) expect(result.body).not.toContain(mark);
    });

    it("(f) refuses an organisation API token (Bearer) acting on another organisation or its parent", async () => {
      const { O2, R1 } = world.accounts;
      for (const bearer of [apiTokens.owner, apiTokens.superAdmin]) {
        expectRefusedWithoutLeak(await call(route, { targetAccountId: O2.id }, O2.id, bearer), O2);
        expectRefusedWithoutLeak(await call(route, { targetAccountId: R1.id }, R1.id, bearer), R1);
      }
    });

    it("(g) an API token made by a super admin acts as an admin of its organisation, no higher", async () => {
      const { O1 } = world.accounts;
      const result = await call(route, { targetAccountId: O1.id }, O1.id, apiTokens.superAdmin);
      if (route.auth === "adminToken" || route.sessionOnly) expect(result.status).toBe(403);
      // The owner-only flags are not an admin's.
      else if (route.permission && OWNER_ONLY.has(route.permission)) expect(result.status).toBe(403);
    });
  },
);

/**
 * The routes anyone may call without a token, named one by one: a new route is public only on purpose.
 * Each answers only what is public (a public page, a visitor's own chat) or acts on its own input.
 */
const PUBLIC_ROUTES = new Set([
  "healthz",
  "readyz",
  "systemInfo",
  "signupEmail",
  "signinEmail",
  "emailVerify",
  "signinPhoneNumber",
  "signinPhoneNumberVerify",
  "allocateTempUserSession",
  "oneTimeAuth",
  "devOutbox",
  "getPublicProfile",
  "lookupDomain",
  "getPublicMessages",
  "twilioInboundSms",
  "twilioMessageStatus",
  "visitProfileLink",
  "getPublicPage",
  "sendPublicMessage",
  "ipCorrelator",
  // Twilio's voice webhook (X-Twilio-Signature checked when a token is set) and its media stream (a signed
  // one-minute ticket of that call).
  "twilioVoiceAnswer",
  "twilioMediaStream",
  // Twilio's callbacks on a transfer's <Dial> (signed as the voice webhook); they reach only that call.
  "twilioDialStatus",
  // A public page's visitor talks to the page's published agent: the visitor's anonymous session is checked
  // by the handler (as for sendPublicMessage); it reaches no account's data, only a call with its agent.
  "publicVoiceCall",
  // Google's return from its consent page (a signed state names the account) and the sandbox's stand-in for
  // that page, which sends codes only back to this server's callback.
  "googleCallback",
  "sandboxGoogleConsentPage",
  "sandboxGoogleConsent",
  // Money: the sandbox's hosted checkout page (by its unguessable checkout id, like Stripe's) and its form;
  // Stripe's webhook (Stripe-Signature checked); the sandbox lightning wallet, which pays only the sandbox
  // node's own invoices and shows the payer the preimage.
  "sandboxCheckoutPage",
  "sandboxCheckoutPay",
  "stripeWebhook",
  // Billing: the sandbox's subscription checkout and portal pages (their unguessable ids are the key)
  // and Stripe's signed billing webhook.
  "sandboxSubscribePage",
  "sandboxSubscribePay",
  "sandboxBillingPortalPage",
  "sandboxBillingPortalCancel",
  "stripeBillingWebhook",
  "sandboxLightningWalletPage",
  "sandboxLightningPay",
  // Withdrawals: the payouts sandbox's page of one batch (by its unguessable batch id, like the checkout),
  // and the sandbox lightning wallet's receive form (an invoice of the sandbox wallet, no account's data).
  "sandboxPayoutsPage",
  "sandboxLightningReceive",
  // Payment links: what a link shows to whoever opens it (by its slug: the organisation's display name, the
  // title and amount the owner chose to publish); paying it is the card checkout with a slug (anonymousWith).
  "fetchPaymentSlug",
  // Stripe Connect: the sandbox's stand-in for Stripe's hosted onboarding (by its unguessable onboarding id,
  // like Stripe's Account Link), which only enables the test account it was made for.
  "sandboxStripeConnectPage",
  "sandboxStripeConnectSubmit",
]);

/**
 * Guarded routes that a call without any token may still use through one body field (`anonymousWith`): the
 * handler then acts on that field only. Each is named here on purpose, with its reason.
 */
const ANONYMOUS_WITH = new Map([
  // A payment link's card checkout: credits the link's organisation, answers only the checkout's url.
  ["checkoutCredit", "slug"],
  // A payment link's lightning invoice, and its payer's proof (no balance answered).
  ["requestInvoice", "slug"],
  ["provePendingInvoicePaid", "slug"],
]);

describe("the matrix itself", () => {
  it("names every route usable without a token through a body field explicitly", () => {
    const open = routeTable
      .filter((route) => route.anonymousWith)
      .map((route) => [route.id, route.anonymousWith]);
    expect(open).toEqual([...ANONYMOUS_WITH.entries()]);
  });

  it("names every public route (auth none) explicitly", () => {
    const open = routeTable.filter((route) => route.auth === "none").map((route) => route.id);
    expect(open.filter((id) => !PUBLIC_ROUTES.has(id))).toEqual([]);
  });

  it("covers every guarded route of the table", () => {
    expect(guarded.length).toBeGreaterThan(0);
    expect(guarded.length).toBe(
      routeTable.filter((r) => r.auth === "token" || r.auth === "adminToken").length,
    );
  });

  it("lets the right callers through (so refusals above are not an always-refusing hook)", async () => {
    const { O1, A1, O2 } = world.accounts;
    const asOwner = await app.inject({
      method: "GET",
      url: `/api/v1/account?token=${world.members.o1Owner.token}`,
    });
    expect(asOwner.json().account.id).toBe(O1.id);
    const partnerOnAgent = await app.inject({
      method: "GET",
      url: `/api/v1/account?token=${world.members.p1Owner.token}&targetAccountId=${A1.id}`,
    });
    expect(partnerOnAgent.json().account.id).toBe(A1.id);
    const superAdmin = await app.inject({
      method: "GET",
      url: `/api/v1/account?token=${world.members.superAdmin.token}&targetAccountId=${O2.id}`,
    });
    expect(superAdmin.json().account.id).toBe(O2.id);
    const apiToken = await app.inject({
      method: "GET",
      url: "/api/v1/account",
      headers: { authorization: `Bearer ${apiTokens.superAdmin}` },
    });
    expect(apiToken.json().account.id).toBe(O1.id);
  });
});

import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, test as base, expect, type Page } from "@playwright/test";
import { within } from "../vitest.time-limits.ts";

// Shared steps of the browser journeys: the demo people, codes from the dev outbox, and signing in.

export { expect };

/** What a journey may cause on purpose: patterns over the lines {@link test} collects. */
export type Problems = {
  /**
   * Allows console errors, failed requests and error answers that match (the lines read
   * `answer 404 POST /api/v1/...`, `request failed net::ERR_... GET /api/...`, `console error: ...`,
   * `page error: ...`).
   */
  allow: (...patterns: RegExp[]) => void;
};

function shortUrl(url: string): string {
  const parsed = new URL(url);
  // Tokens stay out of the report.
  for (const key of ["token", "oneTimeToken"])
    if (parsed.searchParams.has(key)) parsed.searchParams.set(key, "…");
  return `${parsed.pathname}${parsed.search}`;
}

/** Impacts that fail an accessibility check (issue #23: 0 serious or critical axe violations). */
const BLOCKING_IMPACTS = new Set(["serious", "critical"]);

/**
 * Checks the page as it is now with axe (WCAG 2.1 A and AA rules) and fails on any serious or critical
 * violation, naming each rule, its help text and the first elements it found. Call it in a journey once
 * a page (or an overlay) has rendered what it shows: `await checkA11y(page)`; `label` names the page in
 * the failure. Other journeys may call it on their own pages the same way.
 */
export async function checkA11y(page: Page, label = new URL(page.url()).pathname): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  const blocking = results.violations
    .filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ""))
    .map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.help} — ${violation.nodes
          .slice(0, 3)
          .map((node) => `${node.target.join(" ")} ${node.html.slice(0, 160)}`)
          .join(", ")}`,
    );
  expect(blocking, `serious or critical accessibility violations on ${label}`).toEqual([]);
}

/**
 * Every journey's `test` (issue #23 item 10): it fails on any console error, page error, failed request or
 * error answer (4xx/5xx) the test did not cause. A test allows what it causes on purpose with
 * `problems.allow(/answer 404 .*\/api\/v1\/signin/)`. A request the browser aborts counts unless the page
 * navigated (a new address, a reload, an overlay in the query) while it was in flight — a user's doing — or
 * the app asked the same again at once (a refetch that replaced a stale one, as a realtime update does).
 */
export const test = base.extend<{ problems: Problems }>({
  problems: [
    async ({ page }, use) => {
      const lines: string[] = [];
      const allowed: RegExp[] = [];
      // When the page started navigating (a document request: goto, reload, a link) or changed its address.
      const navigations: number[] = [];
      const startedAt = new WeakMap<object, number>();
      const aborted: { line: string; key: string; start: number; end: number }[] = [];
      const started: { key: string; at: number }[] = [];
      page.on("framenavigated", (frame) => {
        if (frame === page.mainFrame()) navigations.push(Date.now());
      });
      page.on("request", (request) => {
        const now = Date.now();
        startedAt.set(request, now);
        started.push({ key: `${request.method()} ${request.url()}`, at: now });
        if (request.isNavigationRequest() && request.frame() === page.mainFrame())
          navigations.push(Date.now());
      });
      page.on("console", (message) => {
        // A failed load is reported below with its address and method.
        if (message.type() === "error" && !message.text().startsWith("Failed to load resource"))
          lines.push(`console error: ${message.text()}`);
      });
      page.on("pageerror", (error) => lines.push(`page error: ${error.message}`));
      page.on("requestfailed", (request) => {
        const failure = request.failure()?.errorText ?? "failed";
        const line = `request failed ${failure} ${request.method()} ${shortUrl(request.url())}`;
        if (failure === "net::ERR_ABORTED")
          aborted.push({
            line,
            key: `${request.method()} ${request.url()}`,
            start: startedAt.get(request) ?? 0,
            end: Date.now(),
          });
        else lines.push(line);
      });
      page.on("response", (response) => {
        if (response.status() >= 400)
          lines.push(
            `answer ${response.status()} ${response.request().method()} ${shortUrl(response.url())}`,
          );
      });
      await use({ allow: (...patterns) => allowed.push(...patterns) });
      // An abort counts unless the page navigated while the request was in flight (the event of the
      // navigation may arrive just after the abort's; on a busy machine the page may start a refetch
      // between a navigation and the render that drops it).
      for (const request of aborted) {
        const navigated = navigations.some(
          (at) => at >= request.start - within(500) && at <= request.end + within(1000),
        );
        const askedAgain = started.some(
          (other) =>
            other.key === request.key && other.at > request.start && other.at <= request.end + within(1000),
        );
        if (!navigated && !askedAgain) lines.push(request.line);
      }
      const unexpected = lines.filter((line) => !allowed.some((pattern) => pattern.test(line)));
      expect(unexpected, "console errors and failed requests the test did not cause").toEqual([]);
    },
    { auto: true },
  ],
});

/** The demo hierarchy the e2e server seeds on its fresh database (NODE_ENV unset = development). */
export const DEMO = {
  superAdmin: "admin@switchboard.local",
  partner: "partner@acmevoice.example",
  reseller: "reseller@northwind.example",
  owner: "owner@bluebird.example",
  admin: "admin@bluebird.example",
} as const;

export const DEMO_NAMES = {
  partner: "Acme Voice",
  reseller: "Northwind Resellers",
  organization: "Bluebird Dental",
} as const;

type OutboxMessage = {
  id: number;
  channel: "email" | "sms";
  to: string;
  subject: string | null;
  body: string;
};

/** A unique e-mail address for a test (sign-up, invitations). */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@e2e.example`;
}

async function outbox(request: APIRequestContext): Promise<OutboxMessage[]> {
  const response = await request.get("/api/dev/outbox?limit=200");
  expect(response.ok(), "the dev outbox answers").toBe(true);
  return ((await response.json()) as { messages: OutboxMessage[] }).messages;
}

/** The newest outbox message id so far: messages after it were sent by what the test does next. */
export async function outboxMark(request: APIRequestContext): Promise<number> {
  return (await outbox(request))[0]?.id ?? 0;
}

/** Waits for a message to `to` newer than `after` (newest first) and answers it. */
export async function waitForMessage(
  request: APIRequestContext,
  to: string,
  after: number,
): Promise<OutboxMessage> {
  let found: OutboxMessage | undefined;
  await expect
    .poll(
      async () => {
        found = (await outbox(request)).find(
          (message) => message.id > after && message.to.toLowerCase() === to.toLowerCase(),
        );
        return found !== undefined;
      },
      { message: `a message to ${to} in the dev outbox`, timeout: within(20_000) },
    )
    .toBe(true);
  return found as OutboxMessage;
}

/** The 6-digit code of the newest message to `to` after `after`. */
export async function codeFor(request: APIRequestContext, to: string, after: number): Promise<string> {
  const message = await waitForMessage(request, to, after);
  const code = /\b(\d{6})\b/.exec(`${message.subject ?? ""} ${message.body}`)?.[1];
  expect(code, `a 6-digit code in "${message.subject}"`).toBeTruthy();
  return code as string;
}

/** The first link of the newest message to `to` after `after`. */
export async function linkFor(request: APIRequestContext, to: string, after: number): Promise<string> {
  const message = await waitForMessage(request, to, after);
  const link = /https?:\/\/\S+/.exec(message.body)?.[0];
  expect(link, `a link in "${message.subject}"`).toBeTruthy();
  return link as string;
}

/**
 * One signed-in session per person and worker, made through the API (request a code, read it from the
 * outbox, submit it). Codes are rate limited per address and per network (5 and 20 per 15 minutes), so
 * the tests do not each sign in by code: they hand this session to the page through a one-time token.
 */
const rootSessions = new Map<string, Promise<string>>();

async function signInByCode(request: APIRequestContext, email: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const mark = await outboxMark(request);
    const asked = await request.post("/api/v1/signin/email", { data: { email } });
    expect(asked.ok(), `sign-in code for ${email}: ${await asked.text()}`).toBe(true);
    const verificationCode = await codeFor(request, email, mark);
    const verified = await request.post("/api/v1/email/verify", { data: { email, verificationCode } });
    if (verified.ok()) return ((await verified.json()) as { token: string }).token;
    // Two workers that sign the same person in at once: the second code replaces the first. The other
    // worker's session is shared as soon as it has one.
    const shared = readSharedSession(email);
    if (shared) return shared;
    if (attempt === 3) expect(verified.ok(), `sign-in of ${email}: ${await verified.text()}`).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 500 + Math.random() * 1500));
  }
}

/**
 * Sessions shared by the workers of one run, in the e2e server's data folder (scripts/e2e-server.mjs wipes
 * it when the server starts, so a session never outlives its database): a worker restarted after a failure
 * does not ask for codes again, which would run into the network's limit.
 */
const sharedSessionDir = path.join(
  os.tmpdir(),
  `switchboard-e2e-${process.env.E2E_PORT ?? "3100"}`,
  "e2e-sessions",
);
const sharedSessionFile = (email: string) => path.join(sharedSessionDir, encodeURIComponent(email));

function readSharedSession(email: string): string | null {
  try {
    return readFileSync(sharedSessionFile(email), "utf8").trim() || null;
  } catch {
    return null;
  }
}

function writeSharedSession(email: string, token: string): void {
  mkdirSync(sharedSessionDir, { recursive: true });
  const temporary = `${sharedSessionFile(email)}.${process.pid}`;
  writeFileSync(temporary, token);
  renameSync(temporary, sharedSessionFile(email));
}

export function rootSession(request: APIRequestContext, email: string): Promise<string> {
  let session = rootSessions.get(email);
  if (!session) {
    const shared = readSharedSession(email);
    session = shared
      ? Promise.resolve(shared)
      : signInByCode(request, email).then((token) => {
          writeSharedSession(email, token);
          return token;
        });
    rootSessions.set(email, session);
    session.catch(() => rootSessions.delete(email));
  }
  return session;
}

/** Forgets a session the server no longer accepts (the next rootSession signs in again). */
function forgetSession(email: string): void {
  rootSessions.delete(email);
  rmSync(sharedSessionFile(email), { force: true });
}

/** A one-time token that signs `email` in (POST /api/v1/oneTimeAuth with their session). */
export async function oneTimeToken(request: APIRequestContext, email: string): Promise<string> {
  let token = await rootSession(request, email);
  let response = await request.post(`/api/v1/oneTimeAuth?token=${encodeURIComponent(token)}`);
  if (response.status() === 401) {
    forgetSession(email);
    token = await rootSession(request, email);
    response = await request.post(`/api/v1/oneTimeAuth?token=${encodeURIComponent(token)}`);
  }
  expect(response.ok(), `one-time token for ${email}: ${await response.text()}`).toBe(true);
  return ((await response.json()) as { oneTimeToken: string }).oneTimeToken;
}

/**
 * Opens `path` signed in as `email`: the address carries a one-time token, which the app exchanges for a
 * fresh session of its own (so a test that logs out does not end another test's session).
 */
export async function signInAs(page: Page, email: string, path = "/app"): Promise<void> {
  const token = await oneTimeToken(page.request, email);
  const url = new URL(path, "http://placeholder.invalid");
  url.searchParams.set("oneTimeToken", token);
  await page.goto(`${url.pathname}${url.search}${url.hash}`);
  // The first load after the exchange builds the session and the account view: give it more than the
  // default 5 s when the machine is busy running every journey at once.
  await expect(page).not.toHaveURL(/oneTimeToken=/, { timeout: within(15_000) });
  await expect(page.getByTestId("account-name")).toBeVisible({ timeout: within(15_000) });
}

/** The id of the account a demo person signs in to (GET /api/v1/account with their session). */
export async function homeAccountId(request: APIRequestContext, email: string): Promise<number> {
  const token = await rootSession(request, email);
  const response = await request.get(`/api/v1/account?token=${encodeURIComponent(token)}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { account: { id: number } }).account.id;
}

/** Searches the accounts a person can reach (POST /api/v2/searchAccount) and answers the first match's id. */
export async function findAccountId(
  request: APIRequestContext,
  asEmail: string,
  phrase: string,
): Promise<number> {
  const token = await rootSession(request, asEmail);
  const response = await request.post(`/api/v2/searchAccount?token=${encodeURIComponent(token)}`, {
    data: { phrase },
  });
  expect(response.ok(), `search for ${phrase}: ${await response.text()}`).toBe(true);
  const { accounts } = (await response.json()) as { accounts: { id: number; displayName: string }[] };
  const match = accounts.find((account) => account.displayName === phrase) ?? accounts[0];
  expect(match, `an account matching ${phrase}`).toBeTruthy();
  return (match as { id: number }).id;
}

export function sidebar(page: Page) {
  return page.getByRole("navigation", { name: "Product areas" });
}

/** Opens the user menu of the header. */
export async function openUserMenu(page: Page) {
  await page.getByRole("button", { name: "User menu" }).click();
  await expect(page.getByRole("menuitem", { name: "Log out" })).toBeVisible();
}

/**
 * Signs a brand-new organisation owner up through /signup (code from the dev outbox) and waits until the
 * app shows the new organisation; answers the owner's e-mail address.
 */
export async function signUpOwner(page: Page, business: string, prefix = "owner"): Promise<string> {
  const email = uniqueEmail(prefix);
  await page.goto("/signup");
  await page.getByLabel("E-mail address").fill(email);
  await page.getByLabel("Your name").fill("Rosa Owner");
  await page.getByLabel("Business name").fill(business);
  const mark = await outboxMark(page.request);
  await page.getByRole("button", { name: "Send code" }).click();
  await page.getByLabel("6-digit code").fill(await codeFor(page.request, email, mark));
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("account-name")).toHaveText(business, { timeout: within(15_000) });
  return email;
}

/** A wait a journey names for itself: five times it on CI (the one rule for every test: vitest.time-limits.ts). */
export { within };

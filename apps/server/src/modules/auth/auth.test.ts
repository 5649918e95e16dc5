import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildTestApp, logCapture } from "../../../test/helpers.ts";
import { ConfigError, loadConfig } from "../../config.ts";

let app: FastifyInstance;
const logs = logCapture();
let ipCounter = 1;
/** Each test speaks from its own address so the per-IP limit only bites where a test wants it. */
const nextIp = () => `10.0.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;

beforeAll(async () => {
  app = await buildTestApp({ LOG_LEVEL: "info" }, { logDestination: logs.stream });
});
afterAll(async () => {
  await app.close();
});

async function post(url: string, payload: unknown, ip = nextIp(), token?: string) {
  const res = await app.inject({
    method: "POST",
    url: token ? `${url}?token=${token}` : url,
    payload: payload as object,
    remoteAddress: ip,
  });
  return { status: res.statusCode, body: res.json() };
}

async function latestCode(to: string): Promise<string> {
  const res = await app.inject({ method: "GET", url: "/api/dev/outbox?limit=50" });
  const message = res.json().messages.find((m: { to: string }) => m.to === to);
  const code = /\b(\d{6})\b/.exec(message?.body ?? "")?.[1];
  if (!code) throw new Error(`no code in the outbox for ${to}`);
  return code;
}

async function signUp(email: string, extra: Record<string, unknown> = {}) {
  expect(
    (await post("/api/v1/signup/email", { email, businessName: "Acme Plumbing", ...extra })).status,
  ).toBe(200);
  const res = await post("/api/v1/email/verify", { email, verificationCode: await latestCode(email) });
  expect(res.status).toBe(200);
  return res.body as { token: string; accountId: number; username: string; id: number };
}

const db = () => app.context.database.db;
const rowsOf = async (query: ReturnType<typeof sql>) =>
  ((await db().execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;

describe("sign-up and sign-in by e-mail", () => {
  it("sign-up e-mails a code; the code creates the organisation with its owner and signs in", async () => {
    const sent = await post("/api/v1/signup/email", {
      email: "Owner@Example.com",
      name: "Olive Owner",
      businessName: "Acme Plumbing",
    });
    expect(sent).toEqual({
      status: 200,
      body: { success: true, message: "We sent a 6-digit code to owner@example.com." },
    });
    const code = await latestCode("owner@example.com");
    const session = await post("/api/v1/email/verify", {
      email: "owner@example.com",
      verificationCode: Number(code),
    });
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({
      success: true,
      username: "acme-plumbing",
      accountType: "organization",
    });
    expect(session.body.token).toBe(session.body.authToken);
    expect(session.body.token.length).toBeGreaterThanOrEqual(43);

    const again = await post("/api/v1/signup/email", { email: "owner@example.com" });
    expect(again).toEqual({
      status: 409,
      body: {
        success: false,
        message: "An account with this e-mail address already exists. Sign in instead.",
      },
    });

    expect((await post("/api/v1/signin/email", { email: "owner@example.com" })).status).toBe(200);
    const signin = await post("/api/v1/email/verify", {
      email: "owner@example.com",
      verificationCode: await latestCode("owner@example.com"),
    });
    expect(signin.body).toMatchObject({ accountId: session.body.accountId, username: "acme-plumbing" });
    expect(signin.body.token).not.toBe(session.body.token);
  });

  it("sign-in answers alike whether or not an account uses the address, and sends only to an account", async () => {
    await signUp("known@example.com");
    const known = await post("/api/v1/signin/email", { email: "known@example.com" });
    const unknown = await post("/api/v1/signin/email", { email: "nobody@example.com" });
    expect(known).toEqual({
      status: 200,
      body: { success: true, message: "If known@example.com has an account, we sent it a 6-digit code." },
    });
    expect(unknown).toEqual({
      status: 200,
      body: { success: true, message: "If nobody@example.com has an account, we sent it a 6-digit code." },
    });
    const outbox = (await app.inject({ method: "GET", url: "/api/dev/outbox?limit=50" })).json();
    expect(outbox.messages.filter((m: { to: string }) => m.to === "nobody@example.com")).toEqual([]);
    // Nothing an unknown address was answered can be used: a later sign-up's code still works.
    const session = await signUp("nobody@example.com");
    expect(session.accountId).toEqual(expect.any(Number));
  });

  it("sign-in requests for unknown addresses count against the address's and the network's limits", async () => {
    for (let i = 0; i < 5; i++)
      expect((await post("/api/v1/signin/email", { email: "ghost@example.com" })).status).toBe(200);
    expect(await post("/api/v1/signin/email", { email: "ghost@example.com" })).toEqual({
      status: 429,
      body: {
        success: false,
        message: "Too many codes were requested for this address. Try again in 15 minutes.",
      },
    });
    const ip = "192.0.2.78";
    for (let i = 0; i < 20; i++)
      expect((await post("/api/v1/signin/email", { email: `ghost${i}@example.com` }, ip)).status).toBe(200);
    expect((await post("/api/v1/signin/email", { email: "ghost99@example.com" }, ip)).status).toBe(429);
    expect((await post("/api/v1/signin/phoneNumber", { phoneNumber: "+1 415 555 0199" }, ip)).status).toBe(
      429,
    );
  });

  it("counts an IPv6 client by its /64: a fresh address in the same network shares the limit", async () => {
    for (let i = 0; i < 20; i++) {
      const ip = `2001:db8:7:7::${(i + 1).toString(16)}`;
      expect((await post("/api/v1/signup/email", { email: `v6-${i}@example.com` }, ip)).status).toBe(200);
    }
    expect(
      (await post("/api/v1/signup/email", { email: "v6-99@example.com" }, "2001:db8:7:7:ffff::1")).body,
    ).toEqual({
      success: false,
      message: "Too many codes were requested from your network. Try again in 15 minutes.",
    });
    expect(
      (await post("/api/v1/signup/email", { email: "v6-98@example.com" }, "2001:db8:7:8::1")).status,
    ).toBe(200);
  });

  it("a wrong code is refused with the spec's message, and a code works only once", async () => {
    await post("/api/v1/signup/email", { email: "once@example.com" });
    const code = await latestCode("once@example.com");
    const wrong = code === "000000" ? "111111" : "000000";
    expect(
      await post("/api/v1/email/verify", { email: "once@example.com", verificationCode: wrong }),
    ).toEqual({
      status: 400,
      body: { success: false, message: "Could not verify code." },
    });
    expect(
      (await post("/api/v1/email/verify", { email: "once@example.com", verificationCode: code })).status,
    ).toBe(200);
    expect(
      (await post("/api/v1/email/verify", { email: "once@example.com", verificationCode: code })).body
        .message,
    ).toBe("Could not verify code.");
  });

  it("after five wrong tries even the right code is refused", async () => {
    await post("/api/v1/signup/email", { email: "tries@example.com" });
    const code = await latestCode("tries@example.com");
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) {
      expect(
        (await post("/api/v1/email/verify", { email: "tries@example.com", verificationCode: wrong })).status,
      ).toBe(400);
    }
    expect(
      await post("/api/v1/email/verify", { email: "tries@example.com", verificationCode: code }),
    ).toEqual({
      status: 400,
      body: { success: false, message: "Too many wrong tries. Request a new code." },
    });
  });

  it("an expired code is refused", async () => {
    await post("/api/v1/signup/email", { email: "late@example.com" });
    const code = await latestCode("late@example.com");
    await db().execute(sql`update verification_codes set expires_at = now() - interval '1 second'`);
    expect(
      (await post("/api/v1/email/verify", { email: "late@example.com", verificationCode: code })).body,
    ).toEqual({
      success: false,
      message: "Could not verify code.",
    });
  });

  it("a code must be six digits", async () => {
    expect(
      (await post("/api/v1/email/verify", { email: "x@example.com", verificationCode: "12345a" })).body,
    ).toEqual({
      success: false,
      message: "verificationCode: The code has 6 digits.",
    });
  });

  it("limits codes per address and per network with a 429", async () => {
    for (let i = 0; i < 5; i++)
      expect((await post("/api/v1/signup/email", { email: "busy@example.com" })).status).toBe(200);
    expect(await post("/api/v1/signup/email", { email: "busy@example.com" })).toEqual({
      status: 429,
      body: {
        success: false,
        message: "Too many codes were requested for this address. Try again in 15 minutes.",
      },
    });
    const ip = "192.0.2.77";
    for (let i = 0; i < 20; i++)
      expect((await post("/api/v1/signup/email", { email: `n${i}@example.com` }, ip)).status).toBe(200);
    expect(await post("/api/v1/signup/email", { email: "n99@example.com" }, ip)).toEqual({
      status: 429,
      body: {
        success: false,
        message: "Too many codes were requested from your network. Try again in 15 minutes.",
      },
    });
  });
});

describe("sign-up is one transaction", () => {
  it("concurrent sign-ups with one business name each end with their own organisation", async () => {
    const emails = Array.from({ length: 6 }, (_, i) => `race${i}@example.com`);
    for (const email of emails)
      expect((await post("/api/v1/signup/email", { email, businessName: "Race Dental" })).status).toBe(200);
    const codes = await Promise.all(emails.map(latestCode));
    const sessions = await Promise.all(
      emails.map((email, i) => post("/api/v1/email/verify", { email, verificationCode: codes[i] })),
    );
    expect(sessions.map((s) => s.status)).toEqual(emails.map(() => 200));
    const usernames = sessions.map((s) => s.body.username as string);
    expect(new Set(usernames).size).toBe(6);
    for (const session of sessions)
      expect(session.body).toMatchObject({ accountType: "organization", accountId: expect.any(Number) });
    expect(usernames).toContain("race-dental");
    // Each of them signs in to their organisation later.
    for (const [i, email] of emails.entries()) {
      await post("/api/v1/signin/email", { email });
      const again = await post("/api/v1/email/verify", { email, verificationCode: await latestCode(email) });
      expect(again.body.accountId).toBe(sessions[i]?.body.accountId);
    }
  });

  it("a user an earlier sign-up left without an organisation can sign up again", async () => {
    await db().execute(
      sql`insert into users (email, email_verified_at) values ('stranded@example.com', now())`,
    );
    const session = await signUp("stranded@example.com", { businessName: "Stranded Bakery" });
    expect(session).toMatchObject({ username: "stranded-bakery", accountId: expect.any(Number) });
    expect(
      await rowsOf(sql`select count(*)::int as n from users where email = 'stranded@example.com'`),
    ).toEqual([{ n: 1 }]);
  });
});

describe("sessions", () => {
  it("a token works by query or bearer header; logout revokes it", async () => {
    const { token } = await signUp("session@example.com");
    const byQuery = await post("/api/v1/oneTimeAuth", {}, nextIp(), token);
    expect(byQuery.status).toBe(200);
    const byHeader = await app.inject({
      method: "POST",
      url: "/api/v1/oneTimeAuth",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(byHeader.statusCode).toBe(200);
    expect((await post("/api/v1/logout", {}, nextIp(), token)).body).toEqual({ success: true });
    expect(await post("/api/v1/oneTimeAuth", {}, nextIp(), token)).toEqual({
      status: 401,
      body: { success: false, message: "Could not authenticate with token" },
    });
  });

  it("without a token: No auth token provided", async () => {
    expect(await post("/api/v1/logout", {})).toEqual({
      status: 401,
      body: { success: false, message: "No auth token provided" },
    });
  });

  it("a one-time token hands the session to another device once", async () => {
    const { token, username, accountId } = await signUp("handoff@example.com");
    const { oneTimeToken } = (await post("/api/v1/oneTimeAuth", {}, nextIp(), token)).body;
    const first = await app.inject({
      method: "GET",
      url: `/api/v1/oneTimeAuth?oneTimeToken=${oneTimeToken}`,
    });
    expect(first.json()).toMatchObject({ success: true, id: accountId, username });
    expect(first.json().token).not.toBe(token);
    const second = await app.inject({
      method: "GET",
      url: `/api/v1/oneTimeAuth?oneTimeToken=${oneTimeToken}`,
    });
    expect(second.statusCode).toBe(401);
    expect(second.json().message).toBe("Could not authenticate with token");
  });

  it("logging out ends the one-time tokens of that session, not the user's other sessions", async () => {
    const { token } = await signUp("leaving@example.com");
    await post("/api/v1/signin/email", { email: "leaving@example.com" });
    const other = (
      await post("/api/v1/email/verify", {
        email: "leaving@example.com",
        verificationCode: await latestCode("leaving@example.com"),
      })
    ).body.token as string;
    const { oneTimeToken } = (await post("/api/v1/oneTimeAuth", {}, nextIp(), token)).body;
    const kept = (await post("/api/v1/oneTimeAuth", {}, nextIp(), other)).body.oneTimeToken;
    expect((await post("/api/v1/logout", {}, nextIp(), token)).body).toEqual({ success: true });
    const exchange = (oneTime: string) =>
      app.inject({ method: "GET", url: `/api/v1/oneTimeAuth?oneTimeToken=${oneTime}` });
    const refused = await exchange(oneTimeToken);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ success: false, message: "Could not authenticate with token" });
    expect((await exchange(kept)).statusCode).toBe(200);
    expect((await post("/api/v1/oneTimeAuth", {}, nextIp(), other)).status).toBe(200);
  });

  it("sign out everywhere ends every session and one-time token of the user", async () => {
    const { token } = await signUp("everywhere@example.com");
    const bystander = await signUp("bystander@example.com");
    await post("/api/v1/signin/email", { email: "everywhere@example.com" });
    const other = (
      await post("/api/v1/email/verify", {
        email: "everywhere@example.com",
        verificationCode: await latestCode("everywhere@example.com"),
      })
    ).body.token as string;
    const { oneTimeToken } = (await post("/api/v1/oneTimeAuth", {}, nextIp(), other)).body;
    const res = await app.inject({
      method: "POST",
      url: "/api/v1/logout?everywhere=true",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.json()).toEqual({ success: true });
    for (const ended of [token, other])
      expect(await post("/api/v1/oneTimeAuth", {}, nextIp(), ended)).toEqual({
        status: 401,
        body: { success: false, message: "Could not authenticate with token" },
      });
    const exchanged = await app.inject({
      method: "GET",
      url: `/api/v1/oneTimeAuth?oneTimeToken=${oneTimeToken}`,
    });
    expect(exchanged.statusCode).toBe(401);
    expect((await post("/api/v1/oneTimeAuth", {}, nextIp(), bystander.token)).status).toBe(200);
  });

  it("an anonymous session becomes a real account at sign-up", async () => {
    const temp = await app.inject({ method: "GET", url: "/api/v1/allocateTempUserSession" });
    const { id, token } = temp.json();
    expect(id).toBeGreaterThan(0);
    await post("/api/v1/signup/email", { email: "was-anon@example.com", tempUserToken: token });
    const session = await post("/api/v1/email/verify", {
      email: "was-anon@example.com",
      verificationCode: await latestCode("was-anon@example.com"),
    });
    expect(session.status).toBe(200);
    expect(await rowsOf(sql`select id, temporary, email from users where id = ${id}`)).toEqual([
      { id, temporary: false, email: "was-anon@example.com" },
    ]);
    expect((await post("/api/v1/logout", {}, nextIp(), token)).status).toBe(401);
  });

  it("a signed-in user's token passed as tempUserToken is neither taken over nor revoked", async () => {
    const { token, accountId } = await signUp("keeps-session@example.com");
    const other = await signUp("newcomer@example.com", { tempUserToken: token });
    expect(other.accountId).not.toBe(accountId);
    expect((await post("/api/v1/oneTimeAuth", {}, nextIp(), token)).status).toBe(200);
    expect(await rowsOf(sql`select email from users where email like '%keeps-session%'`)).toEqual([
      { email: "keeps-session@example.com" },
    ]);
  });

  it("phone sign-in works once the number is verified on the signed-in account", async () => {
    const { token, accountId } = await signUp("phone@example.com");
    const before = await post("/api/v1/signin/phoneNumber", { phoneNumber: "(415) 555-0101" });
    expect(before.body.message).toBe(
      "If +14155550101 is the verified number of an account, we texted it a 6-digit code.",
    );
    expect(
      (
        await post(
          "/api/v1/phoneNumber/requestVerificationCode",
          { phoneNumber: "415-555-0101" },
          nextIp(),
          token,
        )
      ).status,
    ).toBe(200);
    const code = await latestCode("+14155550101");
    expect(
      (
        await post(
          "/api/v1/phoneNumber/validateVerificationCode",
          { verificationCode: code },
          nextIp(),
          token,
        )
      ).status,
    ).toBe(200);
    expect((await post("/api/v1/signin/phoneNumber", { phoneNumber: "+1 415 555 0101" })).status).toBe(200);
    const session = await post("/api/v1/signin/phoneNumber/verify", {
      phoneNumber: "4155550101",
      verificationCode: await latestCode("+14155550101"),
    });
    expect(session.body).toMatchObject({ success: true, accountId });
  });

  it("keeps no plaintext token or code in the database or the logs", async () => {
    const { token } = await signUp("secret@example.com");
    await post("/api/v1/signin/email", { email: "secret@example.com" });
    const code = await latestCode("secret@example.com");
    const sha = (text: string) => createHash("sha256").update(text).digest("hex");
    const tokens = JSON.stringify(await rowsOf(sql`select * from auth_tokens`));
    expect(tokens).not.toContain(token);
    expect(tokens).toContain(sha(token));
    const [stored] = await rowsOf(
      sql`select code_hash from verification_codes where address = 'secret@example.com' order by id desc limit 1`,
    );
    expect(stored?.code_hash).toMatch(/^[0-9a-f]{64}$/);
    for (const plain of [code, sha(code), sha(`secret@example.com\n${code}`)])
      expect(stored?.code_hash).not.toBe(plain);

    await post("/api/v1/email/verify", { email: "secret@example.com", verificationCode: code });
    const text = logs.text();
    expect(text).toContain("/api/v1/email/verify");
    expect(text).not.toContain(token);
    expect(text).not.toContain(code);
  });
});

describe("anonymous sessions", () => {
  const allocate = (ip: string) =>
    app.inject({ method: "GET", url: "/api/v1/allocateTempUserSession", remoteAddress: ip });

  it("one network may start 20 in 15 minutes, also when it asks in parallel", async () => {
    const answers = await Promise.all(Array.from({ length: 25 }, () => allocate("198.51.100.7")));
    expect(answers.filter((res) => res.statusCode === 200)).toHaveLength(20);
    const refused = answers.filter((res) => res.statusCode === 429);
    expect(refused).toHaveLength(5);
    expect(refused[0]?.json()).toEqual({
      success: false,
      message: "Too many sessions were started from your network. Try again in 15 minutes.",
    });
    expect((await allocate("198.51.100.8")).statusCode).toBe(200);
  });

  it("an IPv6 client is one network per /64, whichever of its addresses it uses", async () => {
    for (let i = 0; i < 20; i++) expect((await allocate(`2001:db8:9:9::${i + 1}`)).statusCode).toBe(200);
    expect((await allocate("2001:db8:9:9:abcd::1")).statusCode).toBe(429);
    expect((await allocate("2001:db8:9:a::1")).statusCode).toBe(200);
  });

  it("one that sign-up never took over expires after a day and is removed", async () => {
    const { id, token } = (await allocate("198.51.100.9")).json();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 24 * 60 * 60_000 + 60_000 });
    try {
      expect((await allocate("198.51.100.10")).statusCode).toBe(200);
      expect(await rowsOf(sql`select id from users where id = ${id}`)).toEqual([]);
      await post("/api/v1/signup/email", { email: "too-late@example.com", tempUserToken: token });
      const session = await post("/api/v1/email/verify", {
        email: "too-late@example.com",
        verificationCode: await latestCode("too-late@example.com"),
      });
      expect(session.status).toBe(200);
      expect(
        await rowsOf(sql`select id from users where email = 'too-late@example.com' and id = ${id}`),
      ).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("dev outbox", () => {
  it("lists what was sent, newest first, with to, channel, subject, body and time", async () => {
    await post("/api/v1/signup/email", { email: "first@example.com" });
    await post("/api/v1/signup/email", { email: "second@example.com" });
    const { messages } = (await app.inject({ method: "GET", url: "/api/dev/outbox?limit=2" })).json();
    expect(messages.map((m: { to: string }) => m.to)).toEqual(["second@example.com", "first@example.com"]);
    expect(messages[0]).toMatchObject({
      channel: "email",
      subject: expect.stringMatching(/^Your Switchboard code: \d{6}$/),
    });
    expect(Date.parse(messages[0].time)).not.toBeNaN();
  });

  it("is refused with 404 in production", async () => {
    const production = await buildTestApp({ NODE_ENV: "production", SECRET_KEY: "s".repeat(40) });
    const res = await production.inject({ method: "GET", url: "/api/dev/outbox" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, message: "Not found: GET /api/dev/outbox" });
    await production.close();
  });

  it("is off in development unless DEV_OUTBOX=true says so", async () => {
    const development = await buildTestApp({ NODE_ENV: "development", DEMO_DATA: "false", DEV_OUTBOX: "" });
    const res = await development.inject({ method: "GET", url: "/api/dev/outbox" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, message: "Not found: GET /api/dev/outbox" });
    await development.close();
  });

  it("refuses DEV_OUTBOX=true for a server reachable from other machines, and in production", () => {
    expect(() => loadConfig({ DEV_OUTBOX: "true", HOST: "0.0.0.0" })).toThrow(
      'Invalid configuration: DEV_OUTBOX=true shows every sign-in code to whoever asks, so HOST must be a loopback address such as 127.0.0.1 (got "0.0.0.0")',
    );
    expect(() => loadConfig({ DEV_OUTBOX: "true", HOST: "::" })).toThrow(ConfigError);
    expect(() =>
      loadConfig({ DEV_OUTBOX: "true", NODE_ENV: "production", SECRET_KEY: "s".repeat(40) }),
    ).toThrow("Invalid configuration: DEV_OUTBOX cannot be true when NODE_ENV is production");
    for (const host of ["127.0.0.1", "::1", "[::1]", "localhost"])
      expect(loadConfig({ DEV_OUTBOX: "true", HOST: host }).devOutbox).toBe(true);
    expect(loadConfig({}).devOutbox).toBe(false);
  });
});

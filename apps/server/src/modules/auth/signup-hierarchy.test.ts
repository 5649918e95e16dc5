import * as api from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestClient, testClient } from "../../../test/api-client.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { startSmtpServer } from "../../../test/smtp-server.ts";
import { domains } from "../../db/schema/index.ts";

/** Organisations that sign up land in the hierarchy (issue 23), and code messages carry the host's brand. */
const WHITE_LABEL_HOST = "voice.partner-one.example";
const SUPPORT_URL = "https://help.partner-one.example";

let app: FastifyInstance;
let client: TestClient;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
let ipCounter = 1;

beforeAll(async () => {
  app = await buildTestApp();
  client = testClient(app);
  world = await buildHierarchy(app);
  await app.context.database.db.insert(domains).values({
    accountId: world.accounts.P1.id,
    host: WHITE_LABEL_HOST,
    name: "Partner One Voice",
    settings: { supportUrl: SUPPORT_URL },
    isDefault: true,
  });
});
afterAll(async () => {
  await app.close();
});

// Sign-up and verify go through app.inject: they need the Host header (white-label host) and a client
// address of their own (per-network limits), which the typed client does not send.
async function post(app: FastifyInstance, url: string, payload: object, host: string) {
  const res = await app.inject({
    method: "POST",
    url,
    payload,
    headers: { host },
    remoteAddress: `10.9.0.${ipCounter++}`,
  });
  return { status: res.statusCode, body: res.json() };
}

async function outbox(to: string) {
  const res = await app.inject({ method: "GET", url: "/api/dev/outbox?limit=100" });
  const message = res.json().messages.find((m: { to: string }) => m.to === to);
  if (!message) throw new Error(`nothing was sent to ${to}`);
  return message as { subject: string | null; body: string };
}

const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? "";

async function signUp(email: string, businessName: string, host: string) {
  expect((await post(app, "/api/v1/signup/email", { email, businessName }, host)).status).toBe(200);
  const code = codeIn((await outbox(email)).body);
  const session = await post(app, "/api/v1/email/verify", { email, verificationCode: code }, host);
  expect(session.status).toBe(200);
  return session.body as { accountId: number; token: string };
}

async function organizationsOf(token: string) {
  const res = await client(token).call(api.listOrganizations, { query: { pagination: false } });
  return res.accounts;
}

describe("where a self-signed-up organisation belongs", () => {
  it("on the main host: under the platform's partner (made once, also by concurrent first sign-ups)", async () => {
    const [first, second] = await Promise.all([
      signUp("first@main.example", "Main Street Dental", "127.0.0.1:3000"),
      signUp("second@main.example", "Second Avenue Dental", "127.0.0.1:3000"),
    ]);
    const listed = await organizationsOf(world.members.superAdmin.token);
    const mine = listed.filter((o) => o.id === first?.accountId || o.id === second?.accountId);
    expect(mine.map((o) => o.displayName).sort()).toEqual(["Main Street Dental", "Second Avenue Dental"]);
    const partnerIds = new Set(mine.map((o) => o.partnerId));
    expect(partnerIds.size).toBe(1);
    const [platformId] = [...partnerIds];
    expect(platformId).toEqual(expect.any(Number));
    expect(mine.every((o) => o.parentId === platformId)).toBe(true);

    const partners = await client(world.members.superAdmin.token).call(api.listPartners, {
      query: { pagination: false },
    });
    const platform = partners.accounts.filter((p) => p.displayName === "Switchboard");
    expect(platform.map((p) => p.id)).toEqual([platformId]);
    // Another partner does not see them.
    expect((await organizationsOf(world.members.p1Owner.token)).map((o) => o.id)).not.toContain(
      first?.accountId,
    );
  });

  it("on a partner's white-label host: under that partner, and the super admin lists it too", async () => {
    const session = await signUp("owner@wl.example", "White Label Bakery", WHITE_LABEL_HOST);
    const partnerList = await organizationsOf(world.members.p1Owner.token);
    expect(partnerList.find((o) => o.id === session.accountId)).toMatchObject({
      displayName: "White Label Bakery",
      partnerId: world.accounts.P1.id,
      parentId: world.accounts.P1.id,
    });
    const superList = await organizationsOf(world.members.superAdmin.token);
    expect(superList.map((o) => o.displayName)).toEqual(
      expect.arrayContaining(["White Label Bakery", "Main Street Dental", "Second Avenue Dental"]),
    );
    expect(superList.map((o) => o.id)).toEqual(
      expect.arrayContaining([world.accounts.O1.id, world.accounts.O2.id, world.accounts.U.id]),
    );
    expect((await organizationsOf(world.members.r1Owner.token)).map((o) => o.id)).not.toContain(
      session.accountId,
    );
  });
});

describe("the brand of code messages", () => {
  it("at a partner's host the sign-in e-mail names the partner and its support address, not the product", async () => {
    await signUp("brand@wl.example", "Brand Check", WHITE_LABEL_HOST);
    expect(
      (await post(app, "/api/v1/signin/email", { email: "brand@wl.example" }, WHITE_LABEL_HOST)).status,
    ).toBe(200);
    const mail = await outbox("brand@wl.example");
    expect(mail.subject).toMatch(/^Your Partner One Voice code: \d{6}$/);
    expect(mail.body).toContain("Your Partner One Voice code is");
    expect(mail.body).toContain(SUPPORT_URL);
    expect(`${mail.subject} ${mail.body}`).not.toContain("Switchboard");

    await post(app, "/api/v1/signin/email", { email: "brand@wl.example" }, "127.0.0.1:3000");
    expect((await outbox("brand@wl.example")).subject).toMatch(/^Your Switchboard code: \d{6}$/);
  });

  it("at a partner's host the texted code names the partner", async () => {
    const { token } = await signUp("texts@wl.example", "Text Check", WHITE_LABEL_HOST);
    const res = await app.inject({
      method: "POST",
      url: `/api/v1/phoneNumber/requestVerificationCode?token=${token}`,
      payload: { phoneNumber: "(415) 555-0177" },
      headers: { host: WHITE_LABEL_HOST },
    });
    expect(res.statusCode).toBe(200);
    const text = await outbox("+14155550177");
    expect(text.body).toMatch(/^Your Partner One Voice code is \d{6}\./);
    expect(text.body).toContain(SUPPORT_URL);
    expect(text.body).not.toContain("Switchboard");
  });

  it("the e-mail's sender name is the partner's brand", async () => {
    const smtp = await startSmtpServer();
    const mailing = await buildTestApp({
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}?ignoreTLS=true`,
      EMAIL_FROM: "Switchboard <no-reply@switchboard.example>",
    });
    try {
      const partners = await buildHierarchy(mailing);
      await mailing.context.database.db.insert(domains).values({
        accountId: partners.accounts.P1.id,
        host: WHITE_LABEL_HOST,
        name: "Partner One Voice",
        settings: { supportUrl: SUPPORT_URL },
      });
      const res = await post(mailing, "/api/v1/signup/email", { email: "from@wl.example" }, WHITE_LABEL_HOST);
      expect(res.status).toBe(200);
      expect(smtp.received).toHaveLength(1);
      const data = smtp.received[0]?.data ?? "";
      expect(data).toContain("From: Partner One Voice <no-reply@switchboard.example>");
      expect(data).toMatch(/Subject: Your Partner One Voice code: \d{6}/);
    } finally {
      await mailing.close();
      smtp.server.close();
    }
  });
});

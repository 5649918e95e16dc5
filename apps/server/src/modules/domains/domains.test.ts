import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller } from "../../../test/api-call.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { accounts } from "../../db/schema/index.ts";

let app: FastifyInstance;
let call: ReturnType<typeof apiCaller>;
let w: Awaited<ReturnType<typeof buildHierarchy>>;
let host: string;
let second: string;

beforeAll(async () => {
  app = await buildTestApp();
  call = apiCaller(app);
  w = await buildHierarchy(app);
  host = `voice-${w.tag}.acme.example`;
  second = `calls-${w.tag}.acme.example`;
});
afterAll(async () => {
  await app.close();
});

const save = (token: string, body: Record<string, unknown>, targetAccountId?: number) =>
  call("POST", "/api/v2/domain", { token, body, ...(targetAccountId ? { targetAccountId } : {}) });
const lookup = (domain: string) => call("POST", "/api/v1/domain/lookup", { body: { domain } });

describe("a partner's white-label domains", () => {
  it("a partner adds a domain (stored lower-case; its first is the default)", async () => {
    const res = await save(w.members.p1Owner.token, {
      domain: `https://${host.toUpperCase()}/app`,
      name: "Acme Voice",
      image: "https://cdn.acme.example/logo.png",
      settings: {
        supportUrl: "https://support.acme.example",
        smsMessaging: true,
        appScripts: ["https://cdn.acme.example/chat.js"],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.domain).toMatchObject({
      host,
      partnerId: w.accounts.P1.id,
      isDefault: true,
      settings: {
        supportUrl: "https://support.acme.example",
        smsMessaging: true,
        allowEmbeds: false,
        appScripts: ["https://cdn.acme.example/chat.js"],
      },
    });
  });

  it("POST /api/v1/domain/lookup answers the profile with no token, for the host however it is written", async () => {
    const res = await lookup(`HTTPS://${host}:8443/app/inbox?x=1`);
    expect(res.body).toEqual({
      success: true,
      profile: {
        id: w.accounts.P1.id,
        name: "Acme Voice",
        details: { image: "https://cdn.acme.example/logo.png" },
        settings: {
          supportUrl: "https://support.acme.example",
          smsMessaging: true,
          allowEmbeds: false,
          appScripts: ["https://cdn.acme.example/chat.js"],
        },
        host,
      },
    });
  });

  it("an unknown or malformed host answers 404 'Invalid domain data'", async () => {
    for (const domain of ["nowhere.example", "", "not a host"]) {
      expect(await lookup(domain)).toMatchObject({
        status: 404,
        body: { success: false, message: "Invalid domain data" },
      });
    }
  });

  it("changing a domain merges its settings; a second domain is not the default until made so", async () => {
    const changed = await save(w.members.p1Owner.token, { domain: host, settings: { allowEmbeds: true } });
    expect(changed.body.domain.settings).toMatchObject({ allowEmbeds: true, smsMessaging: true });
    const added = await save(w.members.p1Owner.token, { domain: second });
    expect(added.body.domain.isDefault).toBe(false);
    // Without its own name or image, the profile shows the partner's.
    expect(added.body.profile).toMatchObject({ name: `p1 ${w.tag} Display`, details: { image: null } });

    const made = await call("POST", "/api/v2/domain/default", {
      token: w.members.p1Owner.token,
      body: { domain: second },
    });
    expect(made.body.domain).toMatchObject({ host: second, isDefault: true });
    const list = await call("GET", "/api/v2/domains", { token: w.members.p1Owner.token });
    expect(list.body.domains.map((d: { host: string; isDefault: boolean }) => [d.host, d.isDefault])).toEqual(
      [
        [second, true],
        [host, false],
      ],
    );
    const current = await call("GET", "/api/v2/domain", { token: w.members.p1Owner.token });
    expect(current.body.domain.host).toBe(second);
    const named = await call("GET", "/api/v2/domain", {
      token: w.members.p1Owner.token,
      query: { domain: host },
    });
    expect(named.body.profile.name).toBe("Acme Voice");
  });

  it("another partner can neither take nor see the host", async () => {
    const taken = await save(w.members.superAdmin.token, { domain: host }, w.accounts.P2.id);
    expect(taken).toMatchObject({ status: 409, body: { message: "This domain is already in use." } });
    const seen = await call("GET", "/api/v2/domain", {
      token: w.members.superAdmin.token,
      targetAccountId: w.accounts.P2.id,
      query: { domain: host },
    });
    expect(seen).toMatchObject({ status: 404, body: { message: "Domain not found" } });
    const none = await call("GET", "/api/v2/domain", {
      token: w.members.superAdmin.token,
      targetAccountId: w.accounts.P2.id,
    });
    expect(none).toMatchObject({
      status: 404,
      body: { message: "This partner has no white-label domain yet." },
    });
    const removed = await call("DELETE", "/api/v2/domain", {
      token: w.members.superAdmin.token,
      targetAccountId: w.accounts.P2.id,
      body: { domain: host },
    });
    expect(removed.status).toBe(404);
  });

  it("domains belong to partners: resellers and organisations are refused", async () => {
    for (const token of [w.members.r1Owner.token, w.members.o1Owner.token]) {
      const res = await save(token, { domain: `x-${w.tag}.example` });
      expect(res).toMatchObject({
        status: 400,
        body: { message: "White-label domains belong to a partner account." },
      });
    }
  });

  it("validates host, own address, image and scripts", async () => {
    const badHost = await save(w.members.p1Owner.token, { domain: "not a host" });
    expect(badHost).toMatchObject({
      status: 400,
      body: { message: "domain: Enter a domain name such as voice.example.com." },
    });
    const own = await save(w.members.p1Owner.token, { domain: "127.0.0.1" });
    expect(own).toMatchObject({
      status: 400,
      body: { message: "This is the product's own address, not a white-label domain." },
    });
    const script = await save(w.members.p1Owner.token, {
      domain: host,
      settings: { appScripts: ["http://cdn.acme.example/a.js"] },
    });
    expect(script.status).toBe(400);
    const image = await save(w.members.p1Owner.token, { domain: host, image: "javascript:alert(1)" });
    expect(image.status).toBe(400);
  });

  it("a disabled partner's host is not looked up", async () => {
    await app.context.database.db
      .update(accounts)
      .set({ disabledAt: new Date() })
      .where(eq(accounts.id, w.accounts.P1.id));
    expect((await lookup(host)).status).toBe(404);
    await app.context.database.db
      .update(accounts)
      .set({ disabledAt: null })
      .where(eq(accounts.id, w.accounts.P1.id));
    expect((await lookup(host)).status).toBe(200);
  });

  it("removing the default domain makes the remaining one the default", async () => {
    const res = await call("DELETE", "/api/v2/domain", {
      token: w.members.p1Owner.token,
      body: { domain: second },
    });
    expect(res.body).toEqual({ success: true, message: "Domain removed." });
    const list = await call("GET", "/api/v2/domains", { token: w.members.p1Owner.token });
    expect(list.body.domains).toEqual([expect.objectContaining({ host, isDefault: true })]);
    expect((await lookup(second)).status).toBe(404);
  });
});

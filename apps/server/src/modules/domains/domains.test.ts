import * as api from "@switchboard/api";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectRefusal, type TestClient, testClient } from "../../../test/api-client.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { accounts } from "../../db/schema/index.ts";

let app: FastifyInstance;
let client: TestClient;
let w: Awaited<ReturnType<typeof buildHierarchy>>;
let host: string;
let second: string;

beforeAll(async () => {
  app = await buildTestApp();
  client = testClient(app);
  w = await buildHierarchy(app);
  host = `voice-${w.tag}.acme.example`;
  second = `calls-${w.tag}.acme.example`;
});
afterAll(async () => {
  await app.close();
});

const save = (token: string, body: api.RouteBody<typeof api.saveDomain>, targetAccountId?: number) =>
  client(token, targetAccountId).call(api.saveDomain, { body });
const lookup = (domain: string) => client().call(api.lookupDomain, { body: { domain } });

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
    expect(res.domain).toMatchObject({
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
    expect(res).toEqual({
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

  it("the product's own host answers mainHost without an error (issue #23 item 10)", async () => {
    for (const domain of ["127.0.0.1", "localhost", "http://127.0.0.1:3000/app"])
      expect(await lookup(domain)).toEqual({ success: true, mainHost: true, profile: null });
  });

  it("an unknown or malformed host answers 404 'Invalid domain data'", async () => {
    for (const domain of ["nowhere.example", "", "not a host"]) {
      const refused = await expectRefusal(lookup(domain), 404);
      expect(refused.body).toEqual({ success: false, message: "Invalid domain data" });
    }
  });

  it("changing a domain merges its settings; a second domain is not the default until made so", async () => {
    const changed = await save(w.members.p1Owner.token, { domain: host, settings: { allowEmbeds: true } });
    expect(changed.domain.settings).toMatchObject({ allowEmbeds: true, smsMessaging: true });
    const added = await save(w.members.p1Owner.token, { domain: second });
    expect(added.domain.isDefault).toBe(false);
    // Without its own name or image, the profile shows the partner's.
    expect(added.profile).toMatchObject({ name: `p1 ${w.tag} Display`, details: { image: null } });

    const made = await client(w.members.p1Owner.token).call(api.setDefaultDomain, {
      body: { domain: second },
    });
    expect(made.domain).toMatchObject({ host: second, isDefault: true });
    const list = await client(w.members.p1Owner.token).call(api.listDomains);
    expect(list.domains.map((d) => [d.host, d.isDefault])).toEqual([
      [second, true],
      [host, false],
    ]);
    const current = await client(w.members.p1Owner.token).call(api.getDomain);
    expect(current.domain.host).toBe(second);
    const named = await client(w.members.p1Owner.token).call(api.getDomain, { query: { domain: host } });
    expect(named.profile.name).toBe("Acme Voice");
  });

  it("another partner can neither take nor see the host", async () => {
    const asP2 = client(w.members.superAdmin.token, w.accounts.P2.id);
    await expectRefusal(
      save(w.members.superAdmin.token, { domain: host }, w.accounts.P2.id),
      409,
      "This domain is already in use.",
    );
    await expectRefusal(asP2.call(api.getDomain, { query: { domain: host } }), 404, "Domain not found");
    await expectRefusal(asP2.call(api.getDomain), 404, "This partner has no white-label domain yet.");
    await expectRefusal(asP2.call(api.deleteDomain, { body: { domain: host } }), 404);
  });

  it("domains belong to partners: resellers and organisations are refused", async () => {
    for (const token of [w.members.r1Owner.token, w.members.o1Owner.token]) {
      await expectRefusal(
        save(token, { domain: `x-${w.tag}.example` }),
        400,
        "White-label domains belong to a partner account.",
      );
    }
  });

  it("validates host, own address, image and scripts", async () => {
    await expectRefusal(
      save(w.members.p1Owner.token, { domain: "not a host" }),
      400,
      "domain: Enter a domain name such as voice.example.com.",
    );
    await expectRefusal(
      save(w.members.p1Owner.token, { domain: "127.0.0.1" }),
      400,
      "This is the product's own address, not a white-label domain.",
    );
    await expectRefusal(
      save(w.members.p1Owner.token, {
        domain: host,
        settings: { appScripts: ["http://cdn.acme.example/a.js"] },
      }),
      400,
    );
    await expectRefusal(save(w.members.p1Owner.token, { domain: host, image: "javascript:alert(1)" }), 400);
  });

  it("a disabled partner's host is not looked up", async () => {
    await app.context.database.db
      .update(accounts)
      .set({ disabledAt: new Date() })
      .where(eq(accounts.id, w.accounts.P1.id));
    await expectRefusal(lookup(host), 404);
    await app.context.database.db
      .update(accounts)
      .set({ disabledAt: null })
      .where(eq(accounts.id, w.accounts.P1.id));
    await lookup(host);
  });

  it("removing the default domain makes the remaining one the default", async () => {
    const res = await client(w.members.p1Owner.token).call(api.deleteDomain, { body: { domain: second } });
    expect(res).toEqual({ success: true, message: "Domain removed." });
    const list = await client(w.members.p1Owner.token).call(api.listDomains);
    expect(list.domains).toEqual([expect.objectContaining({ host, isDefault: true })]);
    await expectRefusal(lookup(second), 404);
  });
});

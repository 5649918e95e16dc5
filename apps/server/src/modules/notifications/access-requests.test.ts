import * as api from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { expectRefusal, type TestClient, testClient } from "../../../test/api-client.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
let client: TestClient;

beforeAll(async () => {
  app = await buildTestApp();
  world = await buildHierarchy(app);
  client = testClient(app);
}, within(180_000));
afterAll(async () => {
  await app.close();
});

type OutboxMessage = { to: string; subject: string; body: string };
async function outbox(): Promise<OutboxMessage[]> {
  return (
    (await app.inject({ method: "GET", url: "/api/dev/outbox?limit=50" })).json() as {
      messages: OutboxMessage[];
    }
  ).messages;
}

describe("requesting access to text messaging", () => {
  it("reaches the super admins, the reseller and the partner once, and remembers when it was asked", async () => {
    const { O2, A2, R2, P2 } = world.accounts;
    const owner = client(world.members.o2Owner.token);
    const superAdmin = client(world.members.superAdmin.token);
    await superAdmin.call(api.clearNotifications, { body: { clearAll: true } });

    const before = await owner.call(api.getAccessRequest, { query: { feature: "sms" } });
    expect(before).toEqual({ success: true, feature: "sms", enabled: false, requestedAt: null });

    const sent = await owner.call(api.requestAccess, {
      body: { feature: "sms", message: "Patients want appointment reminders by text." },
    });
    expect(sent.sent).toBe(true);
    expect(sent.message).toBe(api.ACCESS_MESSAGES.sent);
    expect(sent.requestedAt).toBeGreaterThan(Date.now() - 60_000);

    // The super admins' bell: who asks, for what, and where to turn it on.
    const bell = await superAdmin.call(api.listNotifications);
    const request = bell.notifications.find((n) => n.title.includes("asks for text messaging"));
    expect(request?.title).toBe(`${O2.details.displayName as string} asks for text messaging (SMS)`);
    expect(request?.body).toContain("Patients want appointment reminders by text.");
    expect(request?.link).toBe(`/app/org/${O2.id}?orgAdmin=${O2.id}`);
    // E-mails to the super admin and to the reseller's and partner's account addresses.
    const mails = (await outbox()).filter((m) => m.subject.startsWith("Access request"));
    const recipients = mails.map((m) => m.to);
    expect(recipients).toEqual(
      expect.arrayContaining([world.members.superAdmin.email, R2.email as string, P2.email as string]),
    );

    // Asking again (from the agent account, the same organisation) reminds no one.
    const again = await client(world.members.o2Owner.token, A2.id).call(api.requestAccess, {
      body: { feature: "sms" },
    });
    expect(again).toMatchObject({ sent: false, message: api.ACCESS_MESSAGES.alreadySent });
    expect((await outbox()).filter((m) => m.subject.startsWith("Access request"))).toHaveLength(mails.length);

    const after = await owner.call(api.getAccessRequest, { query: { feature: "sms" } });
    expect(after.requestedAt).toBe(sent.requestedAt);

    // Once turned on, the overlay is told so.
    await client(world.members.superAdmin.token, O2.id).call(api.updateOrganization, {
      body: { smsEnabled: true },
    });
    const on = await owner.call(api.requestAccess, { body: { feature: "sms" } });
    expect(on).toMatchObject({ enabled: true, sent: false, message: api.ACCESS_MESSAGES.alreadyOn });
  });

  it("needs an organisation in view", async () => {
    const partner = client(world.members.p1Owner.token);
    await expectRefusal(
      partner.call(api.requestAccess, { body: { feature: "sms" } }),
      400,
      api.ACCESS_MESSAGES.noOrganization,
    );
  });
});

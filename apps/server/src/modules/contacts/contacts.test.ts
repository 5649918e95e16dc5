import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller } from "../../../test/api-call.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { accounts } from "../../db/schema/index.ts";

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
let call: ReturnType<typeof apiCaller>;
let token: string;

beforeAll(async () => {
  app = await buildTestApp();
  world = await buildHierarchy(app);
  call = apiCaller(app);
  token = world.members.o1Owner.token;
  await app.context.database.db
    .update(accounts)
    .set({ switchboardPhoneNumber: "+15035550126" })
    .where(eq(accounts.id, world.accounts.A1.id));
});
afterAll(async () => {
  await app.close();
});

describe("contacts", () => {
  let id: number;

  it("creates a contact from free nested fields and shows its name in the inbox", async () => {
    const created = await call("POST", "/api/v2/contact", {
      token,
      body: {
        newData: {
          firstName: "Maria",
          lastName: "Lopez",
          phones: [{ label: "mobile", value: "(503) 555-0401" }],
          email: "Maria@Example.com",
          insurance: { provider: "Delta", member: "X123" },
        },
      },
    });
    expect(created.status).toBe(200);
    id = created.body.contact.id;
    expect(created.body.contact).toMatchObject({
      firstName: "Maria",
      displayName: "Maria Lopez",
      addresses: ["+15035550401", "maria@example.com"],
      insurance: { provider: "Delta", member: "X123" },
    });
    await call("POST", "/api/v1/sandbox/sms/inbound", {
      token,
      body: { from: "+15035550401", to: "+15035550126", text: "It's Maria" },
    });
    const rooms = (await call("GET", "/api/v1/conversations", { token })).body.rooms;
    expect(rooms[0]).toMatchObject({ username: "+15035550401", displayName: "Maria Lopez", contactId: id });
    const one = await call("GET", `/api/v2/contact/${id}`, { token });
    expect(one.body.rooms.map((r: { roomId: string }) => r.roomId)).toEqual([rooms[0].roomId]);
  });

  it("replaces the fields with the merged newData on update", async () => {
    const current = (await call("GET", `/api/v2/contact/${id}`, { token })).body.contact;
    const { id: _id, displayName: _d, addresses: _a, createdAt: _c, updatedAt: _u, ...fields } = current;
    const updated = await call("POST", "/api/v2/contact", {
      token,
      body: { id, newData: { ...fields, lastName: "Lopez-Garcia", phones: [] } },
    });
    expect(updated.body.contact).toMatchObject({
      displayName: "Maria Lopez-Garcia",
      addresses: ["maria@example.com"],
    });
    expect(updated.body.contact.insurance).toEqual({ provider: "Delta", member: "X123" });
    const rooms = (await call("GET", "/api/v1/conversations", { token })).body.rooms;
    expect(rooms[0].displayName).toBe("+1 (503) 555-0401");
  });

  it("lists, searches, flattens for the mobile app and deletes", async () => {
    await call("POST", "/api/v2/contact", {
      token,
      body: { data: { name: "Zed Zimmer", phone: "5035550402" } },
    });
    const all = await call("GET", "/api/v2/contact", { token });
    expect(all.body.contacts.map((c: { displayName: string }) => c.displayName)).toEqual([
      "Maria Lopez-Garcia",
      "Zed Zimmer",
    ]);
    expect(all.body.total).toBe(2);
    expect((await call("GET", "/api/v2/contact", { token, query: { q: "zim" } })).body.contacts).toHaveLength(
      1,
    );
    expect(
      (await call("GET", "/api/v2/contact", { token, query: { q: "555-0402" } })).body.contacts,
    ).toHaveLength(1);
    const mobile = await call("GET", "/api/v1/mobileContacts", { token });
    expect(mobile.body.contacts).toContainEqual({
      id: expect.any(Number),
      name: "Zed Zimmer",
      phoneNumbers: ["+15035550402"],
      emails: [],
    });
    expect((await call("DELETE", "/api/v2/contact", { token, body: { id } })).body).toEqual({
      success: true,
      id,
    });
    expect((await call("GET", `/api/v2/contact/${id}`, { token })).status).toBe(404);
    expect((await call("DELETE", "/api/v2/contact", { token, body: { id } })).status).toBe(404);
  });

  it("needs an organisation, refuses empty contacts and other organisations' contacts", async () => {
    const partner = await call("GET", "/api/v2/contact", { token: world.members.p1Owner.token });
    expect(partner.status).toBe(400);
    expect(partner.body.message).toBe("No token or orgAccountId");
    const viaOrg = await call("GET", "/api/v2/contact", {
      token: world.members.p1Owner.token,
      query: { orgAccountId: world.accounts.O1.id },
    });
    expect(viaOrg.body.total).toBe(1);
    const empty = await call("POST", "/api/v2/contact", { token, body: { newData: { notes: "" } } });
    expect(empty.status).toBe(400);
    const zed = (await call("GET", "/api/v2/contact", { token })).body.contacts[0];
    expect(
      (await call("GET", `/api/v2/contact/${zed.id}`, { token: world.members.o2Owner.token })).status,
    ).toBe(404);
    const foreign = await call("GET", "/api/v2/contact", {
      token: world.members.o2Owner.token,
      query: { orgAccountId: world.accounts.O1.id },
    });
    expect(foreign.status).toBe(404);
  });
});

import * as api from "@switchboard/api";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectRefusal, type TestClient, testClient } from "../../../test/api-client.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { accounts } from "../../db/schema/index.ts";

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
let client: TestClient;
let token: string;

beforeAll(async () => {
  app = await buildTestApp();
  world = await buildHierarchy(app);
  client = testClient(app);
  token = world.members.o1Owner.token;
  await app.context.database.db
    .update(accounts)
    .set({ switchboardPhoneNumber: "+15035550126" })
    .where(eq(accounts.id, world.accounts.A1.id));
});
afterAll(async () => {
  await app.close();
});

// The steps build on each other (one contact created, edited, listed, deleted): run in order.
describe("contacts", () => {
  let id: number;

  it("creates a contact from free nested fields and shows its name in the inbox", async () => {
    const created = await client(token).call(api.saveContact, {
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
    id = created.contact.id;
    expect(created.contact).toMatchObject({
      firstName: "Maria",
      displayName: "Maria Lopez",
      addresses: ["+15035550401", "maria@example.com"],
      insurance: { provider: "Delta", member: "X123" },
    });
    await client(token).call(api.sandboxInboundSms, {
      body: { from: "+15035550401", to: "+15035550126", text: "It's Maria" },
    });
    const { rooms } = await client(token).call(api.listConversations);
    expect(rooms[0]).toMatchObject({ username: "+15035550401", displayName: "Maria Lopez", contactId: id });
    const one = await client(token).call(api.getContact, { params: { id } });
    expect(one.rooms.map((r) => r.roomId)).toEqual([rooms[0]?.roomId]);
  });

  it("replaces the fields with the merged newData on update", async () => {
    const current = (await client(token).call(api.getContact, { params: { id } })).contact;
    const { id: _id, displayName: _d, addresses: _a, createdAt: _c, updatedAt: _u, ...fields } = current;
    const updated = await client(token).call(api.saveContact, {
      body: { id, newData: { ...fields, lastName: "Lopez-Garcia", phones: [] } },
    });
    expect(updated.contact).toMatchObject({
      displayName: "Maria Lopez-Garcia",
      addresses: ["maria@example.com"],
    });
    expect(updated.contact.insurance).toEqual({ provider: "Delta", member: "X123" });
    const { rooms } = await client(token).call(api.listConversations);
    expect(rooms[0]?.displayName).toBe("+1 (503) 555-0401");
  });

  it("lists, searches, flattens for the mobile app and deletes", async () => {
    await client(token).call(api.saveContact, {
      body: { data: { name: "Zed Zimmer", phone: "5035550402" } },
    });
    const all = await client(token).call(api.listContacts);
    expect(all.contacts.map((c) => c.displayName)).toEqual(["Maria Lopez-Garcia", "Zed Zimmer"]);
    expect(all.total).toBe(2);
    expect((await client(token).call(api.listContacts, { query: { q: "zim" } })).contacts).toHaveLength(1);
    expect((await client(token).call(api.listContacts, { query: { q: "555-0402" } })).contacts).toHaveLength(
      1,
    );
    const mobile = await client(token).call(api.mobileContacts);
    expect(mobile.contacts).toContainEqual({
      id: expect.any(Number),
      name: "Zed Zimmer",
      phoneNumbers: ["+15035550402"],
      emails: [],
    });
    expect(await client(token).call(api.deleteContact, { body: { id } })).toEqual({ success: true, id });
    await expectRefusal(client(token).call(api.getContact, { params: { id } }), 404);
    await expectRefusal(client(token).call(api.deleteContact, { body: { id } }), 404);
  });

  it("needs an organisation, refuses empty contacts and other organisations' contacts", async () => {
    await expectRefusal(
      client(world.members.p1Owner.token).call(api.listContacts),
      400,
      "No token or orgAccountId",
    );
    const viaOrg = await client(world.members.p1Owner.token).call(api.listContacts, {
      query: { orgAccountId: world.accounts.O1.id },
    });
    expect(viaOrg.total).toBe(1);
    await expectRefusal(client(token).call(api.saveContact, { body: { newData: { notes: "" } } }), 400);
    const zed = (await client(token).call(api.listContacts)).contacts[0];
    await expectRefusal(
      client(world.members.o2Owner.token).call(api.getContact, { params: { id: zed?.id ?? 0 } }),
      404,
    );
    await expectRefusal(
      client(world.members.o2Owner.token).call(api.listContacts, {
        query: { orgAccountId: world.accounts.O1.id },
      }),
      404,
    );
  });
});

import { randomUUID } from "node:crypto";
import * as api from "@switchboard/api";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestClient, testClient } from "../../../test/api-client.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { contactAddresses, contacts, conversationMessages, roomReads, rooms } from "../../db/schema/index.ts";

describe("the inbox list through the cache", () => {
  let app: FastifyInstance;
  let world: Awaited<ReturnType<typeof buildHierarchy>>;
  let client: TestClient;

  beforeAll(async () => {
    app = await buildTestApp();
    world = await buildHierarchy(app);
    client = testClient(app);
  });
  afterAll(async () => {
    await app.close();
  });

  type Listed = api.RouteResponse<typeof api.listConversations>;
  const list = () => client(world.members.o1Owner.token).call(api.listConversations);
  /** Lists until `check` holds (a change made outside this instance's services arrives as a notice). */
  async function listUntil(check: (listed: Listed) => boolean, ms = 3000): Promise<Listed> {
    const end = Date.now() + ms;
    for (;;) {
      const listed = await list();
      if (check(listed) || Date.now() > end) return listed;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it("shows what another instance wrote, told only by the database's change notices", async () => {
    const db = app.context.database.db;
    const orgId = world.accounts.O1.id;
    const roomId = randomUUID();
    // Written straight to the tables, as another instance would: this instance's services know nothing.
    await db.insert(rooms).values({
      id: roomId,
      orgId,
      agentAccountId: world.accounts.A1.id,
      channel: "sms",
      externalAddress: "+15035550177",
      title: "+15035550177",
      lastMessageText: "First",
      lastMessageAt: new Date(),
    });
    const first = await listUntil((l) => l.rooms[0]?.lastMessage?.text === "First");
    expect(first.rooms.map((r) => r.lastMessage?.text)).toEqual(["First"]);

    const [message] = await db
      .insert(conversationMessages)
      .values({ orgId, roomId, role: "user", text: "Second", status: "complete" })
      .returning();
    await db
      .update(rooms)
      .set({ lastMessageText: "Second", lastInboundMessageId: message?.id ?? null })
      .where(eq(rooms.id, roomId));
    const second = await listUntil((l) => l.rooms[0]?.lastMessage?.text === "Second" && l.rooms[0].unread);
    expect(second.rooms[0]).toMatchObject({ lastMessage: { text: "Second" }, unread: true });

    const [contact] = await db.insert(contacts).values({ orgId, displayName: "Rosa Diaz" }).returning();
    await db.insert(contactAddresses).values({ orgId, address: "+15035550177", contactId: contact?.id ?? 0 });
    const named = await listUntil((l) => l.rooms[0]?.displayName === "Rosa Diaz");
    expect(named.rooms[0]?.displayName).toBe("Rosa Diaz");

    await db.insert(roomReads).values({
      roomId,
      orgId,
      userId: world.members.o1Owner.userId,
      lastReadMessageId: message?.id ?? 0,
    });
    const read = await listUntil((l) => l.rooms[0]?.unread === false);
    expect(read.rooms[0]?.unread).toBe(false);
  });
});

import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller } from "../../../test/api-call.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { contactAddresses, contacts, conversationMessages, roomReads, rooms } from "../../db/schema/index.ts";
import { createInboxListCache } from "./list-cache.ts";

/** A read the test finishes when it wants, counting how often the database would have been asked. */
function reader(text: string) {
  let reads = 0;
  let finish: (() => void) | null = null;
  return {
    read: () => {
      reads++;
      return Promise.resolve(text);
    },
    held: () => {
      reads++;
      return new Promise<string>((resolve) => {
        finish = () => resolve(text);
      });
    },
    finish: () => finish?.(),
    get reads() {
      return reads;
    },
  };
}

function listeningCache(options: Parameters<typeof createInboxListCache>[0] = {}) {
  const cache = createInboxListCache(options);
  cache.setListening(true);
  return cache;
}

describe("the inbox list cache", () => {
  it("answers a page again without reading it until its organisation changes", async () => {
    const cache = listeningCache();
    const page = reader('{"rooms":[]}');
    expect(await cache.get(1, "p1", page.read)).toBe('{"rooms":[]}');
    expect(await cache.get(1, "p1", page.read)).toBe('{"rooms":[]}');
    expect(page.reads).toBe(1);

    cache.changed(2); // another organisation
    await cache.get(1, "p1", page.read);
    expect(page.reads).toBe(1);

    cache.changed(1);
    await cache.get(1, "p1", page.read);
    expect(page.reads).toBe(2);
    expect(cache.stats()).toMatchObject({ hits: 2, misses: 2 });
  });

  it("does not keep a page read while its organisation changed", async () => {
    const cache = listeningCache();
    const page = reader("old");
    const answer = cache.get(1, "p1", page.held);
    cache.changed(1); // a message arrived while the page was being read
    page.finish();
    expect(await answer).toBe("old");
    await cache.get(1, "p1", page.read);
    expect(page.reads).toBe(2);
  });

  it("keeps nothing while change notices are not heard, and drops everything when they stop", async () => {
    const cache = createInboxListCache();
    const page = reader("x");
    await cache.get(1, "p1", page.read);
    await cache.get(1, "p1", page.read);
    expect(page.reads).toBe(2);

    cache.setListening(true);
    await cache.get(1, "p1", page.read);
    await cache.get(1, "p1", page.read);
    expect(page.reads).toBe(3);

    cache.setListening(false);
    await cache.get(1, "p1", page.read);
    expect(page.reads).toBe(4);
    expect(cache.stats().entries).toBe(0);
  });

  it("does not keep a page whose read began before a gap in hearing", async () => {
    const cache = listeningCache();
    const page = reader("x");
    const answer = cache.get(1, "p1", page.held);
    cache.setListening(false);
    cache.setListening(true);
    page.finish();
    await answer;
    await cache.get(1, "p1", page.read);
    expect(page.reads).toBe(2);
  });

  it("shares one read among concurrent requests of the same page", async () => {
    const cache = listeningCache();
    const page = reader("x");
    const answers = [cache.get(1, "p1", page.held), cache.get(1, "p1", page.held)];
    page.finish();
    expect(await Promise.all(answers)).toEqual(["x", "x"]);
    expect(page.reads).toBe(1);
  });

  it("drops the least recently used page beyond its size, and any page past its age", async () => {
    let clock = 0;
    const cache = listeningCache({ maxEntries: 2, maxAgeMs: 1000, now: () => clock });
    const page = reader("x");
    await cache.get(1, "a", page.read);
    await cache.get(1, "b", page.read);
    await cache.get(1, "a", page.read); // a is now the most recent
    await cache.get(1, "c", page.read); // b goes
    expect(page.reads).toBe(3);
    await cache.get(1, "a", page.read);
    expect(page.reads).toBe(3);
    await cache.get(1, "b", page.read);
    expect(page.reads).toBe(4);

    clock = 1500;
    await cache.get(1, "a", page.read);
    expect(page.reads).toBe(5);
  });

  it("does not keep a failed read", async () => {
    const cache = listeningCache();
    await expect(cache.get(1, "p1", () => Promise.reject(new Error("database down")))).rejects.toThrow(
      "database down",
    );
    const page = reader("x");
    expect(await cache.get(1, "p1", page.read)).toBe("x");
    expect(page.reads).toBe(1);
  });
});

describe("the inbox list through the cache", () => {
  let app: FastifyInstance;
  let world: Awaited<ReturnType<typeof buildHierarchy>>;
  let call: ReturnType<typeof apiCaller>;

  beforeAll(async () => {
    app = await buildTestApp();
    world = await buildHierarchy(app);
    call = apiCaller(app);
  });
  afterAll(async () => {
    await app.close();
  });

  type Listed = { rooms: { lastMessage: { text: string } | null; displayName: string; unread: boolean }[] };
  const list = async () => {
    const res = await call("GET", "/api/v1/conversations", { token: world.members.o1Owner.token });
    expect(res.status).toBe(200);
    return res.body as unknown as Listed;
  };
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

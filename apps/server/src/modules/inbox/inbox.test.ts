import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller, fakePng, multipartFile } from "../../../test/api-call.ts";
import { buildHierarchy, prepareSmsAgent } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { accounts, carrierMessages, runtimeUsage } from "../../db/schema/index.ts";

const AGENT_NUMBER = "+15035550123";
const INSTRUCTIONS = [
  "You are the receptionist of Bluebird Dental.",
  "Opening hours: Mon-Fri 8am-5pm.",
  "Parking: free parking behind the building.",
].join("\n");

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
let call: ReturnType<typeof apiCaller>;
let token: string;
let adminToken: string;

const db = () => app.context.database.db;

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 8000): Promise<T> {
  const until = Date.now() + ms;
  let value = await read();
  while (!done(value) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

async function text(from: string, body: string, to = AGENT_NUMBER) {
  const res = await call("POST", "/api/v1/sandbox/sms/inbound", { token, body: { from, to, text: body } });
  expect(res.status).toBe(200);
  return res.body as { roomId: string; carrierMessageId: string };
}

const handset = async (number: string) =>
  (await call("GET", "/api/v1/sandbox/sms/handset", { token, query: { number } })).body;

const detail = async (roomId: string, as = token) =>
  (await call("GET", `/api/v1/conversations/${roomId}`, { token: as })).body;

beforeAll(async () => {
  app = await buildTestApp();
  world = await buildHierarchy(app);
  call = apiCaller(app);
  token = world.members.o1Owner.token;
  adminToken = world.members.o1Admin.token;
  await prepareSmsAgent(app, world, {
    number: AGENT_NUMBER,
    instructions: INSTRUCTIONS,
    greeting: "Hi from Bluebird!",
    org: { premium: true },
    agent: { details: { agentName: "Front Desk" } },
  });
});
afterAll(async () => {
  await app.close();
});

describe("an inbound text message and the AI agent", () => {
  let roomId: string;

  it("lands in the priority list, unread, and the AI agent answers it on the handset", async () => {
    ({ roomId } = await text("(503) 555-0199", "What are your opening hours?"));
    const list = await call("GET", "/api/v1/conversations", { token });
    expect(list.status).toBe(200);
    const item = list.body.rooms.find((r: { roomId: string }) => r.roomId === roomId);
    expect(item).toMatchObject({
      username: "+15035550199",
      displayName: "+1 (503) 555-0199",
      unread: true,
      unreadCount: 1,
      room: {
        status: "open",
        folder: "priority",
        aiAgentEnabled: true,
        agentNumber: AGENT_NUMBER,
        channel: "sms",
      },
    });
    const phone = await waitFor(
      () => handset("+15035550199"),
      (h) => h.messages.length >= 2,
    );
    expect(phone.messages.map((m: { direction: string; text: string }) => [m.direction, m.text])).toEqual([
      ["inbound", "What are your opening hours?"],
      ["outbound", "Opening hours: Mon-Fri 8am-5pm."],
    ]);
    expect(phone.messages[1]).toMatchObject({ from: AGENT_NUMBER, to: "+15035550199", status: "delivered" });
    // The handset has the text as soon as the carrier takes it; the room's copy learns "delivered" just after.
    const room = await waitFor(
      () => detail(roomId),
      (r) => r.messages[1]?.deliveryStatus === "delivered",
    );
    expect(room.messages.map((m: { role: string; text: string }) => [m.role, m.text])).toEqual([
      ["user", "What are your opening hours?"],
      ["assistant", "Opening hours: Mon-Fri 8am-5pm."],
    ]);
    expect(room.messages[0].deliveryStatus).toBe("received");
    expect(room.messages[1].deliveryStatus).toBe("delivered");
    // The AI agent's turn is metered as an SMS turn.
    const usage = await db().select().from(runtimeUsage).where(eq(runtimeUsage.roomId, roomId));
    expect(usage.map((u) => u.channel)).toContain("sms");
  });

  it("keeps one room per number and continues the conversation", async () => {
    const again = await text("+15035550199", "Is there parking?");
    expect(again.roomId).toBe(roomId);
    const room = await waitFor(
      () => detail(roomId),
      (r) => r.messages.length >= 4,
    );
    expect(room.messages.at(-1)).toMatchObject({
      role: "assistant",
      text: "Parking: free parking behind the building.",
    });
    expect(room.conversation.unreadCount).toBe(2);
  });

  it("hands the room to people when the AI agent is switched off: nobody answers, a person replies", async () => {
    const off = await call("POST", `/api/v1/conversations/${roomId}/aiAgentEnabled`, {
      token,
      body: { aiAgentEnabled: false },
    });
    expect(off.body).toEqual({ success: true, roomId, aiAgentEnabled: false });
    expect(
      (await call("GET", `/api/v1/conversations/${roomId}/aiAgentEnabled`, { token })).body.aiAgentEnabled,
    ).toBe(false);
    await text("+15035550199", "Can I talk to a person?");
    await new Promise((resolve) => setTimeout(resolve, 300));
    let room = await detail(roomId);
    expect(room.messages.at(-1)).toMatchObject({ role: "user", text: "Can I talk to a person?" });
    const sent = await call("POST", `/api/v1/conversations/${roomId}/messages`, {
      token: adminToken,
      body: { text: "Hi, this is Adam from the front desk." },
    });
    expect(sent.status).toBe(200);
    expect(sent.body.message).toMatchObject({
      role: "operator",
      text: "Hi, this is Adam from the front desk.",
      senderName: "o1admin",
      deliveryStatus: "delivered",
    });
    const phone = await handset("+15035550199");
    expect(phone.messages.at(-1)).toMatchObject({
      direction: "outbound",
      text: "Hi, this is Adam from the front desk.",
    });
    room = await detail(roomId);
    expect(room.messages.at(-1).role).toBe("operator");
  });

  it("reads per user: the sender has read up to their message, the owner has not", async () => {
    const forAdmin = await detail(roomId, adminToken);
    expect(forAdmin.conversation).toMatchObject({ unread: false, unreadCount: 0 });
    const forOwner = await detail(roomId);
    expect(forOwner.conversation.unreadCount).toBe(3);
    const unreadOnly = await call("GET", "/api/v1/conversations", {
      token: adminToken,
      query: { unread: true },
    });
    expect(unreadOnly.body.rooms.map((r: { roomId: string }) => r.roomId)).not.toContain(roomId);
    const activity = await call("GET", "/api/v1/activity", { token });
    expect(activity.body.activity).toEqual([
      expect.objectContaining({ roomId, username: "+15035550199", unreadCount: 3 }),
    ]);
    expect((await call("GET", "/api/v1/activity", { token, query: { simple: true } })).body).toEqual({
      success: true,
      activity: [],
      total: 1,
    });
    const cleared = await call("POST", "/api/v1/activity", { token, body: { username: "503-555-0199" } });
    expect(cleared.body).toEqual({ success: true, cleared: 1 });
    expect((await detail(roomId)).conversation.unread).toBe(false);
    const marked = await call("POST", "/api/v1/activity/markUnread", { token, body: { roomId } });
    expect(marked.body).toEqual({ success: true, roomId, unread: true });
    expect((await detail(roomId)).conversation).toMatchObject({ unread: true, unreadCount: 0 });
    // A priority room is not a junk room.
    expect((await call("POST", "/api/v1/activityAgent/markUnread", { token, body: { roomId } })).status).toBe(
      404,
    );
    await call("POST", "/api/v1/activity", { token, body: { clearAll: true } });
    expect((await call("GET", "/api/v1/activity", { token })).body.total).toBe(0);
  });

  it("rates, reacts, closes, archives and unarchives", async () => {
    const rated = await call("POST", "/api/v1/rateConvo", { token, body: { roomId, rating: 4 } });
    expect(rated.body.room.rating).toBe(4);
    expect((await call("POST", "/api/v1/rateConvo", { token, body: { roomId, rating: 9 } })).status).toBe(
      400,
    );
    const messageId = (await detail(roomId)).messages[1].id;
    const added = await call("POST", "/api/v1/reaction", {
      token,
      body: { roomId, messageId, reaction: "👍" },
    });
    expect(added.body.reactions).toEqual([
      { reaction: "👍", userId: world.members.o1Owner.userId, mine: true },
    ]);
    await call("POST", "/api/v1/reaction", { token, body: { roomId, messageId, reaction: "👍" } });
    expect((await detail(roomId)).messages[1].reactions).toHaveLength(1);
    expect((await detail(roomId, adminToken)).messages[1].reactions[0].mine).toBe(false);
    const removed = await call("DELETE", "/api/v1/reaction", {
      token,
      body: { roomId, messageId, reaction: "👍" },
    });
    expect(removed.body.reactions).toEqual([]);

    const closed = await call("POST", "/api/v1/closeConversation", { token, body: { roomId } });
    expect(closed.body.room.status).toBe("closed");
    const archived = await call("POST", "/api/v1/closeConversation", { token, body: { roomId } });
    expect(archived.body.room.status).toBe("archived");
    const open = await call("GET", "/api/v1/conversations", { token });
    expect(open.body.rooms.map((r: { roomId: string }) => r.roomId)).not.toContain(roomId);
    const inArchive = await call("GET", "/api/v1/conversations", { token, query: { archived: true } });
    expect(inArchive.body.rooms.map((r: { roomId: string }) => r.roomId)).toEqual([roomId]);
    const back = await call("POST", "/api/v1/unarchiveConversation", { token, body: { roomId } });
    expect(back.body.room.status).toBe("open");
  });
});

describe("blocking", () => {
  it("sends a blocked sender's messages to Junk, unanswered, and refuses replies", async () => {
    const { roomId } = await text("+15035550177", "Buy cheap watches");
    await waitFor(
      () => detail(roomId),
      (r) => r.messages.length >= 2,
    );
    const blocked = await call("POST", "/api/v1/block", { token, body: { targetUsername: roomId } });
    expect(blocked.body).toEqual({ success: true, address: "+15035550177", blocked: true });
    expect((await call("GET", "/api/v1/block/+15035550177", { token, query: { both: true } })).body).toEqual({
      success: true,
      blocked: true,
      blockedBy: false,
    });
    await text("+15035550177", "Still want watches?");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const room = await detail(roomId);
    expect(room.blocked).toBe(true);
    expect(room.room.folder).toBe("agent");
    expect(room.messages.at(-1)).toMatchObject({ role: "user", text: "Still want watches?" });
    const priority = await call("GET", "/api/v1/conversations", { token });
    expect(priority.body.rooms.map((r: { roomId: string }) => r.roomId)).not.toContain(roomId);
    const junk = await call("GET", "/api/v1/conversations", { token, query: { isAgent: true } });
    expect(junk.body.rooms.map((r: { roomId: string }) => r.roomId)).toContain(roomId);
    expect((await call("GET", "/api/v1/activityAgent", { token })).body.activity[0].roomId).toBe(roomId);
    const reply = await call("POST", `/api/v1/conversations/${roomId}/messages`, {
      token,
      body: { text: "no" },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe("This number is blocked.");
    expect(
      (await call("POST", "/api/v1/activityAgent", { token, body: { clearAll: true } })).body.cleared,
    ).toBe(1);
    await call("POST", "/api/v1/block", { token, body: { targetUsername: "+15035550177", blocked: false } });
    expect((await detail(roomId)).room.folder).toBe("priority");
  });
});

describe("starting a conversation", () => {
  it("makes a profile for an address and a room with the agent's number; the person's message reaches the handset", async () => {
    const profile = await call("POST", "/api/v1/createExternalDestinationProfile", {
      token,
      body: { address: "503.555.0142" },
    });
    expect(profile.body.profile).toMatchObject({ address: "+15035550142", kind: "phone" });
    const again = await call("POST", "/api/v1/createExternalDestinationProfile", {
      token,
      body: { address: "+1 503 555 0142" },
    });
    expect(again.body.profile.username).toBe(profile.body.profile.username);
    const room = await call("POST", "/api/v1/getGroupConversationRoomId", {
      token,
      body: { users: [profile.body.profile.username] },
    });
    expect(room.body).toMatchObject({ success: true, created: true });
    const same = await call("POST", "/api/v1/getGroupConversationRoomId", {
      token,
      body: { users: ["5035550142"] },
    });
    expect(same.body).toEqual({ success: true, roomId: room.body.roomId, created: false });
    const opened = await detail(room.body.roomId);
    expect(opened.aiAgentEnabled).toBe(false);
    await call("POST", `/api/v1/conversations/${room.body.roomId}/messages`, {
      token,
      body: { text: "Your crown is ready." },
    });
    expect((await handset("+15035550142")).messages.map((m: { text: string }) => m.text)).toEqual([
      "Your crown is ready.",
    ]);
  });

  it("says so when no conversation can be made", async () => {
    const bad = await call("POST", "/api/v1/getGroupConversationRoomId", {
      token,
      body: { users: ["hello"] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("Unable to start conversation with this user.");
    expect(
      (
        await call("POST", "/api/v1/createExternalDestinationProfile", {
          token,
          body: { address: "not an address" },
        })
      ).status,
    ).toBe(400);
    // A partner has no inbox of its own.
    const partner = await call("GET", "/api/v1/conversations", { token: world.members.p1Owner.token });
    expect(partner.status).toBe(400);
    expect(partner.body.message).toBe("no account id");
  });

  it("refuses to text when the organisation has no SMS", async () => {
    const { O1 } = world.accounts;
    const { roomId } = await text("+15035550166", "hello?");
    await db().update(accounts).set({ smsEnabled: false }).where(eq(accounts.id, O1.id));
    try {
      const res = await call("POST", `/api/v1/conversations/${roomId}/messages`, {
        token,
        body: { text: "hi" },
      });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe("Text messaging is not enabled for this organization.");
    } finally {
      await db().update(accounts).set({ smsEnabled: true }).where(eq(accounts.id, O1.id));
    }
  });
});

describe("lists", () => {
  it("pages 20 at a time, newest first, for the organisation and for one agent", async () => {
    for (let i = 0; i < 22; i++) {
      await call("POST", "/api/v1/getGroupConversationRoomId", {
        token,
        body: { users: [`+1503555${String(1000 + i)}`] },
      });
      const list = await call("GET", "/api/v1/conversations", { token, query: { pageSize: 1 } });
      await call("POST", `/api/v1/conversations/${list.body.rooms[0].roomId}/messages`, {
        token,
        body: { text: `note ${i}` },
      });
    }
    const first = await call("GET", "/api/v1/conversations", { token });
    expect(first.body.rooms).toHaveLength(20);
    expect(first.body.rooms[0].lastMessage.text).toBe("note 21");
    const total = first.body.totalRooms;
    expect(total).toBeGreaterThanOrEqual(25);
    const second = await call("GET", "/api/v1/conversations", { token, query: { page: 1 } });
    expect(second.body.rooms).toHaveLength(Math.min(20, total - 20));
    const ids = new Set([...first.body.rooms, ...second.body.rooms].map((r: { roomId: string }) => r.roomId));
    expect(ids.size).toBe(first.body.rooms.length + second.body.rooms.length);
    const { O1, A1, O2 } = world.accounts;
    const byOrg = await call("GET", `/api/v1/conversations/${O1.id}`, { token });
    expect(byOrg.body.totalRooms).toBe(total);
    const byAgent = await call("GET", `/api/v1/agentConversations/${A1.id}`, { token });
    expect(byAgent.body.totalRooms).toBe(total);
    expect((await call("GET", `/api/v1/agentConversations/${O2.id}`, { token })).status).toBe(404);
    // The agent account sees its own rooms only.
    const asAgent = await call("GET", "/api/v1/conversations", { token, targetAccountId: A1.id });
    expect(asAgent.body.totalRooms).toBe(total);
    // A page past the end has no rooms and still the total (page and total are one statement).
    const past = await call("GET", "/api/v1/conversations", { token, query: { page: 50 } });
    expect(past.body.rooms).toEqual([]);
    expect(past.body.totalRooms).toBe(total);
    // The unread filter's total counts the rooms the filter answers.
    const { roomId: unreadRoom } = await text("+15035559876", "unread here");
    const unread = await call("GET", "/api/v1/conversations", {
      token,
      query: { unread: true, pageSize: 100 },
    });
    expect(unread.body.totalRooms).toBe(unread.body.rooms.length);
    expect(unread.body.rooms.every((r: { unread: boolean }) => r.unread)).toBe(true);
    expect(unread.body.rooms.map((r: { roomId: string }) => r.roomId)).toContain(unreadRoom);
  });

  it("never shows another organisation's room", async () => {
    const { roomId } = await text("+15035550111", "private");
    const other = await call("GET", `/api/v1/conversations/${roomId}`, {
      token: world.members.o2Owner.token,
    });
    expect(other.status).toBe(404);
    expect(JSON.stringify(other.body)).not.toContain("private");
  });
});

describe("media", () => {
  it("takes a picture up to 5 MB and refuses other files", async () => {
    const png = multipartFile(fakePng(128), { field: "file" });
    const ok = await call("POST", "/api/v1/chat/media", {
      token,
      payload: png.payload,
      headers: png.headers,
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ contentType: "image/png", size: 128 });
    const plain = multipartFile(Buffer.from("hello there"), {
      field: "file",
      filename: "a.txt",
      contentType: "text/plain",
    });
    const refused = await call("POST", "/api/v1/chat/media", {
      token,
      payload: plain.payload,
      headers: plain.headers,
    });
    expect(refused.status).toBe(415);
    expect(refused.body.message).toBe("Attach a PNG, JPEG, GIF or WebP picture.");
    const big = multipartFile(fakePng(5 * 1024 * 1024 + 10), { field: "file" });
    const tooBig = await call("POST", "/api/v1/chat/media", {
      token,
      payload: big.payload,
      headers: big.headers,
    });
    expect(tooBig.status).toBe(413);
    const { roomId } = await text("+15035550155", "send me the map");
    const withPicture = await call("POST", `/api/v1/conversations/${roomId}/messages`, {
      token,
      body: { text: "", media: [ok.body.url] },
    });
    expect(withPicture.body.message.media).toEqual([ok.body.url]);
    const received = (await handset("+15035550155")).messages.filter(
      (m: { direction: string; media: string[] }) => m.direction === "outbound" && m.media.length > 0,
    );
    expect(received.map((m: { media: string[] }) => m.media)).toEqual([[ok.body.url]]);
  });
});

describe("the public messaging profile", () => {
  it("answers an agent's name and greeting without a token", async () => {
    const res = await app.inject({
      method: "GET",
      url: `/api/v1/messages/${world.accounts.A1.username}?preview=true`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      profile: {
        username: world.accounts.A1.username,
        displayName: "Front Desk",
        image: null,
        greeting: "Hi from Bluebird!",
        acceptsMessages: true,
      },
      messages: [],
    });
    expect((await app.inject({ method: "GET", url: "/api/v1/messages/nobody-here" })).statusCode).toBe(404);
    // An organisation is not a messaging profile.
    expect(
      (await app.inject({ method: "GET", url: `/api/v1/messages/${world.accounts.O1.username}` })).statusCode,
    ).toBe(404);
  });
});

describe("the sandbox carrier", () => {
  it("refuses numbers no agent of the organisation has", async () => {
    const res = await call("POST", "/api/v1/sandbox/sms/inbound", {
      token,
      body: { from: "+15035550100", to: "+15035559999", text: "hi" },
    });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe("No agent has this number.");
    const other = await call("POST", "/api/v1/sandbox/sms/inbound", {
      token: world.members.o2Owner.token,
      body: { from: "+15035550100", to: AGENT_NUMBER, text: "hi" },
    });
    expect(other.status).toBe(404);
    const rows = await db()
      .select()
      .from(carrierMessages)
      .where(eq(carrierMessages.toAddress, "+15035559999"));
    expect(rows).toHaveLength(0);
  });

  it("lists the organisation's agent numbers for the simulator", async () => {
    const res = await handset("+15035550199");
    expect(res.agentNumbers).toEqual([
      { agentId: world.accounts.A1.id, agentName: "Front Desk", number: AGENT_NUMBER },
    ]);
  });
});

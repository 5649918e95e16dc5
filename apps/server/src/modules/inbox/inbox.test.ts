import * as api from "@switchboard/api";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakePng } from "../../../test/api-call.ts";
import { expectRefusal, type TestClient, testClient } from "../../../test/api-client.ts";
import { buildHierarchy, prepareSmsAgent } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { waitFor } from "../../../test/wait-for.ts";
import { accounts, carrierMessages, runtimeUsage } from "../../db/schema/index.ts";
import { aiReplyJob } from "./jobs.ts";

const AGENT_NUMBER = "+15035550123";
const INSTRUCTIONS = [
  "You are the receptionist of Bluebird Dental.",
  "Opening hours: Mon-Fri 8am-5pm.",
  "Parking: free parking behind the building.",
].join("\n");

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
let client: TestClient;
let token: string;
let adminToken: string;

const db = () => app.context.database.db;

/** Every AI reply queued so far has been answered (or failed): what it would send is in. */
const repliesSettled = () => app.context.jobs.idle([aiReplyJob]);

const text = (from: string, body: string, to = AGENT_NUMBER) =>
  client(token).call(api.sandboxInboundSms, { body: { from, to, text: body } });

const handset = (number: string) => client(token).call(api.sandboxHandset, { query: { number } });

/** A room id answers the conversation; a numeric id would answer a list. */
async function detail(roomId: string, as = token): Promise<api.ConversationDetail> {
  const answer = await client(as).call(api.getConversation, { params: { roomId } });
  if (!("messages" in answer)) throw new Error(`${roomId} answered a list, not a conversation`);
  return answer;
}

const roomIds = (list: { rooms: { roomId: string }[] }) => list.rooms.map((r) => r.roomId);

/** A picture (or any file) as the one `file` part of a chat media upload. */
function mediaForm(data: Buffer, options: { filename?: string; contentType?: string } = {}) {
  const form = new FormData();
  form.append(
    "file",
    new Blob([new Uint8Array(data)], { type: options.contentType ?? "image/png" }),
    options.filename ?? "picture.png",
  );
  return form;
}

beforeAll(async () => {
  app = await buildTestApp();
  world = await buildHierarchy(app);
  client = testClient(app);
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
    const list = await client(token).call(api.listConversations);
    const item = list.rooms.find((r) => r.roomId === roomId);
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
    expect(phone.messages.map((m) => [m.direction, m.text])).toEqual([
      ["inbound", "What are your opening hours?"],
      ["outbound", "Opening hours: Mon-Fri 8am-5pm."],
    ]);
    expect(phone.messages[1]).toMatchObject({ from: AGENT_NUMBER, to: "+15035550199", status: "delivered" });
    // The handset has the text as soon as the carrier takes it; the room's copy learns "delivered" just after.
    const room = await waitFor(
      () => detail(roomId),
      (r) => r.messages[1]?.deliveryStatus === "delivered",
    );
    expect(room.messages.map((m) => [m.role, m.text])).toEqual([
      ["user", "What are your opening hours?"],
      ["assistant", "Opening hours: Mon-Fri 8am-5pm."],
    ]);
    expect(room.messages[0]?.deliveryStatus).toBe("received");
    expect(room.messages[1]?.deliveryStatus).toBe("delivered");
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
    const off = await client(token).call(api.setAiAgentEnabled, {
      params: { roomId },
      body: { aiAgentEnabled: false },
    });
    expect(off).toEqual({ success: true, roomId, aiAgentEnabled: false });
    expect((await client(token).call(api.getAiAgentEnabled, { params: { roomId } })).aiAgentEnabled).toBe(
      false,
    );
    await text("+15035550199", "Can I talk to a person?");
    // A reply, had one been queued with the message, would be in once the reply jobs are done.
    await repliesSettled();
    let room = await detail(roomId);
    expect(room.messages.at(-1)).toMatchObject({ role: "user", text: "Can I talk to a person?" });
    const sent = await client(adminToken).call(api.sendConversationMessage, {
      params: { roomId },
      body: { text: "Hi, this is Adam from the front desk." },
    });
    expect(sent.message).toMatchObject({
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
    expect(room.messages.at(-1)?.role).toBe("operator");
  });

  it("reads per user: the sender has read up to their message, the owner has not", async () => {
    const forAdmin = await detail(roomId, adminToken);
    expect(forAdmin.conversation).toMatchObject({ unread: false, unreadCount: 0 });
    const forOwner = await detail(roomId);
    expect(forOwner.conversation.unreadCount).toBe(3);
    const unreadOnly = await client(adminToken).call(api.listConversations, { query: { unread: true } });
    expect(roomIds(unreadOnly)).not.toContain(roomId);
    const activity = await client(token).call(api.getActivity);
    expect(activity.activity).toEqual([
      expect.objectContaining({ roomId, username: "+15035550199", unreadCount: 3 }),
    ]);
    expect(await client(token).call(api.getActivity, { query: { simple: true } })).toEqual({
      success: true,
      activity: [],
      total: 1,
    });
    const cleared = await client(token).call(api.clearActivity, { body: { username: "503-555-0199" } });
    expect(cleared).toEqual({ success: true, cleared: 1 });
    expect((await detail(roomId)).conversation.unread).toBe(false);
    const marked = await client(token).call(api.markUnread, { body: { roomId } });
    expect(marked).toEqual({ success: true, roomId, unread: true });
    expect((await detail(roomId)).conversation).toMatchObject({ unread: true, unreadCount: 0 });
    // A priority room is not a junk room.
    await expectRefusal(client(token).call(api.markAgentUnread, { body: { roomId } }), 404);
    await client(token).call(api.clearActivity, { body: { clearAll: true } });
    expect((await client(token).call(api.getActivity)).total).toBe(0);
  });

  it("rates, reacts, closes, archives and unarchives", async () => {
    const rated = await client(token).call(api.rateConversation, { body: { roomId, rating: 4 } });
    expect(rated.room.rating).toBe(4);
    await expectRefusal(client(token).call(api.rateConversation, { body: { roomId, rating: 9 } }), 400);
    const messageId = (await detail(roomId)).messages[1]?.id ?? 0;
    const added = await client(token).call(api.addReaction, { body: { roomId, messageId, reaction: "👍" } });
    expect(added.reactions).toEqual([{ reaction: "👍", userId: world.members.o1Owner.userId, mine: true }]);
    await client(token).call(api.addReaction, { body: { roomId, messageId, reaction: "👍" } });
    expect((await detail(roomId)).messages[1]?.reactions).toHaveLength(1);
    expect((await detail(roomId, adminToken)).messages[1]?.reactions[0]?.mine).toBe(false);
    const removed = await client(token).call(api.removeReaction, {
      body: { roomId, messageId, reaction: "👍" },
    });
    expect(removed.reactions).toEqual([]);

    const closed = await client(token).call(api.closeConversation, { body: { roomId } });
    expect(closed.room.status).toBe("closed");
    const archived = await client(token).call(api.closeConversation, { body: { roomId } });
    expect(archived.room.status).toBe("archived");
    const open = await client(token).call(api.listConversations);
    expect(roomIds(open)).not.toContain(roomId);
    const inArchive = await client(token).call(api.listConversations, { query: { archived: true } });
    expect(roomIds(inArchive)).toEqual([roomId]);
    const back = await client(token).call(api.unarchiveConversation, { body: { roomId } });
    expect(back.room.status).toBe("open");
  });
});

describe("blocking", () => {
  it("sends a blocked sender's messages to Junk, unanswered, and refuses replies", async () => {
    const { roomId } = await text("+15035550177", "Buy cheap watches");
    await waitFor(
      () => detail(roomId),
      (r) => r.messages.length >= 2,
    );
    const blocked = await client(token).call(api.setBlock, { body: { targetUsername: roomId } });
    expect(blocked).toEqual({ success: true, address: "+15035550177", blocked: true });
    expect(
      await client(token).call(api.getBlock, { params: { id: "+15035550177" }, query: { both: true } }),
    ).toEqual({
      success: true,
      blocked: true,
      blockedBy: false,
    });
    await text("+15035550177", "Still want watches?");
    // A reply, had one been queued with the message, would be in once the reply jobs are done.
    await repliesSettled();
    const room = await detail(roomId);
    expect(room.blocked).toBe(true);
    expect(room.room.folder).toBe("agent");
    expect(room.messages.at(-1)).toMatchObject({ role: "user", text: "Still want watches?" });
    const priority = await client(token).call(api.listConversations);
    expect(roomIds(priority)).not.toContain(roomId);
    const junk = await client(token).call(api.listConversations, { query: { isAgent: true } });
    expect(roomIds(junk)).toContain(roomId);
    expect((await client(token).call(api.getAgentActivity)).activity[0]?.roomId).toBe(roomId);
    await expectRefusal(
      client(token).call(api.sendConversationMessage, { params: { roomId }, body: { text: "no" } }),
      400,
      "This number is blocked.",
    );
    expect((await client(token).call(api.clearAgentActivity, { body: { clearAll: true } })).cleared).toBe(1);
    await client(token).call(api.setBlock, { body: { targetUsername: "+15035550177", blocked: false } });
    expect((await detail(roomId)).room.folder).toBe("priority");
  });
});

describe("starting a conversation", () => {
  it("makes a profile for an address and a room with the agent's number; the person's message reaches the handset", async () => {
    const profile = await client(token).call(api.createExternalDestinationProfile, {
      body: { address: "503.555.0142" },
    });
    expect(profile.profile).toMatchObject({ address: "+15035550142", kind: "phone" });
    const again = await client(token).call(api.createExternalDestinationProfile, {
      body: { address: "+1 503 555 0142" },
    });
    expect(again.profile.username).toBe(profile.profile.username);
    const room = await client(token).call(api.getGroupConversationRoomId, {
      body: { users: [profile.profile.username] },
    });
    expect(room).toMatchObject({ success: true, created: true });
    const same = await client(token).call(api.getGroupConversationRoomId, {
      body: { users: ["5035550142"] },
    });
    expect(same).toEqual({ success: true, roomId: room.roomId, created: false });
    const opened = await detail(room.roomId);
    expect(opened.aiAgentEnabled).toBe(false);
    await client(token).call(api.sendConversationMessage, {
      params: { roomId: room.roomId },
      body: { text: "Your crown is ready." },
    });
    expect((await handset("+15035550142")).messages.map((m) => m.text)).toEqual(["Your crown is ready."]);
  });

  it("says so when no conversation can be made", async () => {
    await expectRefusal(
      client(token).call(api.getGroupConversationRoomId, { body: { users: ["hello"] } }),
      400,
      "Unable to start conversation with this user.",
    );
    await expectRefusal(
      client(token).call(api.createExternalDestinationProfile, { body: { address: "not an address" } }),
      400,
    );
    // A partner has no inbox of its own.
    await expectRefusal(
      client(world.members.p1Owner.token).call(api.listConversations),
      400,
      "no account id",
    );
  });

  it("refuses to text when the organisation has no SMS", async () => {
    const { O1 } = world.accounts;
    const { roomId } = await text("+15035550166", "hello?");
    await db().update(accounts).set({ smsEnabled: false }).where(eq(accounts.id, O1.id));
    try {
      await expectRefusal(
        client(token).call(api.sendConversationMessage, { params: { roomId }, body: { text: "hi" } }),
        403,
        "Text messaging is not enabled for this organization.",
      );
    } finally {
      await db().update(accounts).set({ smsEnabled: true }).where(eq(accounts.id, O1.id));
    }
  });
});

describe("lists", () => {
  it("pages 20 at a time, newest first, for the organisation and for one agent", async () => {
    for (let i = 0; i < 22; i++) {
      await client(token).call(api.getGroupConversationRoomId, {
        body: { users: [`+1503555${String(1000 + i)}`] },
      });
      const list = await client(token).call(api.listConversations, { query: { pageSize: 1 } });
      await client(token).call(api.sendConversationMessage, {
        params: { roomId: list.rooms[0]?.roomId ?? "" },
        body: { text: `note ${i}` },
      });
    }
    const first = await client(token).call(api.listConversations);
    expect(first.rooms).toHaveLength(20);
    expect(first.rooms[0]?.lastMessage?.text).toBe("note 21");
    const total = first.totalRooms;
    expect(total).toBeGreaterThanOrEqual(25);
    const second = await client(token).call(api.listConversations, { query: { page: 1 } });
    expect(second.rooms).toHaveLength(Math.min(20, total - 20));
    const ids = new Set([...roomIds(first), ...roomIds(second)]);
    expect(ids.size).toBe(first.rooms.length + second.rooms.length);
    const { O1, A1, O2 } = world.accounts;
    // A numeric id in place of a room id answers that account's list.
    const byOrg = await client(token).call(api.getConversation, { params: { roomId: String(O1.id) } });
    expect("totalRooms" in byOrg && byOrg.totalRooms).toBe(total);
    const byAgent = await client(token).call(api.listAgentConversations, { params: { id: A1.id } });
    expect(byAgent.totalRooms).toBe(total);
    await expectRefusal(client(token).call(api.listAgentConversations, { params: { id: O2.id } }), 404);
    // The agent account sees its own rooms only.
    const asAgent = await client(token, A1.id).call(api.listConversations);
    expect(asAgent.totalRooms).toBe(total);
    // A page past the end has no rooms and still the total (page and total are one statement).
    const past = await client(token).call(api.listConversations, { query: { page: 50 } });
    expect(past.rooms).toEqual([]);
    expect(past.totalRooms).toBe(total);
    // The unread filter's total counts the rooms the filter answers.
    const { roomId: unreadRoom } = await text("+15035559876", "unread here");
    const unread = await client(token).call(api.listConversations, {
      query: { unread: true, pageSize: 100 },
    });
    expect(unread.totalRooms).toBe(unread.rooms.length);
    expect(unread.rooms.every((r) => r.unread)).toBe(true);
    expect(roomIds(unread)).toContain(unreadRoom);
  });

  it("never shows another organisation's room", async () => {
    const { roomId } = await text("+15035550111", "private");
    const other = await expectRefusal(detail(roomId, world.members.o2Owner.token), 404);
    expect(JSON.stringify(other.body)).not.toContain("private");
  });
});

describe("media", () => {
  it("takes a picture up to 5 MB and refuses other files", async () => {
    const ok = await client(token).call(api.uploadChatMedia, { form: mediaForm(fakePng(128)) });
    expect(ok).toMatchObject({ contentType: "image/png", size: 128 });
    const plain = mediaForm(Buffer.from("hello there"), { filename: "a.txt", contentType: "text/plain" });
    await expectRefusal(
      client(token).call(api.uploadChatMedia, { form: plain }),
      415,
      "Attach a PNG, JPEG, GIF or WebP picture.",
    );
    await expectRefusal(
      client(token).call(api.uploadChatMedia, { form: mediaForm(fakePng(5 * 1024 * 1024 + 10)) }),
      413,
    );
    const { roomId } = await text("+15035550155", "send me the map");
    const withPicture = await client(token).call(api.sendConversationMessage, {
      params: { roomId },
      body: { text: "", media: [ok.url] },
    });
    expect(withPicture.message.media).toEqual([ok.url]);
    const received = (await handset("+15035550155")).messages.filter(
      (m) => m.direction === "outbound" && m.media.length > 0,
    );
    expect(received.map((m) => m.media)).toEqual([[ok.url]]);
  });
});

describe("the public messaging profile", () => {
  it("answers an agent's name and greeting without a token", async () => {
    const res = await client().call(api.getPublicMessages, {
      params: { username: world.accounts.A1.username },
      query: { preview: true },
    });
    expect(res).toEqual({
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
    await expectRefusal(client().call(api.getPublicMessages, { params: { username: "nobody-here" } }), 404);
    // An organisation is not a messaging profile.
    await expectRefusal(
      client().call(api.getPublicMessages, { params: { username: world.accounts.O1.username } }),
      404,
    );
  });
});

describe("the sandbox carrier", () => {
  it("refuses numbers no agent of the organisation has", async () => {
    await expectRefusal(
      client(token).call(api.sandboxInboundSms, {
        body: { from: "+15035550100", to: "+15035559999", text: "hi" },
      }),
      404,
      "No agent has this number.",
    );
    await expectRefusal(
      client(world.members.o2Owner.token).call(api.sandboxInboundSms, {
        body: { from: "+15035550100", to: AGENT_NUMBER, text: "hi" },
      }),
      404,
    );
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

describe("the campaign that answers", () => {
  it("answers with the published campaign, not a draft being edited", async () => {
    const agentId = world.accounts.A1.id;
    await client(token).call(api.saveCampaign, {
      body: { agentId, agentInstructions: "Opening hours: Sundays only, 10am-noon." },
    });
    try {
      await text("+15035550194", "What are your opening hours?");
      const phone = await waitFor(
        () => handset("+15035550194"),
        (h) => h.messages.length >= 2,
      );
      expect(phone.messages[1]?.text).toBe("Opening hours: Mon-Fri 8am-5pm.");
    } finally {
      await client(token).call(api.saveCampaign, { body: { agentId, agentInstructions: INSTRUCTIONS } });
    }
  });
});

import * as api from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { type TestClient, testClient } from "../../../test/api-client.ts";
import { createFakeCallLeg } from "../../../test/fake-call-leg.ts";
import { buildHierarchy, prepareSmsAgent } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { aiReplyJob } from "./jobs.ts";

const AGENT_NUMBER = "+15035550123";
const MOBILE = "+15035550471";
const WORK = "+15035550472";

/**
 * Issue 32 item 17: a person is one inbox thread, whichever of their numbers they text or call from. A
 * contact with two numbers who texts from one and calls from the other has one thread holding both, and a
 * reply goes to the number they last used.
 */
describe("a contact's one thread across their numbers", () => {
  let app: FastifyInstance;
  let world: Awaited<ReturnType<typeof buildHierarchy>>;
  let client: TestClient;
  let token: string;

  beforeAll(async () => {
    app = await buildTestApp();
    world = await buildHierarchy(app);
    client = testClient(app);
    token = world.members.o1Owner.token;
    await prepareSmsAgent(app, world, {
      number: AGENT_NUMBER,
      greeting: "Hello from the front desk.",
      agent: { details: { agentName: "Front Desk" } },
    });
  }, within(120_000));
  afterAll(async () => {
    await app.close();
  });

  const text = (from: string, body: string) =>
    client(token).call(api.sandboxInboundSms, { body: { from, to: AGENT_NUMBER, text: body } });
  const handset = async (number: string) =>
    (await client(token).call(api.sandboxHandset, { query: { number } })).messages.map((m) => m.text);
  const repliesSettled = () => app.context.jobs.idle([aiReplyJob]);

  async function detail(roomId: string) {
    const answer = await client(token).call(api.getConversation, { params: { roomId } });
    if (!("messages" in answer)) throw new Error(`${roomId} answered a list`);
    return answer;
  }

  /** The person rings the agent from `from`, hears the greeting and hangs up: the call's uuid. */
  async function callFrom(from: string): Promise<string> {
    const fake = createFakeCallLeg({ speed: 3, info: { from, to: AGENT_NUMBER } });
    const session = app.voice.startCallSession(fake.leg, { agentAccountId: world.accounts.A1.id });
    const uuid = await session.ready;
    await fake.untilAgentDone(300);
    fake.callerHangsUp();
    await session.ended;
    fake.stop();
    if (!uuid) throw new Error("the call did not start");
    return uuid;
  }

  it("a text from one number and a call from the other: one thread with both; replies go to the last number", {
    timeout: within(120_000),
  }, async () => {
    // The AI agent stays out of it: the replies here are the owner's.
    const { contact } = await client(token).call(api.saveContact, {
      body: {
        newData: {
          name: "Ann Lee",
          phones: [
            { label: "mobile", value: "(503) 555-0471" },
            { label: "work", value: "(503) 555-0472" },
          ],
        },
      },
    });
    expect(contact.addresses).toEqual([MOBILE, WORK]);

    const { roomId } = await text(MOBILE, "Hi, it's Ann.");
    if (!roomId) throw new Error("the text landed in no room");
    await client(token).call(api.setAiAgentEnabled, { params: { roomId }, body: { aiAgentEnabled: false } });
    await repliesSettled();
    const callUuid = await callFrom(WORK);

    // One thread for Ann, named for her, holding her text and her call.
    const list = await client(token).call(api.listConversations, { query: { pageSize: 100 } });
    const hers = list.rooms.filter((room) => room.contactId === contact.id);
    expect(hers.map((room) => room.roomId)).toEqual([roomId]);
    expect(hers[0]).toMatchObject({ displayName: "Ann Lee", username: WORK });
    expect(list.rooms.filter((room) => room.username === MOBILE || room.username === WORK)).toHaveLength(1);
    const thread = await detail(roomId);
    expect(thread.messages.find((m) => m.text === "Hi, it's Ann.")).toMatchObject({ callUuid: null });
    expect(thread.messages.some((m) => m.callUuid === callUuid && m.role === "assistant")).toBe(true);
    // Replies in her thread are texted.
    expect(thread.room.channel).toBe("sms");

    // She last called from her work number: the owner's reply goes there, not to her mobile.
    await client(token).call(api.sendConversationMessage, {
      params: { roomId },
      body: { text: "We called you back about Friday." },
    });
    expect(await handset(WORK)).toContain("We called you back about Friday.");
    expect(await handset(MOBILE)).not.toContain("We called you back about Friday.");

    // She texts from her mobile again: still the one thread, and the next reply goes to the mobile.
    const again = await text(MOBILE, "Friday works.");
    expect(again.roomId).toBe(roomId);
    await client(token).call(api.sendConversationMessage, {
      params: { roomId },
      body: { text: "See you Friday." },
    });
    expect(await handset(MOBILE)).toContain("See you Friday.");
    expect(await handset(WORK)).not.toContain("See you Friday.");
    const after = await client(token).call(api.listConversations, { query: { pageSize: 100 } });
    expect(after.rooms.filter((room) => room.contactId === contact.id).map((room) => room.roomId)).toEqual([
      roomId,
    ]);
  });

  it("a number of nobody's contact still has a thread of its own", { timeout: within(60_000) }, async () => {
    const { roomId } = await text("+15035550479", "Who is this?");
    const list = await client(token).call(api.listConversations, { query: { pageSize: 100 } });
    const room = list.rooms.find((r) => r.roomId === roomId);
    expect(room).toMatchObject({ username: "+15035550479", contactId: null });
    expect(list.rooms.filter((r) => r.username === "+15035550479")).toHaveLength(1);
  });
});

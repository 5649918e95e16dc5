import * as api from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { within } from "../../../../../vitest.time-limits.ts";
import type { testClient } from "../../../test/api-client.ts";
import type { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { prepareTaskAgent } from "../../../test/task-fixtures.ts";
import { aiReplyJob } from "../inbox/jobs.ts";

const AGENT_NUMBER = "+15035550123";

/**
 * Issue 32 items 17 and 2: a text task and a call task to the same person make one inbox thread (whichever
 * came first), the person's own texts land there too, and Calls lists the call alone: each conversation
 * keeps its channel.
 */
describe("a person's one thread", () => {
  let app: FastifyInstance;
  let world: Awaited<ReturnType<typeof buildHierarchy>>;
  let owner: ReturnType<ReturnType<typeof testClient>>;

  beforeAll(async () => {
    app = await buildTestApp({ OUTBOUND_ALLOWLIST: "127.0.0.1:*" });
    ({ world, owner } = await prepareTaskAgent(app, AGENT_NUMBER, {
      greeting: "Hello from the front desk.",
    }));
  }, within(120_000));
  afterAll(async () => {
    await app.close();
  });

  async function runTask(body: Omit<z.input<typeof api.createTaskBody>, "agentId">) {
    const { task } = await owner.call(api.createTask, { body: { agentId: world.accounts.A1.id, ...body } });
    await app.tasks.idle(200_000);
    return (await owner.call(api.getTask, { params: { id: task.id } })).task;
  }

  /** The inbox's threads with a number. */
  async function threadsWith(number: string) {
    const list = await owner.call(api.listConversations, { query: { pageSize: 100 } });
    return list.rooms.filter((room) => room.username === number);
  }

  async function detail(roomId: string) {
    const answer = await owner.call(api.getConversation, { params: { roomId } });
    if (!("messages" in answer)) throw new Error(`${roomId} answered a list`);
    return answer;
  }

  async function calls(channel?: "sms") {
    const answer = await owner.call(api.listLogs, {
      query: { fields: "uuid,toNumber,duration", ...(channel ? { channel } : {}) },
    });
    return answer.logs.map((row) => String(row.uuid));
  }

  it("a text task, then a call task: one thread with the text and the call; the person's reply joins it", {
    timeout: within(240_000),
  }, async () => {
    const number = "+15035550191";
    await owner.call(api.setSandboxCallee, { body: { number, behaviour: "person" } });
    const text = await runTask({ phoneNumber: number, message: "Your cleaning is on Friday." });
    const call = await runTask({ channel: "call", phoneNumber: number, name: "Ann" });
    expect(call).toMatchObject({ state: "completed", outcome: "answered" });

    const threads = await threadsWith(number);
    expect(threads).toHaveLength(1);
    const roomId = threads[0]?.roomId as string;
    expect(text.conversationId).toBe(roomId);
    expect(call.conversationId).toBe(roomId);
    const thread = await detail(roomId);
    expect(thread.messages[0]).toMatchObject({ text: "Your cleaning is on Friday.", callUuid: null });
    const callLines = thread.messages.filter((m) => m.callUuid === call.conversationUuid);
    expect(callLines.map((m) => m.role)).toContain("assistant");
    // Replies in the thread are texted: the room is the person's texting room.
    expect(thread.room.channel).toBe("sms");

    // The person texts back: the same thread, a text of the task's conversation (not of the call).
    await owner.call(api.sandboxInboundSms, { body: { from: number, to: AGENT_NUMBER, text: "Thanks!" } });
    await app.context.jobs.idle([aiReplyJob]);
    expect((await threadsWith(number)).map((room) => room.roomId)).toEqual([roomId]);
    const after = await detail(roomId);
    expect(after.messages.find((m) => m.text === "Thanks!")).toMatchObject({ role: "user", callUuid: null });
    expect(after.uuid).toBe(text.conversationUuid);

    // Calls lists the call, never the text as a 0:00 call; texts are listed as texts.
    const listedCalls = await calls();
    expect(listedCalls).toContain(call.conversationUuid);
    expect(listedCalls).not.toContain(text.conversationUuid);
    const texts = await calls("sms");
    expect(texts).toContain(text.conversationUuid);
    expect(texts).not.toContain(call.conversationUuid);
  });

  it("a call task, then a text task: the text joins the call's thread and is texted", {
    timeout: within(240_000),
  }, async () => {
    const number = "+15035550192";
    await owner.call(api.setSandboxCallee, { body: { number, behaviour: "person" } });
    const call = await runTask({ channel: "call", phoneNumber: number, name: "Bo" });
    expect(call).toMatchObject({ state: "completed", outcome: "answered" });
    const text = await runTask({ phoneNumber: number, message: "Here is the address." });
    expect(text.state).toBe("completed");

    const threads = await threadsWith(number);
    expect(threads).toHaveLength(1);
    expect(text.conversationId).toBe(call.conversationId);
    const thread = await detail(threads[0]?.roomId as string);
    expect(thread.messages.at(-1)).toMatchObject({ text: "Here is the address.", callUuid: null });
    expect(thread.messages.some((m) => m.callUuid === call.conversationUuid)).toBe(true);
    const handset = await owner.call(api.sandboxHandset, { query: { number } });
    expect(handset.messages.map((m) => m.text)).toContain("Here is the address.");
  });
});

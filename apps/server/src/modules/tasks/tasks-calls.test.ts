import * as api from "@switchboard/api";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import type { testClient } from "../../../test/api-client.ts";
import type { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { prepareTaskAgent } from "../../../test/task-fixtures.ts";
import { conversationLogs } from "../../db/schema/index.ts";

// Task calls to the sandbox carrier's simulated people and voicemails, in real time (the texts, CSV imports
// and limits of task lists are in tasks.test.ts, which needs no clock).
describe("task calls", () => {
  let app: FastifyInstance;
  let world: Awaited<ReturnType<typeof buildHierarchy>>;
  let owner: ReturnType<ReturnType<typeof testClient>>;

  beforeAll(async () => {
    app = await buildTestApp({ OUTBOUND_ALLOWLIST: "127.0.0.1:*" });
    ({ world, owner } = await prepareTaskAgent(app, "+15035550123", {
      greeting: "Hello from the front desk.",
    }));
  }, within(120_000));
  afterAll(async () => {
    await app.close();
  });

  it("calls: a simulated person answers, a simulated voicemail gets the message, busy waits for a retry", {
    timeout: within(240_000),
  }, async () => {
    const people = { person: "+15035550181", voicemail: "+15035550182", busy: "+15035550183" };
    for (const [behaviour, number] of Object.entries(people))
      await owner.call(api.setSandboxCallee, {
        body: { number, behaviour: behaviour as "person" | "voicemail" | "busy" },
      });
    await owner.call(api.saveTaskLimits, { body: { retryDelayMinutes: 30, maxAttempts: 2 } });
    const ids: Record<string, string> = {};
    for (const [behaviour, number] of Object.entries(people))
      ids[behaviour] = (
        await owner.call(api.createTask, {
          body: { agentId: world.accounts.A1.id, channel: "call", phoneNumber: number, name: behaviour },
        })
      ).task.id;
    await app.tasks.idle(200_000);
    const get = async (id: string) => (await owner.call(api.getTask, { params: { id } })).task;
    const person = await get(ids.person as string);
    expect(person).toMatchObject({
      state: "completed",
      outcome: "answered",
      answeredBy: "person",
      attempts: 1,
    });
    expect(person.amdDecisionMs).toEqual(expect.any(Number));
    expect(person.callId).toEqual(expect.any(String));
    expect(person.transcript.some((m) => m.role === "assistant")).toBe(true);
    const voicemail = await get(ids.voicemail as string);
    // The outcome follows the call's answering-machine decision (numbers.test.ts tests the detector itself;
    // on a machine starved of CPU it can hear the greeting as a person).
    expect(voicemail.state).toBe("completed");
    expect(voicemail.outcome).toBe(voicemail.answeredBy === "machine" ? "voicemail_left" : "answered");
    expect(voicemail.amdDecisionMs).toEqual(expect.any(Number));
    const busy = await get(ids.busy as string);
    expect(busy).toMatchObject({ state: "scheduled", outcome: "busy", attempts: 1 });
    expect(busy.nextAttemptAt).toBeGreaterThan(Date.now() + 25 * 60_000);
    // The call's log row carries the task and what the dashboards' task metrics read.
    const [log] = await app.context.database.db
      .select()
      .from(conversationLogs)
      .where(eq(conversationLogs.uuid, person.conversationUuid as string));
    expect(log?.data).toMatchObject({ taskId: person.id, taskCall: 1, taskAnswered: 1, taskCompleted: true });
    const stats = await owner.call(api.getTaskStats, {});
    expect(stats.stats.answerRate).toBeGreaterThan(0);
    await owner.call(api.editTask, { params: { id: busy.id }, body: { state: "cancelled" } });
  });

  it("calls: on a voicemail the agent leaves the message configured for it, or hangs up", {
    timeout: within(240_000),
  }, async () => {
    const agentId = world.accounts.A1.id;
    const configure = async (voicemail: Pick<api.CampaignFields, "voicemailAction" | "voicemailMessage">) => {
      const { staging } = await owner.call(api.getCampaigns, { query: { agentId } });
      await owner.call(api.saveCampaign, {
        body: { agentId, agentInstructions: staging.agentInstructions, ...voicemail },
      });
      await owner.call(api.publishAgent, { body: { agentId } });
    };
    const get = async (id: string) => (await owner.call(api.getTask, { params: { id } })).task;
    const callTask = async (phoneNumber: string) =>
      (
        await owner.call(api.createTask, {
          body: {
            agentId,
            channel: "call",
            phoneNumber,
            name: "Vic",
            variables: { Appointment: "Tuesday at 3" },
          },
        })
      ).task.id;
    try {
      await configure({
        voicemailAction: "leave_message",
        voicemailMessage:
          "Hi {name}, this is the front desk about your visit {appointment}. Please call us back.",
      });
      const { staging } = await owner.call(api.getCampaigns, { query: { agentId } });
      expect(staging).toMatchObject({ voicemailAction: "leave_message" });
      await owner.call(api.setSandboxCallee, { body: { number: "+15035550184", behaviour: "voicemail" } });
      const left = await callTask("+15035550184");
      await app.tasks.idle(200_000);
      const message = await get(left);
      expect(message).toMatchObject({ state: "completed", outcome: "voicemail_left", answeredBy: "machine" });
      expect(message.amdDecisionMs).toEqual(expect.any(Number));
      // The transcript is the message, word for word with the task's values, and nothing else.
      expect(message.transcript.map((m) => [m.role, m.text])).toEqual([
        ["assistant", "Hi Vic, this is the front desk about your visit Tuesday at 3. Please call us back."],
      ]);
      const call = await owner.call(api.getOutboundCall, { params: { callId: message.callId as string } });
      expect(call.call).toMatchObject({ outcome: "voicemail", answeredBy: "machine", status: "completed" });

      await configure({ voicemailAction: "hang_up", voicemailMessage: null });
      await owner.call(api.setSandboxCallee, { body: { number: "+15035550185", behaviour: "voicemail" } });
      const hungUp = await callTask("+15035550185");
      await app.tasks.idle(200_000);
      const hangup = await get(hungUp);
      // Hung up on the machine: not answered, so tried again after the retry delay; no conversation.
      expect(hangup).toMatchObject({
        state: "scheduled",
        outcome: "no_answer",
        answeredBy: "machine",
        attempts: 1,
      });
      expect(hangup.amdDecisionMs).toEqual(expect.any(Number));
      expect(hangup.transcript).toEqual([]);
      await owner.call(api.editTask, { params: { id: hungUp }, body: { state: "cancelled" } });
    } finally {
      await configure({ voicemailAction: "leave_message", voicemailMessage: null });
    }
  });

  it("calls: the task's columns fill the agent's {placeholders} when the person answers", {
    timeout: within(240_000),
  }, async () => {
    const agentId = world.accounts.A1.id;
    const { staging } = await owner.call(api.getCampaigns, { query: { agentId } });
    const publish = async (outboundGreeting: string | null) => {
      await owner.call(api.saveCampaign, {
        body: { agentId, agentInstructions: staging.agentInstructions, outboundGreeting },
      });
      await owner.call(api.publishAgent, { body: { agentId } });
    };
    try {
      await publish("Hi {name}, this is the front desk about your visit {appointment}.");
      await owner.call(api.setSandboxCallee, { body: { number: "+15035550186", behaviour: "person" } });
      const { task } = await owner.call(api.createTask, {
        body: {
          agentId,
          channel: "call",
          phoneNumber: "+15035550186",
          name: "Ann",
          variables: { Appointment: "on Friday" },
        },
      });
      await app.tasks.idle(200_000);
      const done = (await owner.call(api.getTask, { params: { id: task.id } })).task;
      expect(done).toMatchObject({ state: "completed", outcome: "answered" });
      // A recorded call (the default) opens with its recording notice, then the filled-in greeting.
      expect(
        done.transcript
          .filter((m) => m.role === "assistant")
          .map((m) => m.text)
          .slice(0, 2),
      ).toEqual([
        api.CALL_SETTINGS_DEFAULTS.recordingNotice,
        "Hi Ann, this is the front desk about your visit on Friday.",
      ]);
    } finally {
      await publish(staging.outboundGreeting ?? null);
    }
  });
});

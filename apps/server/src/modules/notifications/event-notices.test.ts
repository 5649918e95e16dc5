import { describe, expect, it } from "vitest";
import { missedCallNotice, taskListFinishedNotice } from "./event-notices.ts";

const call = (over: Partial<Parameters<typeof missedCallNotice>[0]> = {}) => ({
  callId: "c1",
  agentId: 7,
  direction: "inbound" as const,
  from: "+15035550177",
  to: "+15035550123",
  startedAt: 0,
  endedAt: 4000,
  durationSeconds: 4,
  outcome: "caller-hangup",
  transcript: [{ role: "assistant", text: "Hello, Bluebird Dental.", at: 100 }],
  recordingUrl: null,
  ...over,
});

describe("missed calls", () => {
  it("a caller who hung up before saying anything, or a call the agent could not take", () => {
    expect(missedCallNotice(call())).toMatchObject({
      kind: "missedCall",
      title: "Missed call from +1 (503) 555-0177",
      body: "The caller hung up before saying anything.",
      groupKey: "missedCall:+15035550177",
      agentId: 7,
    });
    expect(missedCallNotice(call({ outcome: "failed" }))?.body).toMatch(/could not take the call/);
  });

  it("not a call the caller spoke in, an outbound call, a test call or one the agent ended", () => {
    const spoke = [...call().transcript, { role: "user", text: "Do you open Saturday?", at: 900 }];
    expect(missedCallNotice(call({ transcript: spoke }))).toBeNull();
    expect(missedCallNotice(call({ direction: "outbound" }))).toBeNull();
    expect(missedCallNotice(call({ direction: "web" }))).toBeNull();
    expect(missedCallNotice(call({ outcome: "agent-ended" }))).toBeNull();
  });
});

describe("finished task lists", () => {
  it("says how the list went", () => {
    const notice = taskListFinishedNotice({
      listId: 3,
      name: "Recalls",
      counts: { total: 5, byState: { completed: 3, failed: 1, cancelled: 1 } },
    });
    expect(notice).toMatchObject({
      kind: "taskFinished",
      title: "Task list “Recalls” finished",
      body: "3 completed, 1 failed, 1 cancelled of 5.",
      groupKey: "taskList:3",
    });
  });
});

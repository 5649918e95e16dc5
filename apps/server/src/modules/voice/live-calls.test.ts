import type { RealtimeEvent } from "@switchboard/api";
import * as api from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { expectRefusal, testClient } from "../../../test/api-client.ts";
import { createFakeCallLeg } from "../../../test/fake-call-leg.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { concat, demoFrontDesk, silence, spokenFixture } from "../../../test/voice-fixtures.ts";
import type { accounts } from "../../db/schema/index.ts";

/** Live call state: the calls in progress, announced on the realtime WebSocket, and hung up from the app. */

let app: FastifyInstance;
let frontDesk: typeof accounts.$inferSelect;
let question: Int16Array;
let token: string;
let orgId: number;

beforeAll(async () => {
  [app, question] = await Promise.all([
    buildTestApp({ DEMO_DATA: "true" }),
    spokenFixture("Do you see children?"),
  ]);
  ({ agent: frontDesk, orgId, ownerToken: token } = await demoFrontDesk(app));
});
afterAll(async () => {
  await app.close();
});

async function until<T>(read: () => T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + within(ms);
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error("not received in time");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("live calls", () => {
  it(
    "a call is listed and announced while it lasts, with its captions; the owner hangs it up",
    async () => {
      const events: RealtimeEvent[] = [];
      const client = testClient(app)(token);
      // Nothing in progress yet. (Asked before the WebSocket opens: injectWS as the app's very first request
      // never opens, a quirk of the injection only; a real client's first request may be the WebSocket.)
      expect((await client.call(api.listLiveCalls, { query: { targetAccountId: orgId } })).calls).toEqual([]);
      const socket = await app.injectWS(
        `/api/v1/realtime?token=${token}&targetAccountId=${orgId}`,
        {},
        { onInit: (ws) => ws.on("message", (data: Buffer) => events.push(JSON.parse(String(data)))) },
      );
      try {
        const fake = createFakeCallLeg({ speed: 3 });
        const session = app.voice.startCallSession(fake.leg, { agentAccountId: frontDesk.id });
        const uuid = await session.ready;
        const callEvents = () => events.filter((e) => e.type === "call" && e.uuid === uuid);
        await until(() => callEvents().find((e) => e.type === "call" && e.what === "started"));

        const listed = await client.call(api.listLiveCalls, { query: { targetAccountId: orgId } });
        expect(listed.calls).toEqual([
          expect.objectContaining({
            uuid,
            agentId: frontDesk.id,
            agentName: "Front Desk",
            direction: "inbound",
          }),
        ]);

        await fake.untilAgentDone(300);
        fake.say(concat(question, silence(1200)));
        await fake.untilAgentDone(300);
        const captions = () =>
          callEvents().flatMap((e) => (e.type === "call" && e.what === "caption" ? [e] : []));
        await until(() => (captions().some((c) => c.role === "caller") ? true : undefined));
        await until(() => (captions().filter((c) => c.role === "agent").length >= 2 ? true : undefined));
        expect(captions().find((c) => c.role === "caller")?.text).toBe("do you see children");
        expect(captions().at(-1)?.text).toContain("we see children");

        const answer = await client.call(api.hangUpLiveCall, {
          params: { uuid: uuid as string },
          query: { targetAccountId: orgId },
        });
        expect(answer.message).toBe(api.LIVE_CALL_MESSAGES.hungUp);
        expect((await session.ended).outcome).toBe("agent-ended");
        await until(() => callEvents().find((e) => e.type === "call" && e.what === "ended"));
        const after = await client.call(api.listLiveCalls, { query: { targetAccountId: orgId } });
        expect(after.calls.map((c) => c.uuid)).not.toContain(uuid);

        await expectRefusal(
          client.call(api.hangUpLiveCall, {
            params: { uuid: uuid as string },
            query: { targetAccountId: orgId },
          }),
          404,
          api.LIVE_CALL_MESSAGES.notLive,
        );
      } finally {
        socket.terminate();
      }
    },
    within(60_000),
  );
});

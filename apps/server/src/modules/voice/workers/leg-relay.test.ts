// The relay between a transport's leg in the API process and the pipeline's in a voice worker, wired
// back to back in one process (the IPC channel carries the same events): a cold transfer by the transport
// itself (Twilio's <Dial>) asked for in the worker reaches the API process's leg, and its answer comes back.
import { describe, expect, it } from "vitest";
import { createFakeCallLeg } from "../../../../test/fake-call-leg.ts";
import type { CallLeg, HandOver } from "../call-leg.ts";
import type { CallSession } from "../call-session-types.ts";
import { createRelayedCalls, type RelayedCall, relayToWorker } from "./leg-relay.ts";
import type { LegEvent, SessionEvent } from "./worker-messages.ts";

/** The API process's leg relayed to a worker's pipeline; the worker's leg is what the pipeline was given. */
function relay(apiLeg: CallLeg) {
  let workerLeg: CallLeg | null = null;
  let relayed: RelayedCall | null = null;
  const pending = new Promise<never>(() => {});
  const worker = createRelayedCalls({
    startCall: (leg) => {
      workerLeg = leg;
      return { ready: pending, ended: pending, hangup: () => {} } as CallSession;
    },
    send: (_id, e: SessionEvent) => relayed?.onEvent(e),
  });
  relayed = relayToWorker(
    apiLeg,
    { agentAccountId: 1 },
    (e: LegEvent) => {
      worker.feed("call-1", e);
      return true;
    },
    () => {},
  );
  if (!workerLeg) throw new Error("the worker started no call");
  return workerLeg as CallLeg;
}

describe("a relayed call's hand-over", () => {
  it("is asked of the transport's leg with the destination and ring time, and answers how it went", async () => {
    const asked: { target: string; ringSeconds: number }[] = [];
    let answer: HandOver = {
      kind: "done",
      result: "no_answer",
      status: null,
      detail: "DialCallStatus no-answer",
    };
    const fake = createFakeCallLeg({ info: { transport: "twilio" } });
    const apiLeg: CallLeg = {
      ...fake.leg,
      handOver: async (target, options) => {
        asked.push({ target, ringSeconds: options.ringSeconds });
        return answer;
      },
    };
    const workerLeg = relay(apiLeg);
    expect(workerLeg.info.transport).toBe("twilio");
    expect(await workerLeg.handOver?.("+15035550111", { ringSeconds: 7 })).toEqual(answer);
    expect(asked).toEqual([{ target: "+15035550111", ringSeconds: 7 }]);

    answer = { kind: "refused", asked: true, status: 404, detail: "Twilio refused the update (404)" };
    expect(await workerLeg.handOver?.("sip:desk@example.com", { ringSeconds: 20 })).toEqual(answer);
    expect(asked.at(-1)).toEqual({ target: "sip:desk@example.com", ringSeconds: 20 });
    fake.callerHangsUp();
  });

  it("is absent in the worker when the transport has none (the pipeline bridges a new leg)", () => {
    const fake = createFakeCallLeg();
    const workerLeg = relay(fake.leg);
    expect(workerLeg.handOver).toBeUndefined();
    fake.callerHangsUp();
  });
});

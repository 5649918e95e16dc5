import { describe, expect, it } from "vitest";
import { FRAME_SAMPLES } from "../../audio/audio-format.ts";
import type { TtsProvider } from "../../providers/tts/tts-provider.ts";
import { simulatedCaller } from "./simulated-caller.ts";

/** A voice that says every line as a tenth of a second of silence: enough to be a line, quick to make. */
const quietVoice: TtsProvider = {
  name: "quiet",
  unavailable: () => null,
  voices: async () => [],
  defaultVoice: "quiet",
  async *synthesize() {
    yield new Int16Array(FRAME_SAMPLES * 5);
  },
};

function hungUp(caller: Awaited<ReturnType<typeof simulatedCaller>>) {
  return new Promise<void>((resolve) => caller.leg.onHangup(() => resolve()));
}

describe("a simulated caller with a mind", () => {
  it("says the lines its mind gives and hangs up when it has no more", async () => {
    const heard: string[] = [];
    const lines = ["I'd like a cleaning.", null];
    const caller = await simulatedCaller({
      tts: quietVoice,
      lines: [],
      mind: async (agentSaid) => {
        heard.push(agentSaid);
        return lines.shift() ?? null;
      },
      from: "+15035550100",
      to: "agent-1",
      patienceMs: 60,
    });
    caller.agentSaid("Hello, Bluebird Dental.");
    await hungUp(caller);
    expect(caller.stats).toMatchObject({ linesSaid: 1, hungUpBy: "caller", mindFailed: null });
    expect(heard[0]).toBe("Hello, Bluebird Dental.");
  });

  it("hangs up and keeps why when its mind fails (a persona's model that cannot be reached)", async () => {
    const caller = await simulatedCaller({
      tts: quietVoice,
      lines: [],
      mind: () => Promise.reject(new Error("The model did not answer: connect ECONNREFUSED")),
      from: "+15035550100",
      to: "agent-1",
      patienceMs: 60,
    });
    await hungUp(caller);
    expect(caller.stats).toMatchObject({
      linesSaid: 0,
      hungUpBy: "caller",
      mindFailed: "The model did not answer: connect ECONNREFUSED",
    });
  });
});

import { describe, expect, it } from "vitest";
import { quietFrame, stageCall, voicedFrame } from "../../../test/stage-fixtures.ts";
import type { SttProvider } from "../../providers/stt/stt-provider.ts";
import { energyVad } from "../../providers/vad/energy-vad.ts";
import { DEFAULT_CALL_SETTINGS } from "./call-settings.ts";
import { createHearing, type HeardTurn, type TurnDetector } from "./caller-hearing.ts";
import { createRecognition } from "./recognition.ts";

/**
 * The hearing stage without a call or a transport: frames in (a tone for voice, zeros for silence, through
 * the energy VAD), its events out. Recognition is a stand-in recogniser that answers a fixed text.
 */

async function hearing(options: { agentTalking: boolean; text?: string; turnOver?: TurnDetector }) {
  const streams: { written: number; aborted: boolean }[] = [];
  const stt: SttProvider = {
    name: "stand-in",
    hearsNarrowband: true,
    unavailable: () => null,
    close() {},
    start() {
      const stream = { written: 0, aborted: false };
      streams.push(stream);
      return {
        write: () => void stream.written++,
        finish: async () => options.text ?? "do you see children",
        abort() {
          stream.aborted = true;
        },
      };
    },
  };
  const call = stageCall(stt);
  const events: string[] = [];
  const turns: HeardTurn[] = [];
  const stage = createHearing(
    call,
    createRecognition(call, false),
    {
      agentTalking: () => options.agentTalking,
      hold: () => events.push("hold"),
      release: () => events.push("release"),
      bargeIn: () => events.push("barge-in"),
      heard: (isVoiced) => {
        if (!isVoiced) events.push("onset");
      },
      turn(turn) {
        events.push("turn");
        turns.push(turn);
      },
    },
    options.turnOver,
  );
  stage.listen(await energyVad().createStream());
  const feed = (count: number, frame: () => Int16Array) => {
    for (let i = 0; i < count; i++) stage.hear(frame());
  };
  return { stage, events, turns, streams, feed };
}

describe("the hearing stage", () => {
  it("hears a turn: one recogniser from the pre-roll on, its text once the caller stops", async () => {
    const { stage, events, turns, streams, feed } = await hearing({ agentTalking: false });
    feed(10, quietFrame);
    feed(50, voicedFrame);
    expect(stage.speaking).toBe(true);
    feed(40, quietFrame);
    expect(events).toEqual(["onset", "turn"]);
    expect(stage.speaking).toBe(false);
    expect(streams).toHaveLength(1);
    // The 15 frames before the onset was confirmed, then every frame of the utterance.
    expect(streams[0]?.written).toBeGreaterThanOrEqual(50);
    const turn = turns[0] as HeardTurn;
    expect(turn.duringAgent).toBe(false);
    expect(await turn.recognised).toEqual({ text: "do you see children", confidence: null });
    expect(turn.timing.text).toBe("do you see children");
    expect(turn.timing.endpointAt).toBeGreaterThanOrEqual(turn.timing.lastVoicedAt);
  });

  it("ends a complete sentence at the short pause, before the full end-of-turn silence", async () => {
    const { events, feed } = await hearing({ agentTalking: false });
    feed(50, voicedFrame);
    feed(10, quietFrame);
    expect(events).toEqual(["onset"]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events).toEqual(["onset", "turn"]);
  });

  it("asks a turn detector given to it, which may wait for the full end-of-turn silence", async () => {
    const asked: { text: string; frames: number }[] = [];
    const { events, feed } = await hearing({
      agentTalking: false,
      turnOver: async (text, frames) => {
        asked.push({ text, frames: frames.length });
        return false;
      },
    });
    feed(50, voicedFrame);
    feed(10, quietFrame);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events).toEqual(["onset"]);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.text).toBe("do you see children");
    // The utterance's frames so far, pre-roll included.
    expect(asked[0]?.frames).toBeGreaterThanOrEqual(50);
    feed(20, quietFrame);
    expect(events).toEqual(["onset", "turn"]);
  });

  it("holds the agent for a backchannel and lets it go on, with no turn", async () => {
    const { events, streams, feed } = await hearing({ agentTalking: true });
    feed(10, voicedFrame);
    feed(40, quietFrame);
    expect(events).toEqual(["onset", "hold", "release", "release"]);
    expect(streams[0]?.aborted).toBe(true);
  });

  it("barges in once the caller has talked over the agent for bargeInMinSpeechMs, then hears the turn", async () => {
    const { events, turns, feed } = await hearing({ agentTalking: true });
    feed(DEFAULT_CALL_SETTINGS.bargeInMinSpeechMs / 20 - 1, voicedFrame);
    expect(events).toEqual(["onset", "hold"]);
    feed(10, voicedFrame);
    expect(events).toEqual(["onset", "hold", "barge-in"]);
    feed(40, quietFrame);
    expect(events).toEqual(["onset", "hold", "barge-in", "turn"]);
    expect(turns[0]?.duringAgent).toBe(true);
  });

  it("hears nothing before it listens, and gives up the utterance in progress when stopped", async () => {
    const { stage, events, streams, feed } = await hearing({ agentTalking: false });
    feed(30, voicedFrame);
    stage.stop();
    expect(streams[0]?.aborted).toBe(true);
    feed(40, quietFrame);
    expect(events).toEqual(["onset"]);
  });
});

import { describe, expect, it } from "vitest";
import { quietFrame, stageCall, voicedFrame } from "../../../test/stage-fixtures.ts";
import type { SttProvider } from "../../providers/stt/stt-provider.ts";
import { energyVad } from "../../providers/vad/energy-vad.ts";
import { destinationCaptions } from "./destination-captions.ts";

/**
 * A transfer destination whose line does not tell its words: its frames (a tone for voice, zeros for
 * silence, through the energy VAD) are heard and each utterance recognised by a stand-in recogniser that
 * answers the utterances' texts in turn.
 */

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

function destination(texts: string[]) {
  const recognisers = { started: 0, aborted: 0 };
  const stt: SttProvider = {
    name: "stand-in",
    hearsNarrowband: true,
    unavailable: () => null,
    close() {},
    start() {
      const text = texts[recognisers.started++] ?? "";
      return {
        write() {},
        finish: async () => text,
        abort() {
          recognisers.aborted++;
        },
      };
    },
  };
  const call = stageCall(stt);
  const said: string[] = [];
  const captions = destinationCaptions(call, energyVad(), (text) => said.push(text));
  return { call, captions, said, recognisers };
}

async function speak(hear: (frame: Int16Array) => void, voicedFrames: number, quietFrames: number) {
  for (let i = 0; i < voicedFrames; i++) hear(voicedFrame());
  for (let i = 0; i < quietFrames; i++) {
    hear(quietFrame());
    if (i % 10 === 0) await tick();
  }
}

describe("a transfer destination's captions", () => {
  it("tells each utterance of the destination as recognised, in order", async () => {
    const { captions, said } = destination(["sales, this is Dana", "how can I help"]);
    await tick();
    await speak(captions.hear, 40, 60);
    await speak(captions.hear, 30, 60);
    await expect.poll(() => said).toEqual(["sales, this is Dana", "how can I help"]);
    captions.stop();
  });

  it("says nothing of silence or of an empty recognition, and stops hearing once stopped", async () => {
    const { captions, said, recognisers } = destination(["", "later words"]);
    await tick();
    await speak(captions.hear, 0, 50);
    await speak(captions.hear, 30, 60);
    await tick();
    expect(said).toEqual([]);
    expect(recognisers.started).toBe(1);
    // An utterance under way when the bridge ends: its recogniser is dropped; nothing is heard after.
    for (let i = 0; i < 30; i++) captions.hear(voicedFrame());
    captions.stop();
    await speak(captions.hear, 30, 60);
    await tick();
    expect(said).toEqual([]);
    expect(recognisers.started).toBe(2);
    expect(recognisers.aborted).toBe(1);
  });
});

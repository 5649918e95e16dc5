import { describe, expect, it } from "vitest";
import { FRAME_SAMPLES } from "../../audio/audio-format.ts";
import type { TtsProvider } from "../../providers/tts/tts-provider.ts";
import type { MessageRow } from "../conversations/index.ts";
import { createAgentSpeech } from "./agent-speech.ts";

/**
 * The speech stage without a transport: sentences in, frames out to a queue that stands for the leg (it
 * plays nothing by itself), captions and the cut of the stored text out. Synthesis is a stand-in that makes
 * 10 frames a word.
 */

function stage() {
  const queue: Int16Array[] = [];
  const captions: string[] = [];
  const cuts: string[] = [];
  const tts: TtsProvider = {
    name: "stand-in",
    defaultVoice: "",
    unavailable: () => null,
    voices: async () => [],
    async *synthesize(text) {
      for (const _ of text.split(" ")) yield new Int16Array(10 * FRAME_SAMPLES).fill(1000);
    },
  };
  const call = {
    leg: {
      sendAudio: (frame: Int16Array) => void queue.push(frame),
      clearAudio: () => void queue.splice(0),
      queuedFrames: () => queue.length,
    },
    deps: { tts, voice: { cutMessage: async (_id: number, text: string) => void cuts.push(text) } },
    log: { error() {} },
    voice: null,
    finished: false,
    captions: true,
    caption: (_role: "agent", text: string, final: boolean) =>
      void captions.push(`${final ? "final" : "live"}: ${text}`),
    unexpected(error: unknown): void {
      throw error;
    },
  };
  /** The leg plays `count` frames. */
  const play = (count: number) => queue.splice(0, count).length;
  return { speech: createAgentSpeech(call), queue, captions, cuts, play };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

describe("the speech stage", () => {
  it("synthesises sentences in order into the leg, with a live caption, then the final once played", async () => {
    const { speech, queue, captions, play } = stage();
    const current = speech.speak();
    current.say("Hello there.");
    current.say("How can I help?");
    current.close();
    await current.finished;
    expect(queue).toHaveLength(60);
    expect(speech.talking).toBe(true);
    expect(captions).toEqual(["live: Hello there.", "live: Hello there. How can I help?"]);
    play(60);
    await settle();
    expect(speech.talking).toBe(false);
    expect(captions.at(-1)).toBe("final: Hello there. How can I help?");
  });

  it("holds at the caller's onset and goes on from where it stopped after a backchannel", async () => {
    const { speech, queue, play } = stage();
    const current = speech.speak();
    current.say("One two three four.");
    current.close();
    await current.finished;
    play(15);
    speech.hold();
    expect(queue).toHaveLength(0);
    speech.release();
    expect(queue).toHaveLength(25);
    expect(current.sent).toBe(40);
  });

  it("cuts an interrupted speech, its caption and its stored text, to what the caller heard", async () => {
    const { speech, captions, cuts, play } = stage();
    const current = speech.speak();
    current.say("Our office opens at nine.");
    current.say("We close at five.");
    current.close();
    current.keep({ id: 7 } as MessageRow);
    await current.finished;
    play(60);
    speech.interrupt();
    speech.cut();
    await settle();
    expect(speech.speaking).toBe(false);
    expect(captions.at(-1)).toBe("final: Our office opens at nine. We");
    expect(cuts).toEqual(["Our office opens at nine. We"]);
    await speech.drained();
  });
});

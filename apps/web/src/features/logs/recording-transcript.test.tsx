import type { TranscriptEntry } from "@switchboard/api";
import { act, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderAt } from "../../test/render.tsx";
import { RecordingTranscript } from "./recording-transcript.tsx";

// Issue 32 item 21: the call's details play the recording with the transcript following along.

const START = Date.parse("2026-11-28T10:00:00Z");
const entry = (
  id: number,
  role: TranscriptEntry["role"],
  text: string,
  atSeconds: number,
): TranscriptEntry => ({
  id,
  role,
  text,
  toolCalls: [],
  toolResults: [],
  status: "complete",
  error: null,
  model: null,
  createdAt: START + atSeconds * 1000,
  firstTokenMs: null,
  durationMs: null,
});
const MESSAGES = [
  entry(1, "assistant", "This call may be recorded.", 0.2),
  entry(2, "assistant", "Thank you for calling Bluebird Dental, how can I help you today?", 2),
  entry(3, "user", "do you see children", 7.5),
  entry(4, "assistant", "Yes, we see children from age 3.", 8),
];

/** jsdom has no media playback: the player's position is a plain property the test moves. */
function player() {
  const audio = screen.getByLabelText("Call recording") as HTMLAudioElement;
  let time = 0;
  Object.defineProperty(audio, "currentTime", {
    configurable: true,
    get: () => time,
    set: (value: number) => {
      time = value;
    },
  });
  const play = vi.fn(() => Promise.resolve());
  audio.play = play;
  return {
    audio,
    play,
    at: (seconds: number) => {
      time = seconds;
      fireEvent.timeUpdate(audio);
    },
    get time() {
      return time;
    },
  };
}

const line = (text: string) => screen.getByRole("button", { name: new RegExp(text) });
const current = () =>
  screen
    .getAllByRole("button")
    .filter((button) => button.getAttribute("aria-current") === "true")
    .map((button) => button.textContent);

const scrollIntoView = Element.prototype.scrollIntoView;
afterEach(() => {
  Element.prototype.scrollIntoView = scrollIntoView;
});

describe("the recording's transcript", () => {
  it("marks the turn being heard as the recording plays, and scrolls it into view", async () => {
    const scrolled: string[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this.textContent ?? "");
    };
    renderAt(
      "/app",
      <RecordingTranscript url="/files/recordings/abc.wav" messages={MESSAGES} startedAt={START} />,
    );
    const audio = player();
    expect(current()).toEqual([]);
    act(() => audio.at(0.5));
    expect(current()).toEqual([expect.stringContaining("This call may be recorded.")]);
    act(() => audio.at(3));
    expect(current()).toEqual([expect.stringContaining("Thank you for calling Bluebird Dental")]);
    act(() => audio.at(7.9));
    expect(current()).toEqual([expect.stringContaining("do you see children")]);
    expect(scrolled.at(-1)).toContain("do you see children");
    act(() => audio.at(20));
    expect(current()).toEqual([expect.stringContaining("Yes, we see children from age 3.")]);
    // Played back from the start again: the first line again.
    act(() => audio.at(1));
    expect(current()).toEqual([expect.stringContaining("This call may be recorded.")]);
  });

  it("plays the recording from a turn when it is clicked", async () => {
    renderAt(
      "/app",
      <RecordingTranscript url="/files/recordings/abc.wav" messages={MESSAGES} startedAt={START} />,
    );
    const audio = player();
    await act(async () => {
      fireEvent.click(line("do you see children"));
    });
    expect(audio.time).toBe(7.5);
    expect(audio.play).toHaveBeenCalled();
    expect(current()).toEqual([expect.stringContaining("do you see children")]);
    expect(line("do you see children").getAttribute("title")).toBe("Play from 0:07");
  });
});

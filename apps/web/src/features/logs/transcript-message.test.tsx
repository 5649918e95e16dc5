import type { TranscriptEntry } from "@switchboard/api";
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderAt } from "../../test/render.tsx";
import { TranscriptMessage } from "./transcript-message.tsx";

const message = (overrides: Partial<TranscriptEntry>): TranscriptEntry => ({
  id: 1,
  role: "assistant",
  text: "",
  toolCalls: [],
  toolResults: [],
  status: "complete",
  error: null,
  model: null,
  createdAt: Date.parse("2026-11-28T10:00:00Z"),
  firstTokenMs: null,
  durationMs: null,
  ...overrides,
});

describe("a call transcript's message", () => {
  it("says why an agent message has no words instead of showing an empty bubble", () => {
    renderAt(
      "/",
      <TranscriptMessage
        message={message({ error: "Interrupted by the caller before anything was heard." })}
      />,
    );
    expect(screen.getByText("Agent")).toBeTruthy();
    expect(screen.getByText("Interrupted by the caller before anything was heard.")).toBeTruthy();
  });

  it("shows the words heard of an interrupted message, without the note", () => {
    renderAt(
      "/",
      <TranscriptMessage message={message({ text: "Thank you for", error: "Interrupted by the caller." })} />,
    );
    expect(screen.getByText("Thank you for")).toBeTruthy();
    expect(screen.queryByText("Interrupted by the caller.")).toBeNull();
  });

  it("shows a failed turn's error in its own line", () => {
    renderAt(
      "/",
      <TranscriptMessage message={message({ status: "failed", error: "The model did not answer." })} />,
    );
    expect(screen.getByText("The model did not answer.")).toBeTruthy();
  });
});

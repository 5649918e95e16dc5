import { Stack, Text, UnstyledButton } from "@mantine/core";
import type { TranscriptEntry } from "@switchboard/api";
import { useEffect, useRef, useState } from "react";
import { speakerOf, TranscriptBubble } from "./transcript-bubble.tsx";

/** A spoken turn of the call and where it is in the recording (seconds from the call's start). */
export type TimedTurn = { id: number; role: string; text: string; createdAt: number; offset: number };

/**
 * The call's spoken turns with their offsets in the recording: each stored message's time less the call's
 * start. A message is stored when its words are known, so an agent line lands within a few tenths of a
 * second of where it is heard, and a caller turn just after the caller finished it (after the pause that
 * ended the turn and its recognition).
 */
export function timedTurns(messages: readonly TranscriptEntry[], startedAt: number): TimedTurn[] {
  return messages
    .filter((m) => (m.role === "assistant" || m.role === "user") && m.text.trim() !== "")
    .map((m) => ({
      id: m.id,
      role: m.role,
      text: m.text,
      createdAt: m.createdAt,
      offset: Math.max(0, (m.createdAt - startedAt) / 1000),
    }));
}

/** The turn being heard at `seconds`: the last one that started by then (the first before it); -1 for none. */
export function turnAt(turns: readonly TimedTurn[], seconds: number): number {
  let current = turns.length > 0 ? 0 : -1;
  for (const [index, turn] of turns.entries()) if (turn.offset <= seconds) current = index;
  return current;
}

/**
 * The recording's player with the transcript following along: the turn being heard is marked and scrolled
 * into view as it plays, and clicking a turn plays the recording from there.
 */
export function RecordingTranscript({
  url,
  messages,
  startedAt,
}: {
  url: string;
  messages: readonly TranscriptEntry[];
  startedAt: number;
}) {
  const audio = useRef<HTMLAudioElement>(null);
  const turnRefs = useRef(new Map<number, HTMLElement>());
  const turns = timedTurns(messages, startedAt);
  const [current, setCurrent] = useState(-1);
  const currentId = turns[current]?.id;

  useEffect(() => {
    if (currentId === undefined) return;
    turnRefs.current.get(currentId)?.scrollIntoView?.({ block: "nearest", behavior: "smooth" });
  }, [currentId]);

  const follow = () => setCurrent(turnAt(turns, audio.current?.currentTime ?? 0));
  const seek = (turn: TimedTurn) => {
    const player = audio.current;
    if (!player) return;
    player.currentTime = turn.offset;
    follow();
    // A browser that refuses to play without a gesture of its own still has the player at the turn.
    void player.play()?.catch(() => {});
  };

  return (
    <Stack gap={6}>
      {/* biome-ignore lint/a11y/useMediaCaption: a phone call's recording; the transcript below is its caption. */}
      <audio
        ref={audio}
        controls
        preload="metadata"
        src={url}
        aria-label="Call recording"
        style={{ width: "100%" }}
        onTimeUpdate={follow}
        onSeeked={follow}
      />
      <Text size="xs" c="dimmed">
        Caller on the left channel, agent on the right. Click a line to play from there.{" "}
        <a href={url} download>
          Download
        </a>
      </Text>
      <Stack
        gap={6}
        role="group"
        aria-label="Transcript"
        mah={320}
        style={{ overflowY: "auto" }}
        data-testid="recording-transcript"
      >
        {turns.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nothing was said on this call.
          </Text>
        ) : (
          turns.map((turn, index) => (
            <UnstyledButton
              key={turn.id}
              aria-current={index === current ? "true" : undefined}
              title={`Play from ${formatOffset(turn.offset)}`}
              onClick={() => seek(turn)}
              ref={(element: HTMLButtonElement | null) => {
                if (element) turnRefs.current.set(turn.id, element);
                else turnRefs.current.delete(turn.id);
              }}
              style={{
                borderRadius: "var(--mantine-radius-sm)",
                outline: index === current ? "2px solid var(--mantine-color-blue-filled)" : undefined,
              }}
            >
              <TranscriptBubble who={speakerOf(turn.role)} at={turn.createdAt}>
                <Text size="sm">
                  <Text span size="xs" c="dimmed" mr={6}>
                    {formatOffset(turn.offset)}
                  </Text>
                  {turn.text}
                </Text>
              </TranscriptBubble>
            </UnstyledButton>
          ))
        )}
      </Stack>
    </Stack>
  );
}

/** 75.4 s as 1:15. */
export const formatOffset = (seconds: number) => {
  const whole = Math.floor(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
};

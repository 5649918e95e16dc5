import { ActionIcon, Tooltip } from "@mantine/core";
import { previewVoice } from "@switchboard/api";
import IconPlayerPlay from "@tabler/icons-react/dist/esm/icons/IconPlayerPlay.mjs";
import IconPlayerStop from "@tabler/icons-react/dist/esm/icons/IconPlayerStop.mjs";
import { useEffect, useRef, useState } from "react";
import { authHeaders } from "../../lib/api-client.ts";
import { toast } from "../../lib/toast.ts";

/** The one sample playing: starting another stops it. */
let playing: { audio: HTMLAudioElement; stop: () => void } | null = null;

/**
 * Plays a short sample of an agent voice (GET /api/v1/voice/preview, made by the speech engine calls use);
 * a second press stops it. Lives inside a voice card, so it does not select the card.
 */
export function VoicePreviewButton({ voiceId, voiceName }: { voiceId: string; voiceName: string }) {
  const [state, setState] = useState<"idle" | "loading" | "playing">("idle");
  const mine = useRef<HTMLAudioElement | null>(null);
  useEffect(
    () => () => {
      if (playing && playing.audio === mine.current) playing.stop();
    },
    [],
  );

  const stop = () => {
    if (playing?.audio === mine.current) playing?.stop();
  };
  const play = () => {
    playing?.stop();
    const audio = new Audio();
    mine.current = audio;
    let objectUrl: string | null = null;
    const done = () => {
      audio.pause();
      setState("idle");
      if (playing?.audio === audio) playing = null;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
      objectUrl = null;
    };
    const failed = () => {
      done();
      toast.error(`The sample of ${voiceName} could not be played.`);
    };
    playing = { audio, stop: done };
    audio.addEventListener("playing", () => setState("playing"));
    audio.addEventListener("ended", done);
    audio.addEventListener("error", failed);
    setState("loading");
    // Fetched with the session as a header (never in the address), then played from memory.
    fetch(`${previewVoice.path}?${new URLSearchParams({ voice: voiceId }).toString()}`, {
      headers: authHeaders(),
    })
      .then(async (response) => {
        if (!response.ok) throw new Error(`preview ${response.status}`);
        const blob = await response.blob();
        if (playing?.audio !== audio) return;
        objectUrl = URL.createObjectURL(blob);
        audio.src = objectUrl;
        await audio.play();
      })
      .catch(() => {
        // Refused, failed, or not allowed to play without a gesture: say so unless it plays already.
        if (playing?.audio === audio && state !== "playing") failed();
      });
  };

  const label = state === "idle" ? `Play a sample of ${voiceName}` : `Stop the sample of ${voiceName}`;
  return (
    <Tooltip label={label} withinPortal>
      <ActionIcon
        variant="light"
        size="lg"
        radius="xl"
        aria-label={label}
        loading={state === "loading"}
        onClick={(event) => {
          event.stopPropagation();
          event.preventDefault();
          if (state === "idle") play();
          else stop();
        }}
        data-testid={`voice-preview-${voiceId}`}
      >
        {state === "playing" ? <IconPlayerStop size={16} /> : <IconPlayerPlay size={16} />}
      </ActionIcon>
    </Tooltip>
  );
}

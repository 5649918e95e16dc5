import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  Progress,
  ScrollArea,
  Stack,
  Text,
} from "@mantine/core";
import { useEffect, useRef } from "react";
import { Link } from "react-router";
import type { Caption } from "./captions.ts";
import { useVoiceCall } from "./use-voice-call.ts";
import type { CallStatus } from "./voice-call.ts";

const STATUS: Record<CallStatus, { label: string; color: string }> = {
  idle: { label: "Not connected", color: "gray" },
  connecting: { label: "Connecting…", color: "blue" },
  live: { label: "On the call", color: "green" },
  ended: { label: "Call ended", color: "gray" },
  denied: { label: "Microphone blocked", color: "red" },
  "no-microphone": { label: "No microphone", color: "red" },
  failed: { label: "Call failed", color: "red" },
};

/** Who said a caption: the agent, the person the call was transferred to (both on the far side), or you. */
const SPEAKERS: Record<Caption["role"], string> = {
  agent: "Agent",
  destination: "Transfer destination",
  caller: "You",
};

function CaptionLine({ caption }: { caption: Caption }) {
  const farSide = caption.role !== "caller";
  return (
    <Stack gap={2} align={farSide ? "flex-start" : "flex-end"} data-testid={`caption-${caption.role}`}>
      <Text size="xs" c="dimmed">
        {SPEAKERS[caption.role]}
      </Text>
      <Paper
        px="sm"
        py={6}
        radius="md"
        maw="85%"
        withBorder={caption.role === "destination"}
        bg={farSide ? "var(--mantine-color-default-hover)" : "var(--mantine-primary-color-light)"}
        style={{ opacity: caption.final ? 1 : 0.75 }}
      >
        <Text size="sm">{caption.text}</Text>
      </Paper>
    </Stack>
  );
}

/**
 * The browser test call with an agent: Call / Hang up, mute, the microphone's level, live captions of both
 * sides, and what went wrong (microphone blocked or missing, the call refused or dropped). Loaded lazily.
 */
export function CallPanel({
  agentId,
  stage,
  number,
}: {
  agentId?: number;
  stage?: "staging" | "production";
  /** Call one of the organisation's numbers instead (the sandbox phone). */
  number?: string;
}) {
  const { call, state } = useVoiceCall(number ? { number } : { agentId: agentId ?? 0, stage });
  const viewport = useRef<HTMLDivElement>(null);
  const active = state.status === "connecting" || state.status === "live";
  const status = STATUS[state.status];
  const last = state.captions.at(-1);

  // biome-ignore lint/correctness/useExhaustiveDependencies: follow the captions as they grow
  useEffect(() => {
    viewport.current?.scrollTo({ top: viewport.current.scrollHeight });
  }, [state.captions.length, last?.text]);

  return (
    <Stack gap="sm" data-testid="call-panel">
      <Group justify="space-between" wrap="nowrap">
        <Group gap="xs">
          <Badge color={status.color} variant="light" data-testid="call-status">
            {status.label}
          </Badge>
          {state.status === "connecting" ? <Loader size="xs" aria-hidden /> : null}
        </Group>
        <Group gap="xs" wrap="nowrap">
          {active ? (
            <>
              <Button
                variant="default"
                size="xs"
                aria-pressed={state.muted}
                onClick={() => call.setMuted(!state.muted)}
              >
                {state.muted ? "Unmute" : "Mute"}
              </Button>
              <Button color="red" size="xs" onClick={() => call.hangup()}>
                Hang up
              </Button>
            </>
          ) : (
            <Button color="green" size="xs" onClick={() => void call.start()}>
              {state.status === "idle" ? "Call" : "Call again"}
            </Button>
          )}
        </Group>
      </Group>
      <Group gap="xs" wrap="nowrap" align="center">
        <Text size="xs" c="dimmed" w={80}>
          Microphone
        </Text>
        <Progress
          value={state.muted ? 0 : Math.round(state.level * 100)}
          style={{ flex: 1 }}
          size="sm"
          transitionDuration={60}
          aria-label="Microphone level"
        />
      </Group>
      {state.status === "denied" || state.status === "no-microphone" || state.status === "failed" ? (
        <Alert color="red" variant="light" role="alert">
          {state.message}
        </Alert>
      ) : state.status === "ended" && state.message ? (
        <Group gap="xs">
          <Text size="sm" c="dimmed" data-testid="call-ended">
            {state.message}
          </Text>
          {state.uuid ? (
            <Anchor
              size="sm"
              component={Link}
              to={`/app/logs?filters=${encodeURIComponent(JSON.stringify({ uuid: state.uuid }))}`}
            >
              See the call in Calls
            </Anchor>
          ) : null}
        </Group>
      ) : null}
      <ScrollArea h={280} viewportRef={viewport} type="auto" aria-label="Live captions">
        <Stack gap="sm" p="xs" role="log" aria-live="polite">
          {state.captions.length === 0 ? (
            <Text size="sm" c="dimmed">
              {active
                ? "The agent speaks first. Captions of both sides appear here."
                : "Press Call and speak to the agent through your microphone."}
            </Text>
          ) : (
            state.captions.map((caption) => <CaptionLine key={caption.id} caption={caption} />)
          )}
        </Stack>
      </ScrollArea>
      <Text size="xs" c="dimmed">
        Offline speech recognition works best with a headset in a quiet room. Test calls are kept in Calls.
      </Text>
    </Stack>
  );
}

import { Alert, Badge, Button, Group, Stack, Table, Text, VisuallyHidden } from "@mantine/core";
import { useEffect, useState } from "react";
import { EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { usePermission } from "../../lib/account-state.ts";
import { errorMessage } from "../../lib/shell-api.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { useInboxRealtime } from "../inbox/api.ts";
import { useTranscript } from "../logs/api.ts";
import { formatDuration } from "../logs/log-format.ts";
import { speakerOf, TranscriptBubble } from "../logs/transcript-bubble.tsx";
import { callState, useCallState } from "./call-state.ts";
import { type LiveCall, useHangUpLiveCall, useLiveCalls, useLiveCaptions } from "./live-calls-api.ts";

/** The time now, every second (a live call's running duration). */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

const partiesOf = (call: LiveCall) =>
  call.direction === "outbound" ? `${call.to ?? "unknown"} (outbound)` : (call.from ?? "unknown caller");

/** `?calling`: the organisation's calls in progress, live; each opens in `?call` to listen in. */
export function LiveCallsOverlay(_props: OverlayComponentProps) {
  useInboxRealtime();
  const calls = useLiveCalls();
  const overlays = useOverlays();
  const now = useNow();
  if (calls.isPending) return <LoadingState label="Loading the calls in progress…" />;
  if (calls.isError) return <ErrorState error={calls.error} onRetry={() => void calls.refetch()} />;
  if (calls.data.length === 0)
    return <EmptyState>No calls in progress. Calls show here the moment they start.</EmptyState>;
  return (
    <Table aria-label="Calls in progress" verticalSpacing="xs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Agent</Table.Th>
          <Table.Th>Caller</Table.Th>
          <Table.Th>Duration</Table.Th>
          <Table.Th>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {calls.data.map((call) => (
          <Table.Tr key={call.uuid}>
            <Table.Td>
              <Group gap={6} wrap="nowrap">
                <Text size="sm">{call.agentName}</Text>
                {call.stage === "staging" ? (
                  <Badge size="xs" variant="light" color="gray">
                    Test call
                  </Badge>
                ) : null}
              </Group>
            </Table.Td>
            <Table.Td>
              <Text size="sm">{partiesOf(call)}</Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm">{formatDuration((now - call.startedAt) / 1000)}</Text>
            </Table.Td>
            <Table.Td>
              <Button
                size="compact-sm"
                variant="light"
                aria-label={`Listen in to ${call.agentName}'s call with ${partiesOf(call)}`}
                onClick={() => overlays.switch("calling", "call", `${call.roomId}/${call.uuid}`)}
              >
                Listen in
              </Button>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * `?call=<roomId>/<uuid>`: one call as it happens — what was said so far, then each side's sentences as
 * they are spoken — with a hang-up for those who may edit the organisation. Watching sets the app's call
 * state (viewer only); the call ending elsewhere kicks the viewer.
 */
export function LiveCallOverlay({ value }: OverlayComponentProps) {
  useInboxRealtime();
  const at = value.lastIndexOf("/");
  const roomId = at > 0 ? value.slice(0, at) : "";
  const uuid = at > 0 ? value.slice(at + 1) : "";
  const calls = useLiveCalls();
  const transcript = useTranscript(roomId, uuid);
  const captions = useLiveCaptions(uuid);
  const hangUp = useHangUpLiveCall();
  const canHangUp = usePermission("canEditOrg");
  const { kick } = useCallState();
  const now = useNow();
  const call = calls.data?.find((one) => one.uuid === uuid);
  const live = call !== undefined;

  useEffect(() => {
    if (!uuid) return;
    callState.start({
      username: `meeting-${uuid}`,
      type: "audio",
      isLive: true,
      viewerOnly: true,
      meetingId: uuid,
    });
    return () => {
      callState.end();
      callState.resetKick();
    };
  }, [uuid]);
  // Seen live, then gone from the list: the call ended while the viewer watched.
  const [seenLive, setSeenLive] = useState(false);
  useEffect(() => {
    if (live) setSeenLive(true);
    else if (seenLive && !kick) callState.kick();
  }, [live, seenLive, kick]);

  if (!roomId || !uuid) return <Alert color="red">This call could not be found.</Alert>;
  if (transcript.isPending || calls.isPending) return <LoadingState label="Joining the call…" />;
  if (transcript.isError)
    return <ErrorState error={transcript.error} onRetry={() => void transcript.refetch()} />;
  const stored = transcript.data.conversation.filter((message) => message.text);
  // Captions already stored (heard before the transcript loaded) are shown once.
  const storedTexts = new Set(stored.map((message) => `${speakerOf(message.role)}:${message.text.trim()}`));
  const fresh = captions.filter((caption) => !storedTexts.has(`${caption.role}:${caption.text.trim()}`));
  const ended = kick || (!live && !seenLive);
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Group gap="xs">
          {ended ? (
            <Badge color="gray">Ended</Badge>
          ) : (
            <Badge color="red" variant="filled">
              Live
            </Badge>
          )}
          {call ? (
            <Text size="sm">
              {call.agentName} · {partiesOf(call)} · {formatDuration((now - call.startedAt) / 1000)}
            </Text>
          ) : null}
        </Group>
        {canHangUp && !ended ? (
          <Button
            color="red"
            size="compact-sm"
            loading={hangUp.isPending}
            onClick={() => hangUp.mutate(uuid)}
          >
            Hang up
          </Button>
        ) : null}
      </Group>
      {hangUp.isError ? (
        <Alert color="red" role="alert">
          {errorMessage(hangUp.error)}
        </Alert>
      ) : null}
      {ended ? (
        <Alert color="gray" role="status">
          The call has ended.
        </Alert>
      ) : null}
      <Stack gap="sm" aria-label="Live transcript" aria-live="polite">
        {stored.length === 0 && fresh.length === 0 ? <Text c="dimmed">Nobody has spoken yet.</Text> : null}
        {stored.map((message) => (
          <TranscriptBubble key={message.id} who={speakerOf(message.role)} at={message.createdAt}>
            <Text size="sm">{message.text}</Text>
          </TranscriptBubble>
        ))}
        {fresh.map((caption) => (
          <TranscriptBubble key={caption.id} who={caption.role} at={caption.at}>
            <Text size="sm">{caption.text}</Text>
          </TranscriptBubble>
        ))}
      </Stack>
    </Stack>
  );
}

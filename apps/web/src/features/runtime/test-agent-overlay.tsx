import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  ScrollArea,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
} from "@mantine/core";
import { restartTestChat } from "@switchboard/api";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { apiClient } from "../../lib/api-client.ts";
import { errorMessage } from "../../lib/shell-api.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { overlayAccountId } from "../accounts/account-kinds.ts";
import { useAccountById } from "../accounts/api.ts";
import { useFinishWalkthroughStep } from "../walkthrough/api.ts";
import { streamTestChat } from "./chat-stream.ts";
import { type ChatMessage, type Stage, TestChatSession, type ToolStep } from "./test-chat.ts";

/** The model's name when no model is configured (the server's sandbox). */
const SANDBOX_MODEL = "Sandbox model";

function useTestChat(agentId: number, initialStage: Stage): TestChatSession {
  const [session] = useState(
    () =>
      new TestChatSession(
        agentId,
        {
          stream: streamTestChat,
          restart: async (uuid) => {
            await apiClient.call(restartTestChat, { body: { agentId, uuid } });
          },
          errorText: (error) => errorMessage(error, "The agent could not be reached."),
        },
        initialStage,
      ),
  );
  useEffect(() => {
    void session.start();
    return () => session.dispose();
  }, [session]);
  return session;
}

function ToolLine({ step }: { step: ToolStep }) {
  const failed = Boolean(step.result?.error);
  return (
    <Group gap={6} wrap="nowrap" data-testid="tool-step">
      <Badge size="sm" variant="light" color={step.result ? (failed ? "red" : "teal") : "gray"}>
        {step.call.name}
      </Badge>
      <Text size="sm" c={failed ? "red" : undefined}>
        {step.result ? step.result.summary : "Working…"}
      </Text>
    </Group>
  );
}

function MessageBubble({ message }: { message: ChatMessage }) {
  const mine = message.role === "user";
  return (
    <Stack gap={4} align={mine ? "flex-end" : "flex-start"} data-testid={`chat-${message.role}`}>
      {message.tools.map((step) => (
        <ToolLine key={step.call.toolCallId} step={step} />
      ))}
      {message.status === "failed" ? (
        <Alert color="red" variant="light" p="xs" role="alert">
          {message.error}
        </Alert>
      ) : message.text || message.status === "complete" ? (
        <Paper
          px="sm"
          py={6}
          radius="md"
          maw="85%"
          bg={mine ? "var(--mantine-primary-color-light)" : "var(--mantine-color-default-hover)"}
        >
          <Text size="sm" style={{ whiteSpace: "pre-wrap" }}>
            {message.text}
          </Text>
        </Paper>
      ) : (
        <Loader size="xs" type="dots" role="status" aria-label="The agent is answering" />
      )}
    </Stack>
  );
}

/** `?testAgent=<agentId>` (the draft by default) and `?chat=<agentId>` (what is live by default). */
export function TestAgentOverlay({ name, value }: OverlayComponentProps) {
  const agentId = overlayAccountId(value);
  if (agentId === null) return <Text>Choose an agent to talk to from the agents page.</Text>;
  return (
    <TestChat key={agentId} agentId={agentId} initialStage={name === "chat" ? "production" : "staging"} />
  );
}

function TestChat({ agentId, initialStage }: { agentId: number; initialStage: Stage }) {
  const session = useTestChat(agentId, initialStage);
  const state = useSyncExternalStore(session.subscribe, session.getState);
  const agent = useAccountById(agentId).data?.account;
  const [draft, setDraft] = useState("");
  const viewport = useRef<HTMLDivElement>(null);
  const last = state.messages.at(-1);

  // biome-ignore lint/correctness/useExhaustiveDependencies: follow the conversation as it grows
  useEffect(() => {
    viewport.current?.scrollTo({ top: viewport.current.scrollHeight });
  }, [state.messages.length, last?.text, last?.tools.length]);

  // While the agent is still answering, Enter keeps the draft (it is sent once the answer is complete).
  const canSend = !state.busy && !state.ended && draft.trim() !== "";
  const finishStep = useFinishWalkthroughStep();
  const tested = useRef(false);
  const send = () => {
    if (!canSend) return;
    const text = draft;
    setDraft("");
    void session.send(text);
    if (!tested.current) {
      tested.current = true;
      finishStep("TEST_AGENT");
    }
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text fw={600}>{agent?.displayName ?? "Agent"}</Text>
        <Group gap="xs">
          <SegmentedControl
            size="xs"
            aria-label="Which configuration answers"
            value={state.stage}
            data={[
              { value: "staging", label: "Draft" },
              { value: "production", label: "Published" },
            ]}
            onChange={(stage) => void session.restart(stage as Stage)}
          />
          <Button size="xs" variant="default" onClick={() => void session.restart()}>
            Restart
          </Button>
        </Group>
      </Group>
      {state.model ? (
        <Text size="xs" c="dimmed" data-testid="chat-model">
          Answered by: {state.model}
        </Text>
      ) : null}
      {state.model === SANDBOX_MODEL ? (
        <Text size="xs" c="dimmed" data-testid="chat-model-note">
          The sandbox model answers only from this agent's instructions and runs its actions; anything else
          gets a polite "can't help with that". For open conversation, choose a model under Settings → AI
          model.
        </Text>
      ) : null}
      {state.error ? (
        <Alert color="red" variant="light" role="alert">
          {state.error}
        </Alert>
      ) : null}
      <ScrollArea h={380} viewportRef={viewport} type="auto" aria-label="Conversation">
        <Stack gap="sm" p="xs" role="log" aria-live="polite">
          {state.messages.map((message) => (
            <MessageBubble key={message.key} message={message} />
          ))}
        </Stack>
      </ScrollArea>
      {state.ended ? (
        <Text size="sm" c="dimmed">
          The agent ended the conversation. Restart to talk again.
        </Text>
      ) : null}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
      >
        <Group align="flex-end" gap="xs" wrap="nowrap">
          <Textarea
            aria-label="Message"
            placeholder="Say something to the agent…"
            autosize
            minRows={1}
            maxRows={4}
            style={{ flex: 1 }}
            value={draft}
            disabled={state.ended}
            onChange={(event) => setDraft(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter" && !event.shiftKey) {
                event.preventDefault();
                send();
              }
            }}
            data-autofocus
          />
          <Button type="submit" disabled={!canSend}>
            Send
          </Button>
        </Group>
      </form>
    </Stack>
  );
}

import { Button, Card, Group, SegmentedControl, Stack, Text, Textarea, TextInput } from "@mantine/core";
import type { VoicemailAction } from "@switchboard/api";
import { useState } from "react";
import { ActionError } from "../../../../components/query-state.tsx";
import { useRunPrompt } from "../../api.ts";
import type { PanelProps } from "../panels.ts";

/** One question to the draft, answered by the model (tools only preview what they would do). */
function TryIt({ agentId, editor }: Pick<PanelProps, "agentId" | "editor">) {
  const run = useRunPrompt(agentId);
  const [question, setQuestion] = useState("");
  const ask = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!question.trim() || !(await editor.save())) return;
    run.mutate(question.trim());
  };
  return (
    <Card withBorder padding="sm">
      <form onSubmit={(event) => void ask(event)}>
        <Group align="flex-end" gap="xs" wrap="nowrap">
          <TextInput
            label="Try it"
            placeholder="Ask what a caller would ask"
            style={{ flex: 1 }}
            value={question}
            onChange={(event) => setQuestion(event.currentTarget.value)}
          />
          <Button type="submit" variant="light" loading={run.isPending} disabled={!question.trim()}>
            Ask
          </Button>
        </Group>
      </form>
      <ActionError error={run.error} />
      {run.data ? (
        <Stack gap={4} mt="sm" data-testid="try-answer">
          {run.data.toolResults.map((result) => (
            <Text key={result.toolCallId} size="sm" c="dimmed">
              {result.name}: {result.summary}
            </Text>
          ))}
          <Text size="sm" style={{ whiteSpace: "pre-wrap" }}>
            {run.data.answer}
          </Text>
          <Text size="xs" c="dimmed">
            Answered by: {run.data.model}
          </Text>
        </Stack>
      ) : null}
    </Card>
  );
}

/** What the agent does when a voicemail answers its outbound call (tasks): leave a message, or hang up. */
function VoicemailSettings({ editor, state }: Pick<PanelProps, "editor" | "state">) {
  const action = state.draft.voicemailAction ?? "leave_message";
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id="voicemail-action-label">
        On voicemail
      </Text>
      <Text size="xs" c="dimmed">
        When a voicemail answers an outbound call, the agent leaves its message after the beep, or hangs up
        (the call counts as not answered and is tried again).
      </Text>
      <SegmentedControl
        aria-labelledby="voicemail-action-label"
        value={action}
        onChange={(value) => editor.edit({ voicemailAction: value as VoicemailAction })}
        data={[
          { value: "leave_message", label: "Leave a message" },
          { value: "hang_up", label: "Hang up" },
        ]}
        style={{ alignSelf: "flex-start" }}
      />
      {action === "leave_message" ? (
        <Textarea
          label="Voicemail message"
          description="Said word for word after the beep. Use {name} or any column of a task list; empty: the greeting on calls it places."
          autosize
          minRows={2}
          maxRows={6}
          maxLength={2000}
          value={state.draft.voicemailMessage ?? ""}
          onChange={(event) => editor.edit({ voicemailMessage: event.currentTarget.value || null })}
        />
      ) : null}
    </Stack>
  );
}

/** The instructions (the prompt) and the greeting the agent opens with. */
export function PromptPanel({ agentId, editor, state }: PanelProps) {
  return (
    <Stack gap="sm">
      <Textarea
        label="Instructions"
        description="Who the agent is, what it knows and what it does. Use {key} for template variables."
        autosize
        minRows={10}
        maxRows={28}
        value={state.draft.agentInstructions}
        error={state.promptError}
        onChange={(event) => editor.edit({ agentInstructions: event.currentTarget.value })}
        data-autofocus
      />
      <TextInput
        label="Greeting"
        description="The first thing the agent says when it answers."
        value={state.draft.greeting ?? ""}
        onChange={(event) => editor.edit({ greeting: event.currentTarget.value || null })}
      />
      <TextInput
        label="Greeting on calls it places"
        description="What the agent says first on a task's call or text. Empty: “Hi, this is <agent> from <organization>”, with “calling about …” when the task has an about column."
        value={state.draft.outboundGreeting ?? ""}
        onChange={(event) => editor.edit({ outboundGreeting: event.currentTarget.value || null })}
      />
      <VoicemailSettings editor={editor} state={state} />
      <Text size="xs" c="dimmed">
        Changes save on their own 1.5 seconds after you stop typing; publish to make them live.
      </Text>
      <TryIt agentId={agentId} editor={editor} />
    </Stack>
  );
}

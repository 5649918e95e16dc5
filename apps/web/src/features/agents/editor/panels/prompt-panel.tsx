import { Button, Card, Group, Stack, Text, Textarea, TextInput } from "@mantine/core";
import { useState } from "react";
import { ActionError } from "../../../../components/query-state.tsx";
import { useRunPrompt } from "../../api.ts";
import type { PanelProps } from "../panel-content.tsx";

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
      <Text size="xs" c="dimmed">
        Changes save on their own 1.5 seconds after you stop typing; publish to make them live.
      </Text>
      <TryIt agentId={agentId} editor={editor} />
    </Stack>
  );
}

import { Stack, Text, Textarea, TextInput } from "@mantine/core";
import type { PanelProps } from "../panel-content.tsx";

/** The instructions (the prompt) and the greeting the agent opens with. */
export function PromptPanel({ editor, state }: PanelProps) {
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
    </Stack>
  );
}

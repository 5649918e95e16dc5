import { Button, Card, Stack, Text } from "@mantine/core";
import { ActionError } from "../../../../components/query-state.tsx";
import { usePromptSuggestions } from "../../api.ts";
import type { PanelProps } from "../panels.ts";

/** The model reviews the draft's prompt and proposes improvements. */
export function SuggestionsPanel({ agentId, state }: PanelProps) {
  const review = usePromptSuggestions(agentId);
  const answer = review.data;
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        The model reads the instructions and greeting and says what a caller might miss.
      </Text>
      <Button
        w="fit-content"
        loading={review.isPending}
        onClick={() =>
          review.mutate({ agentInstructions: state.draft.agentInstructions, greeting: state.draft.greeting })
        }
      >
        {answer ? "Review again" : "Review the prompt"}
      </Button>
      <ActionError error={review.error} />
      {answer ? (
        <Stack gap="xs" aria-label="Suggestions">
          <Text size="xs" c="dimmed">
            Reviewed by: {answer.model}
          </Text>
          {answer.suggestions.length === 0 ? (
            <Text>No suggestions: the prompt covers what the review looks for.</Text>
          ) : (
            answer.suggestions.map((suggestion) => (
              <Card key={suggestion.id} withBorder padding="sm" data-testid="suggestion">
                <Text fw={600}>{suggestion.title}</Text>
                <Text size="sm">{suggestion.detail}</Text>
              </Card>
            ))
          )}
        </Stack>
      ) : null}
    </Stack>
  );
}

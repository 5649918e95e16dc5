import { Anchor, MultiSelect, Stack, Text, Title } from "@mantine/core";
import { Link } from "react-router";
import { ErrorState, LoadingState } from "../../../../components/query-state.tsx";
import { useAppPath } from "../../../../lib/account-context.ts";
import { appPath } from "../../../../lib/account-path.ts";
import { useKnowledgeBases } from "../../../knowledge-base/api.ts";
import type { PanelProps } from "../panels.ts";

/** The organisation's knowledge bases the agent searches when it answers (its knowledge tool). */
export function KnowledgePanel({ editor, state }: PanelProps) {
  const list = useKnowledgeBases();
  const { accountPrefix } = useAppPath();
  const chosen = (state.draft.knowledgeBaseIds ?? []).map(String);
  const options = (list.data?.knowledgeBases ?? []).map((kb) => ({
    value: String(kb.id),
    label: `${kb.title} (${kb.progress.indexed} of ${kb.progress.total} indexed)`,
  }));
  return (
    <Stack gap="md">
      <Title order={4}>Knowledge bases</Title>
      <Text size="sm" c="dimmed">
        The agent looks up answers in these knowledge bases (your website and documents) and names the source.
      </Text>
      {list.isPending ? <LoadingState label="Loading the knowledge bases…" /> : null}
      {list.isError ? <ErrorState error={list.error} onRetry={() => void list.refetch()} /> : null}
      {list.data && options.length === 0 ? (
        <Text c="dimmed">
          This organisation has no knowledge base yet.{" "}
          <Anchor component={Link} to={appPath(accountPrefix, "knowledge-base")}>
            Create one on the Knowledge base page
          </Anchor>
          .
        </Text>
      ) : null}
      {options.length > 0 ? (
        <MultiSelect
          label="Knowledge bases this agent uses"
          placeholder={chosen.length ? undefined : "Choose knowledge bases"}
          data={options}
          value={chosen.filter((id) => options.some((option) => option.value === id))}
          onChange={(values) => editor.edit({ knowledgeBaseIds: values.map(Number) })}
          clearable
          searchable
        />
      ) : null}
    </Stack>
  );
}

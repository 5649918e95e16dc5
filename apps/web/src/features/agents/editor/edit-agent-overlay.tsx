import { Alert, Badge, Button, Grid, Group, NavLink, Stack, Text, Title } from "@mantine/core";
import { useEffect } from "react";
import { ErrorState, LoadingState } from "../../../components/query-state.tsx";
import type { OverlayComponentProps } from "../../../overlays/overlay-props.ts";
import { useOverlays } from "../../../overlays/use-overlays.tsx";
import { overlayAccountId } from "../../accounts/account-kinds.ts";
import { useAccountById } from "../../accounts/api.ts";
import { TestsHoldAlert } from "../../agent-tests/tests-hold-alert.tsx";
import { CallButton } from "../../voice/call-button.tsx";
import type { CampaignEditor, CampaignEditorState } from "./campaign-editor.ts";
import { PanelContent } from "./panel-content.tsx";
import { EDITOR_PANELS, type EditorPanelId, panelFromValue, panelValue } from "./panels.ts";
import { useCampaignEditor, useEditorState } from "./use-campaign-editor.ts";

/** `?editAgent=<agentId>` or `?editAgent=<agentId>/<panel>`: the agent editor (product spec §2.1, §4.4). */
export function EditAgentOverlay({ value }: OverlayComponentProps) {
  const agentId = overlayAccountId(value.split("/")[0] ?? "");
  if (agentId === null) return <Text>Choose an agent to edit from the agents page.</Text>;
  return <AgentEditor agentId={agentId} value={value} />;
}

function AgentEditor({ agentId, value }: { agentId: number; value: string }) {
  const { campaigns, editor } = useCampaignEditor(agentId);
  if (campaigns.isError)
    return (
      <ErrorState
        title="This agent could not be loaded"
        error={campaigns.error}
        onRetry={() => void campaigns.refetch()}
      />
    );
  if (!editor) return <LoadingState label="Loading the agent…" />;
  return <LoadedEditor agentId={agentId} editor={editor} value={value} />;
}

function LoadedEditor({
  agentId,
  editor,
  value,
}: {
  agentId: number;
  editor: CampaignEditor;
  value: string;
}) {
  const state = useEditorState(editor);
  const overlays = useOverlays();
  const panel = panelFromValue(value);
  const agent = useAccountById(agentId).data?.account;
  const conflicted = state.status === "conflict";

  useEffect(() => {
    if (conflicted) overlays.open("saveConflict", String(agentId));
  }, [conflicted, agentId, overlays.open]);

  const choose = (id: EditorPanelId) => overlays.open("editAgent", panelValue(agentId, id));

  return (
    <Stack gap="md" data-testid="agent-editor">
      {/* On a phone the actions go below the name rather than past the screen's edge. */}
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4} style={{ flex: "1 1 12rem", minWidth: 0 }}>
          <Title order={3}>{agent?.displayName ?? "Agent"}</Title>
          <Group gap="xs">
            <PublishBadge state={state} />
            <SaveStatus state={state} />
          </Group>
        </Stack>
        <Group gap="xs" wrap="nowrap">
          <Button variant="default" onClick={() => overlays.open("testAgent", String(agentId))}>
            Test
          </Button>
          <CallButton agentId={agentId} />
          <Button loading={state.publishing} onClick={() => void editor.publish()}>
            Publish
          </Button>
        </Group>
      </Group>
      <EditorErrors editor={editor} errors={state.errors} />
      {state.heldByTests ? (
        <TestsHoldAlert
          failing={state.heldByTests}
          publishing={state.publishing}
          onOpenTests={() => choose("tests")}
          onPublishAnyway={() => void editor.publish({ overrideTests: true })}
        />
      ) : null}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, sm: 3 }}>
          {/* Every panel shows at once: a height cap hid the last ones (Settings) in a scroll area. */}
          <nav aria-label="Agent editor panels">
            {EDITOR_PANELS.map((item) => (
              <NavLink
                key={item.id}
                label={item.label}
                active={item.id === panel}
                onClick={() => choose(item.id)}
                aria-current={item.id === panel ? "page" : undefined}
                py={3}
              />
            ))}
          </nav>
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 9 }}>
          <section aria-label={EDITOR_PANELS.find((item) => item.id === panel)?.label}>
            <PanelContent panel={panel} agentId={agentId} editor={editor} state={state} />
          </section>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

const SAVE_LABELS: Record<CampaignEditorState["status"], { label: string; color: string }> = {
  saved: { label: "All changes saved", color: "gray" },
  pending: { label: "Unsaved changes", color: "yellow" },
  saving: { label: "Saving…", color: "blue" },
  error: { label: "Not saved", color: "red" },
  conflict: { label: "Save conflict", color: "red" },
};

function SaveStatus({ state }: { state: CampaignEditorState }) {
  const { label, color } = SAVE_LABELS[state.status];
  return (
    <Text size="sm" c={color === "gray" ? "dimmed" : color} role="status" data-testid="save-status">
      {label}
    </Text>
  );
}

function PublishBadge({ state }: { state: CampaignEditorState }) {
  if (!state.production)
    return (
      <Badge color="gray" variant="light">
        Not published yet
      </Badge>
    );
  const live = state.staging.published && state.draft.published;
  return live ? (
    <Badge color="teal" variant="light">
      Published
    </Badge>
  ) : (
    <Badge color="yellow" variant="light">
      Unpublished changes
    </Badge>
  );
}

/** Failed saves and publishes (spec §8): the newest as an alert, the earlier ones in a list below it. */
function EditorErrors({ editor, errors }: { editor: CampaignEditor; errors: string[] }) {
  if (errors.length === 0) return null;
  const newest = errors.length - 1;
  return (
    <Alert
      color="red"
      variant="light"
      role="alert"
      title={errors[newest]}
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={() => editor.dismissError(newest)}
    >
      {errors.length > 1 ? (
        <ul style={{ margin: 0, paddingLeft: "1.2em" }}>
          {errors.slice(0, newest).map((message, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the same message may fail twice
            <li key={index}>{message}</li>
          ))}
        </ul>
      ) : null}
    </Alert>
  );
}

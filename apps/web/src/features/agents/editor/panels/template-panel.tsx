import { Alert, Button, Group, Stack, Text, Title } from "@mantine/core";
import type { Template } from "@switchboard/api";
import { useState } from "react";
import { confirm } from "../../../../components/confirm/confirm-store.ts";
import { ActionError, LoadingState } from "../../../../components/query-state.tsx";
import { toast } from "../../../../lib/toast.ts";
import { useOverlays } from "../../../../overlays/use-overlays.tsx";
import { campaignErrorText, detachFromTemplate, useTemplates, useUpdateTemplate } from "../../api.ts";
import { TEMPLATE_SAVE_FAILED, TEMPLATE_SAVE_UNREACHABLE } from "../../templates/template-errors.ts";
import { TemplateMigration } from "../../templates/template-migration.tsx";
import type { PanelProps } from "../panels.ts";

/** Update a template from this agent, then bring the agents made from it up to date (dry run first). */
function TemplateActions({ template, props }: { template: Template; props: PanelProps }) {
  const update = useUpdateTemplate();
  const [saveError, setSaveError] = useState<string | null>(null);
  const overlays = useOverlays();

  const saveTemplate = () => {
    const { draft } = props.state;
    setSaveError(null);
    update.mutate(
      {
        id: template.id,
        body: {
          agentInstructions: draft.agentInstructions,
          greeting: draft.greeting,
          actions: draft.actions,
          apps: draft.apps,
          enabledFunctions: draft.enabledFunctions,
          confirmTransfers: draft.confirmTransfers,
          revision: template.revision,
        },
      },
      {
        onSuccess: () => toast.success(`Template “${template.name}” saved.`),
        onError: (error) =>
          setSaveError(campaignErrorText(error, TEMPLATE_SAVE_FAILED, TEMPLATE_SAVE_UNREACHABLE)),
      },
    );
  };

  return (
    <Stack gap="sm">
      <Group gap="xs">
        <Button variant="light" loading={update.isPending} onClick={saveTemplate}>
          Update the template from this agent
        </Button>
        <Button variant="default" onClick={() => overlays.open("renameTemplate", String(template.id))}>
          Rename the template
        </Button>
      </Group>
      {saveError ? (
        <Alert color="red" variant="light" role="alert">
          {saveError}
        </Alert>
      ) : null}
      <Title order={5}>Agents made from it</Title>
      <TemplateMigration templateId={template.id} onMigrated={() => void props.editor.reload()} />
    </Stack>
  );
}

/** The template the agent was made from: detach, update it, migrate, or make a new one from this agent. */
export function TemplatePanel(props: PanelProps) {
  const { agentId, editor, state } = props;
  const templates = useTemplates();
  const overlays = useOverlays();
  const [detachError, setDetachError] = useState<unknown>(null);
  const templateId = state.draft.templateId;
  const template = templates.data?.templates.find((item) => item.id === templateId);

  const detach = async () => {
    const ok = await confirm({
      title: "Detach this agent from its template?",
      details: "It keeps its configuration and becomes a full agent: template changes no longer reach it.",
      confirmText: "Detach",
    });
    if (!ok) return;
    setDetachError(null);
    try {
      await editor.save();
      editor.adopt(await detachFromTemplate(agentId));
      toast.success("The agent is now a full agent.");
    } catch (error) {
      setDetachError(error);
    }
  };

  return (
    <Stack gap="md">
      {templateId === null ? (
        <Text>This is a full agent: it was not made from a template, or was detached from it.</Text>
      ) : templates.isPending ? (
        <LoadingState label="Loading the template…" />
      ) : template ? (
        <Stack gap="xs">
          <Text>
            Made from the template <b>{template.name}</b>.
          </Text>
          {template.description ? (
            <Text size="sm" c="dimmed">
              {template.description}
            </Text>
          ) : null}
          <Button variant="default" w="fit-content" onClick={() => void detach()}>
            Detach from the template
          </Button>
          <ActionError error={detachError} />
          {template.editable ? <TemplateActions template={template} props={props} /> : null}
        </Stack>
      ) : (
        <Text c="dimmed">The template of this agent is no longer available.</Text>
      )}
      <Button
        variant="light"
        w="fit-content"
        onClick={() => overlays.open("createTemplate", String(agentId))}
      >
        Save as a new template
      </Button>
    </Stack>
  );
}

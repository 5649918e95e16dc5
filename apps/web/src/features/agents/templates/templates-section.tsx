import { Alert, Badge, Button, Card, Group, Stack, Text, Textarea, TextInput, Title } from "@mantine/core";
import type { Template } from "@switchboard/api";
import { useState } from "react";
import { confirm } from "../../../components/confirm/confirm-store.ts";
import { EmptyState, ErrorState, LoadingState } from "../../../components/query-state.tsx";
import { usePermission } from "../../../lib/account-state.ts";
import { toast } from "../../../lib/toast.ts";
import { useOverlays } from "../../../overlays/use-overlays.tsx";
import { campaignErrorText, useDeleteTemplate, useTemplates, useUpdateTemplate } from "../api.ts";
import { TEMPLATE_SAVE_FAILED, TEMPLATE_SAVE_UNREACHABLE } from "./template-errors.ts";
import { TemplateMigration } from "./template-migration.tsx";

/** Edit a template's text; the agents made from it change when it is migrated. */
function TemplateEditor({ template, done }: { template: Template; done: () => void }) {
  const update = useUpdateTemplate();
  const [description, setDescription] = useState(template.description ?? "");
  const [instructions, setInstructions] = useState(template.agentInstructions);
  const [greeting, setGreeting] = useState(template.greeting ?? "");
  const [error, setError] = useState<string | null>(null);
  const save = (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    update.mutate(
      {
        id: template.id,
        body: {
          description: description.trim() || null,
          agentInstructions: instructions,
          greeting: greeting.trim() || null,
          revision: template.revision,
        },
      },
      {
        onSuccess: () => {
          toast.success(`Template “${template.name}” saved.`);
          done();
        },
        onError: (failure) =>
          setError(campaignErrorText(failure, TEMPLATE_SAVE_FAILED, TEMPLATE_SAVE_UNREACHABLE)),
      },
    );
  };
  return (
    <form onSubmit={save}>
      <Stack gap="sm">
        <Textarea
          label="Description"
          autosize
          minRows={2}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
        />
        <Textarea
          label="Template instructions"
          description="Use {key} for the fields the onboarding wizard asks for."
          autosize
          minRows={6}
          value={instructions}
          onChange={(e) => setInstructions(e.currentTarget.value)}
        />
        <TextInput label="Greeting" value={greeting} onChange={(e) => setGreeting(e.currentTarget.value)} />
        {error ? (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        ) : null}
        <Group gap="xs">
          <Button type="submit" loading={update.isPending}>
            Save template
          </Button>
          <Button variant="default" onClick={done} disabled={update.isPending}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function TemplateCard({ template }: { template: Template }) {
  const overlays = useOverlays();
  const remove = useDeleteTemplate();
  const canEdit = usePermission("canEditOrg") && template.editable;
  const [editing, setEditing] = useState(false);
  const deleteTemplate = async () => {
    const ok = await confirm({
      title: `Delete the template “${template.name}”?`,
      details: "Agents made from it keep their configuration.",
      confirmText: "Delete",
      confirmColor: "red",
    });
    if (ok)
      remove.mutate(template.id, { onSuccess: () => toast.success(`Template “${template.name}” deleted.`) });
  };
  return (
    <Card withBorder padding="md" data-testid="template-card">
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Group gap="xs">
            <Text fw={600}>{template.name}</Text>
            {template.builtIn ? (
              <Badge variant="light" size="sm">
                Built in
              </Badge>
            ) : null}
          </Group>
          <Text size="sm" c="dimmed">
            {template.description ?? "No description."}
          </Text>
        </Stack>
        {canEdit && !editing ? (
          <Group gap="xs">
            <Button size="xs" variant="light" onClick={() => setEditing(true)}>
              Edit
            </Button>
            <Button
              size="xs"
              variant="default"
              onClick={() => overlays.open("renameTemplate", String(template.id))}
            >
              Rename
            </Button>
            <Button
              size="xs"
              variant="subtle"
              color="red"
              loading={remove.isPending}
              onClick={() => void deleteTemplate()}
            >
              Delete
            </Button>
          </Group>
        ) : null}
      </Group>
      {editing ? (
        <Stack mt="md">
          <TemplateEditor template={template} done={() => setEditing(false)} />
        </Stack>
      ) : null}
      {canEdit ? (
        <Stack mt="sm" gap={4}>
          <Text size="sm" fw={500}>
            Agents made from it
          </Text>
          <TemplateMigration templateId={template.id} />
        </Stack>
      ) : null}
    </Card>
  );
}

/** The templates the organisation can start agents from: built-in ones and its own, which it can edit. */
export function TemplatesSection() {
  const templates = useTemplates();
  const overlays = useOverlays();
  const canEdit = usePermission("canEditOrg");
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={4}>Templates</Title>
        {canEdit ? (
          <Button variant="light" onClick={() => overlays.open("createTemplate")}>
            New template
          </Button>
        ) : null}
      </Group>
      {templates.isPending ? <LoadingState label="Loading templates…" /> : null}
      {templates.isError ? (
        <ErrorState error={templates.error} onRetry={() => void templates.refetch()} />
      ) : null}
      {templates.data?.templates.length === 0 ? <EmptyState>No templates yet.</EmptyState> : null}
      {templates.data?.templates.map((template) => (
        <TemplateCard key={template.id} template={template} />
      ))}
    </Stack>
  );
}

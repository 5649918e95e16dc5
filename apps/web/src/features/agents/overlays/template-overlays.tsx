import { Button, Group, Stack, Text, Textarea, TextInput } from "@mantine/core";
import { useState } from "react";
import { ActionError, LoadingState } from "../../../components/query-state.tsx";
import { toast } from "../../../lib/toast.ts";
import type { OverlayComponentProps } from "../../../overlays/overlay-props.ts";
import { overlayAccountId } from "../../accounts/account-kinds.ts";
import { useCreateTemplate, useTemplates, useUpdateTemplate } from "../api.ts";

function NameForm({
  initialName,
  withDescription,
  submitLabel,
  pending,
  error,
  onSubmit,
  close,
}: {
  initialName: string;
  withDescription: boolean;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (name: string, description: string) => void;
  close: () => void;
}) {
  const [name, setName] = useState(initialName);
  const [description, setDescription] = useState("");
  const [nameError, setNameError] = useState<string | null>(null);
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!name.trim()) return setNameError("Enter a name.");
        setNameError(null);
        onSubmit(name.trim(), description.trim());
      }}
    >
      <Stack gap="sm">
        <TextInput
          label="Template name"
          required
          value={name}
          error={nameError}
          onChange={(event) => setName(event.currentTarget.value)}
          data-autofocus
        />
        {withDescription ? (
          <Textarea
            label="Description"
            description="What agents made from it do."
            autosize
            minRows={2}
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
          />
        ) : null}
        <ActionError error={error} />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={close} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" loading={pending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** `?createTemplate=<agentId>`: a template of the organisation made from the agent's draft configuration. */
export function CreateTemplateOverlay({ value, close }: OverlayComponentProps) {
  const agentId = overlayAccountId(value);
  const create = useCreateTemplate();
  return (
    <Stack gap="sm">
      {agentId === null ? (
        <Text size="sm" c="dimmed">
          An empty template: add its instructions and fields after creating it.
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          Made from this agent’s saved draft: instructions, greeting, actions, apps and functions.
        </Text>
      )}
      <NameForm
        initialName=""
        withDescription
        submitLabel="Create template"
        pending={create.isPending}
        error={create.error}
        close={close}
        onSubmit={(name, description) =>
          create.mutate(
            {
              name,
              ...(description ? { description } : {}),
              ...(agentId ? { agentId } : {}),
              builtIn: false,
            },
            {
              onSuccess: (answer) => {
                toast.success(`Template “${answer.template.name}” created.`);
                close();
              },
            },
          )
        }
      />
    </Stack>
  );
}

/** `?renameTemplate=<templateId>`. */
export function RenameTemplateOverlay({ value, close }: OverlayComponentProps) {
  const templateId = overlayAccountId(value);
  const templates = useTemplates();
  const update = useUpdateTemplate();
  if (templates.isPending) return <LoadingState label="Loading the template…" />;
  const template = templates.data?.templates.find((item) => item.id === templateId);
  if (!template) return <Text>This template is not available.</Text>;
  if (!template.editable) return <Text>This template is not yours to rename.</Text>;
  return (
    <NameForm
      initialName={template.name}
      withDescription={false}
      submitLabel="Rename"
      pending={update.isPending}
      error={update.error}
      close={close}
      onSubmit={(name) =>
        update.mutate(
          { id: template.id, body: { name, revision: template.revision } },
          {
            onSuccess: () => {
              toast.success(`Renamed to “${name}”.`);
              close();
            },
          },
        )
      }
    />
  );
}

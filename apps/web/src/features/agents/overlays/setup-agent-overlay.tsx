import {
  Button,
  Card,
  Group,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  UnstyledButton,
} from "@mantine/core";
import type { Template } from "@switchboard/api";
import { useState } from "react";
import { ActionError, ErrorState, LoadingState } from "../../../components/query-state.tsx";
import { useAccountState, usePermission } from "../../../lib/account-state.ts";
import { toast } from "../../../lib/toast.ts";
import type { OverlayComponentProps } from "../../../overlays/overlay-props.ts";
import { useOverlays } from "../../../overlays/use-overlays.tsx";
import { useCreateAgent, useTemplates } from "../api.ts";

type Choice = { kind: "template"; template: Template } | { kind: "scratch" };

function TemplateGallery({ choose }: { choose: (choice: Choice) => void }) {
  const templates = useTemplates();
  const fullEditor = usePermission("canUseFullEditor");
  if (templates.isPending) return <LoadingState label="Loading templates…" />;
  if (templates.isError)
    return <ErrorState error={templates.error} onRetry={() => void templates.refetch()} />;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      {templates.data.templates.map((template) => (
        <UnstyledButton key={template.id} onClick={() => choose({ kind: "template", template })}>
          <Card withBorder padding="md" h="100%">
            <Text fw={600}>{template.name}</Text>
            <Text size="sm" c="dimmed">
              {template.description ?? "A ready-made agent to adapt."}
            </Text>
          </Card>
        </UnstyledButton>
      ))}
      {fullEditor ? (
        <UnstyledButton onClick={() => choose({ kind: "scratch" })}>
          <Card withBorder padding="md" h="100%">
            <Text fw={600}>Start from scratch</Text>
            <Text size="sm" c="dimmed">
              Write the agent’s instructions yourself.
            </Text>
          </Card>
        </UnstyledButton>
      ) : null}
    </SimpleGrid>
  );
}

function CreateForm({
  choice,
  back,
  done,
}: {
  choice: Choice;
  back: () => void;
  done: (agentId: number) => void;
}) {
  const create = useCreateAgent();
  const [name, setName] = useState(choice.kind === "template" ? choice.template.name : "");
  const [fields, setFields] = useState<Record<string, string>>(() =>
    choice.kind === "template"
      ? Object.fromEntries(
          choice.template.templateFields.map((field) => [
            field.key,
            typeof field.value === "string" ? field.value : "",
          ]),
        )
      : {},
  );
  const [instructions, setInstructions] = useState("");
  const [greeting, setGreeting] = useState("");
  const [errors, setErrors] = useState<{ name?: string; instructions?: string }>({});

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const problems = {
      ...(name.trim() ? {} : { name: "Enter a name." }),
      ...(choice.kind === "scratch" && !instructions.trim()
        ? { instructions: "Please enter a prompt." }
        : {}),
    };
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    const input =
      choice.kind === "template"
        ? {
            kind: "template" as const,
            name: name.trim(),
            templateId: choice.template.id,
            templateFields: fields,
          }
        : { kind: "scratch" as const, name: name.trim(), agentInstructions: instructions, greeting };
    create.mutate(input, {
      onSuccess: (agent) => {
        toast.success(`${agent.displayName} created.`);
        done(agent.id);
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {choice.kind === "template" ? `From the template “${choice.template.name}”.` : "From scratch."}
        </Text>
        <TextInput
          label="Agent name"
          required
          value={name}
          error={errors.name}
          onChange={(event) => setName(event.currentTarget.value)}
          data-autofocus
        />
        {choice.kind === "template"
          ? choice.template.templateFields.map((field) => (
              <TextInput
                key={field.key}
                label={field.label ?? field.key}
                placeholder={field.placeholder}
                value={fields[field.key] ?? ""}
                onChange={(event) => {
                  const value = event.currentTarget.value;
                  setFields((current) => ({ ...current, [field.key]: value }));
                }}
              />
            ))
          : null}
        {choice.kind === "scratch" ? (
          <>
            <Textarea
              label="Instructions"
              required
              autosize
              minRows={6}
              value={instructions}
              error={errors.instructions}
              placeholder="You answer the phone for … Opening hours are … When someone wants to …"
              onChange={(event) => setInstructions(event.currentTarget.value)}
            />
            <TextInput
              label="Greeting"
              value={greeting}
              onChange={(event) => setGreeting(event.currentTarget.value)}
            />
          </>
        ) : null}
        <ActionError error={create.error} />
        <Group justify="space-between">
          <Button variant="subtle" onClick={back} disabled={create.isPending}>
            Back
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create agent
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** `?setupAgent`: a new agent of the organisation in view, from a template or from scratch. */
export function SetupAgentOverlay({ close: _close }: OverlayComponentProps) {
  const { view } = useAccountState();
  const canAdd = usePermission("canAddAgents");
  const overlays = useOverlays();
  const [choice, setChoice] = useState<Choice | null>(null);
  if (view.account.accountType !== "organization")
    return <Text>Agents belong to an organization: open the organization first.</Text>;
  if (!canAdd) return <Text>Adding agents is not enabled for this organization.</Text>;
  if (!choice) return <TemplateGallery choose={setChoice} />;
  return (
    <CreateForm
      choice={choice}
      back={() => setChoice(null)}
      done={(agentId) => overlays.switch("setupAgent", "editAgent", String(agentId))}
    />
  );
}

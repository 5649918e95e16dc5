import { Button, List, Text, Textarea, TextInput } from "@mantine/core";
import { PROMPT_REQUIRED_MESSAGE } from "@switchboard/api";
import { findTimezoneByValue, type TemplateField } from "@switchboard/core";
import type { UseQueryResult } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { ActionError, EmptyState, ErrorState, LoadingState } from "../../../components/query-state.tsx";
import { type GenerateInput, type Template, useGenerateAgent } from "../api.ts";
import type { OnboardingWizard } from "../use-onboarding.ts";
import { voiceName } from "../voices.ts";
import { BackNextStep, StepLayout } from "./step-layout.tsx";

type TemplatesQuery = Pick<UseQueryResult<Template[]>, "data" | "error" | "isPending" | "refetch">;

/** A name for the agent: the answer to a "...Name" field (e.g. the business name), else the template's. */
export function suggestedAgentName(fields: readonly TemplateField[], templateName: string): string {
  const named = fields.find(
    (field) => /name$/i.test(field.key) && typeof field.value === "string" && field.value.trim() !== "",
  );
  return named ? String(named.value).trim() : templateName;
}

function AgentCreated({ wizard }: { wizard: OnboardingWizard }) {
  return (
    <BackNextStep
      wizard={wizard}
      title="Your agent is ready"
      description="It was created with your answers. Continue to review its instructions."
    />
  );
}

/** GENERATE_AGENT: creates the agent and drafts its instructions. */
export function GenerateStep({ wizard, templates }: { wizard: OnboardingWizard; templates: TemplatesQuery }) {
  if (wizard.agentId !== null) return <AgentCreated wizard={wizard} />;
  if (wizard.state.method === "BUILD_FROM_SCRATCH") return <GenerateFromScratch wizard={wizard} />;
  return <GenerateFromTemplate wizard={wizard} templates={templates} />;
}

function GenerateFromTemplate({
  wizard,
  templates,
}: {
  wizard: OnboardingWizard;
  templates: TemplatesQuery;
}) {
  const generate = useGenerateAgent();
  const template = templates.data?.find((candidate) => String(candidate.id) === wizard.state.templateId);
  const [name, setName] = useState<string | null>(null);
  const back = () => wizard.dispatch({ type: "back" });
  const title = "Create your agent";
  if (templates.isPending) {
    return (
      <StepLayout title={title} onBack={back}>
        <LoadingState label="Loading your template…" />
      </StepLayout>
    );
  }
  if (templates.error) {
    return (
      <StepLayout title={title} onBack={back}>
        <ErrorState error={templates.error} onRetry={() => void templates.refetch()} />
      </StepLayout>
    );
  }
  if (!template) {
    return (
      <StepLayout title={title} onBack={back}>
        <EmptyState
          action={
            <Button variant="light" onClick={() => wizard.dispatch({ type: "discardTemplate" })}>
              Choose another template
            </Button>
          }
        >
          The template you chose is no longer available.
        </EmptyState>
      </StepLayout>
    );
  }
  const agentName = name ?? suggestedAgentName(wizard.state.templateFields, template.name);
  const timezone = wizard.state.timezone ? findTimezoneByValue(wizard.state.timezone)?.text : null;
  return (
    <CreateAgentLayout
      wizard={wizard}
      generate={generate}
      title={title}
      description="We'll create your agent from the template and draft its instructions from your answers."
      disabled={!agentName.trim()}
      request={() =>
        agentName.trim()
          ? {
              method: "BUILD_FROM_TEMPLATE",
              template,
              name: agentName.trim(),
              fields: wizard.state.templateFields,
              timezone: wizard.state.timezone,
              voice: wizard.state.agentVoice,
            }
          : null
      }
    >
      <TextInput
        label="Agent name"
        value={agentName}
        onChange={(event) => setName(event.currentTarget.value)}
        error={agentName.trim() ? undefined : "Enter a name."}
      />
      <List size="sm" spacing={4}>
        <List.Item>Template: {template.name}</List.Item>
        {timezone ? <List.Item>Time zone: {timezone}</List.Item> : null}
        {wizard.state.agentVoice ? <List.Item>Voice: {voiceName(wizard.state.agentVoice)}</List.Item> : null}
      </List>
    </CreateAgentLayout>
  );
}

function GenerateFromScratch({ wizard }: { wizard: OnboardingWizard }) {
  const generate = useGenerateAgent();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [tried, setTried] = useState(false);
  return (
    <CreateAgentLayout
      wizard={wizard}
      generate={generate}
      title="Describe your agent"
      description="Say who your agent works for and what it should do on calls and texts. This becomes its instructions, which you can refine next."
      request={() => {
        setTried(true);
        return name.trim() && description.trim()
          ? { method: "BUILD_FROM_SCRATCH", name: name.trim(), description }
          : null;
      }}
    >
      <TextInput
        label="Agent name"
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        error={tried && !name.trim() ? "Enter a name." : undefined}
        data-autofocus
      />
      <Textarea
        label="What should your agent do?"
        placeholder="You answer calls for Harbour Plumbing. Find out what the problem is, the address and a good time, then..."
        value={description}
        onChange={(event) => setDescription(event.currentTarget.value)}
        autosize
        minRows={6}
        error={tried && !description.trim() ? PROMPT_REQUIRED_MESSAGE : undefined}
      />
    </CreateAgentLayout>
  );
}

/**
 * The layout of creating the agent, from a template or from scratch: Back (gone while the agent is being
 * created) and "Create my agent", which sends `request()` unless it answers null and goes on once the agent
 * exists; below the inputs, the drafting note and the error.
 */
function CreateAgentLayout({
  wizard,
  generate,
  title,
  description,
  disabled,
  request,
  children,
}: {
  wizard: OnboardingWizard;
  generate: ReturnType<typeof useGenerateAgent>;
  title: string;
  description: string;
  disabled?: boolean;
  request: () => GenerateInput | null;
  children: ReactNode;
}) {
  const create = () => {
    const input = request();
    if (!input) return;
    generate.mutate(input, {
      onSuccess: ({ agentId }) => {
        wizard.setAgentId(agentId);
        wizard.dispatch({ type: "next" });
      },
    });
  };
  return (
    <StepLayout
      title={title}
      description={description}
      onBack={generate.isPending ? undefined : () => wizard.dispatch({ type: "back" })}
      footer={
        <Button onClick={create} loading={generate.isPending} disabled={disabled}>
          Create my agent
        </Button>
      }
    >
      {children}
      {generate.isPending ? (
        <Text size="sm" c="dimmed" role="status">
          Drafting your agent's instructions…
        </Text>
      ) : null}
      <ActionError error={generate.error} />
    </StepLayout>
  );
}

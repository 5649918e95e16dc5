import { Alert, Button, Group, List, Stack, Text, Textarea, TextInput } from "@mantine/core";
import { findTimezoneByValue, type TemplateField } from "@switchboard/core";
import type { UseQueryResult } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { usePermission } from "../../../app/account-state.ts";
import { useMobileApp } from "../../../app/environment.tsx";
import { ActionError, EmptyState, ErrorState, LoadingState } from "../../../components/query-state.tsx";
import { useOverlays } from "../../../overlays/use-overlays.tsx";
import {
  type GenerateInput,
  type Template,
  useAgentCampaign,
  useGenerateAgent,
  useSaveInstructions,
} from "../api.ts";
import type { OnboardingWizard } from "../use-onboarding.ts";
import { voiceName } from "../voices.ts";
import { StepLayout } from "./step-layout.tsx";

type TemplatesQuery = Pick<UseQueryResult<Template[]>, "data" | "error" | "isPending" | "refetch">;

/** Product spec §8: a campaign cannot be saved without instructions. */
export const PROMPT_REQUIRED = "Please enter a prompt.";

/** A name for the agent: the answer to a "...Name" field (e.g. the business name), else the template's. */
export function suggestedAgentName(fields: readonly TemplateField[], templateName: string): string {
  const named = fields.find(
    (field) => /name$/i.test(field.key) && typeof field.value === "string" && field.value.trim() !== "",
  );
  return named ? String(named.value).trim() : templateName;
}

/** A step whose footer is Back and one button that goes on to the next step. */
function BackNextStep({
  wizard,
  title,
  description,
  next = "Next",
  children,
}: {
  wizard: OnboardingWizard;
  title: string;
  description: string;
  next?: string;
  children?: ReactNode;
}) {
  return (
    <StepLayout
      title={title}
      description={description}
      onBack={() => wizard.dispatch({ type: "back" })}
      footer={<Button onClick={() => wizard.dispatch({ type: "next" })}>{next}</Button>}
    >
      {children}
    </StepLayout>
  );
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
        error={tried && !description.trim() ? PROMPT_REQUIRED : undefined}
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

function NoAgentYet({ wizard, title }: { wizard: OnboardingWizard; title: string }) {
  return (
    <StepLayout title={title} onBack={() => wizard.dispatch({ type: "back" })}>
      <EmptyState
        action={
          <Button
            variant="light"
            onClick={() => wizard.dispatch({ type: "goToStep", step: "GENERATE_AGENT" })}
          >
            Create the agent
          </Button>
        }
      >
        Your agent has not been created yet.
      </EmptyState>
    </StepLayout>
  );
}

/** EDIT_AGENT: the drafted instructions, editable, saved with POST /api/v2/campaign. */
export function EditStep({ wizard }: { wizard: OnboardingWizard }) {
  const campaign = useAgentCampaign(wizard.agentId);
  const save = useSaveInstructions(wizard.agentId);
  const [draft, setDraft] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const title = "Review your agent's instructions";
  const back = () => wizard.dispatch({ type: "back" });
  if (wizard.agentId === null) return <NoAgentYet wizard={wizard} title={title} />;
  if (campaign.isPending) {
    return (
      <StepLayout title={title} onBack={back}>
        <LoadingState label="Loading the instructions…" />
      </StepLayout>
    );
  }
  if (campaign.error || !campaign.data) {
    return (
      <StepLayout title={title} onBack={back}>
        <ErrorState error={campaign.error} onRetry={() => void campaign.refetch()} />
      </StepLayout>
    );
  }
  const base = campaign.data;
  const text = draft ?? base.agentInstructions;
  const empty = text.trim() === "";
  const submit = (thenNext: boolean) => {
    if (empty) return;
    setSaved(false);
    save.mutate(
      {
        base,
        agentInstructions: text,
        timezone: wizard.state.timezone,
        voice: wizard.state.agentVoice,
      },
      {
        onSuccess: () => {
          setDraft(null);
          setSaved(true);
          if (thenNext) wizard.dispatch({ type: "next" });
        },
      },
    );
  };
  return (
    <StepLayout
      title={title}
      description="This is what your agent follows on every call and text. Change anything that is not right for your business."
      onBack={back}
      footer={
        <>
          <Button variant="default" onClick={() => submit(false)} loading={save.isPending} disabled={empty}>
            Save
          </Button>
          <Button onClick={() => submit(true)} loading={save.isPending} disabled={empty}>
            Save and continue
          </Button>
        </>
      }
    >
      <Textarea
        label="Instructions"
        value={text}
        onChange={(event) => {
          setDraft(event.currentTarget.value);
          setSaved(false);
        }}
        autosize
        minRows={8}
        maxRows={18}
        error={empty ? PROMPT_REQUIRED : undefined}
      />
      {saved ? (
        <Text size="sm" c="teal" role="status">
          Instructions saved.
        </Text>
      ) : null}
      <ActionError error={save.error} />
    </StepLayout>
  );
}

/** TEST_AGENT: opens the test overlay for the new agent. */
export function TestStep({ wizard }: { wizard: OnboardingWizard }) {
  const overlays = useOverlays();
  const title = "Try your agent";
  if (wizard.agentId === null) return <NoAgentYet wizard={wizard} title={title} />;
  const agentId = wizard.agentId;
  return (
    <BackNextStep
      wizard={wizard}
      title={title}
      description="Talk to your agent the way a caller would, and hear how it answers before anyone else does."
    >
      <Group>
        <Button variant="light" onClick={() => overlays.open("testAgent", String(agentId))}>
          Test your agent
        </Button>
      </Group>
    </BackNextStep>
  );
}

/** CHOOSE_NUMBER: a phone number for the agent (selectNumber), or an explanation and skip. */
export function ChooseNumberStep({ wizard }: { wizard: OnboardingWizard }) {
  const overlays = useOverlays();
  const canSelectNumber = usePermission("canSelectNumber");
  const title = "Get a phone number";
  if (wizard.agentId === null) return <NoAgentYet wizard={wizard} title={title} />;
  const agentId = wizard.agentId;
  return (
    <BackNextStep
      wizard={wizard}
      title={title}
      description="Callers reach your agent on its own phone number. You can also forward your existing business number to it later."
      next="Skip for now"
    >
      {canSelectNumber ? (
        <Group>
          <Button variant="light" onClick={() => overlays.open("selectNumber", String(agentId))}>
            Choose a phone number
          </Button>
        </Group>
      ) : (
        <Alert variant="light" color="blue">
          Phone numbers for this account are assigned by your provider. Ask them for a number; your agent
          answers on it as soon as it is assigned.
        </Alert>
      )}
    </BackNextStep>
  );
}

/** SCHEDULE_CALL: book a call with an expert (external booking page), then finish. */
export function ScheduleCallStep({ wizard }: { wizard: OnboardingWizard }) {
  const { isMobileApp } = useMobileApp();
  return (
    <BackNextStep
      wizard={wizard}
      title="Talk with an expert"
      description="Book a free call with one of our specialists: we'll review your agent with you and help you go live."
      next="Finish"
    >
      <Stack gap="xs" align="flex-start">
        <Button variant="light" onClick={() => wizard.dispatch({ type: "openBookingPage" })}>
          Book a call with an expert
        </Button>
        <Text size="sm" c="dimmed">
          {isMobileApp ? "The booking page opens in your browser." : "The booking page opens in a new tab."}
        </Text>
      </Stack>
    </BackNextStep>
  );
}

import { Alert, Button, Group, Stack, Text, Textarea } from "@mantine/core";
import { PROMPT_REQUIRED_MESSAGE } from "@switchboard/api";
import { formatPhoneNumber } from "@switchboard/core";
import { useState } from "react";
import { ActionError, EmptyState, ErrorState, LoadingState } from "../../../components/query-state.tsx";
import { usePermission } from "../../../lib/account-state.ts";
import { useMobileApp } from "../../../lib/environment.tsx";
import { useOverlays } from "../../../overlays/use-overlays.tsx";
import { useOrganizationAgents } from "../../agents/api.ts";
import { CallButton } from "../../voice/call-button.tsx";
import { useAgentCampaign, useSaveInstructions } from "../api.ts";
import type { OnboardingWizard } from "../use-onboarding.ts";
import { BackNextStep, StepLayout } from "./step-layout.tsx";

/** The steps after GENERATE_AGENT, reached before the agent exists: a way back to create it. */
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
        error={empty ? PROMPT_REQUIRED_MESSAGE : undefined}
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
        <CallButton agentId={agentId} variant="light" />
      </Group>
    </BackNextStep>
  );
}

/** CHOOSE_NUMBER: a phone number for the agent (selectNumber), or an explanation and skip. */
export function ChooseNumberStep({ wizard }: { wizard: OnboardingWizard }) {
  const overlays = useOverlays();
  const canSelectNumber = usePermission("canSelectNumber");
  const agents = useOrganizationAgents();
  const title = "Get a phone number";
  if (wizard.agentId === null) return <NoAgentYet wizard={wizard} title={title} />;
  const agentId = wizard.agentId;
  // The number chosen (here or elsewhere): confirmed, and the step goes on rather than offering a skip.
  const number = agents.data?.accounts.find((agent) => agent.id === agentId)?.switchboardPhoneNumber ?? null;
  return (
    <BackNextStep
      wizard={wizard}
      title={title}
      description="Callers reach your agent on its own phone number. You can also forward your existing business number to it later."
      next={number ? "Next" : "Skip for now"}
    >
      {number ? (
        <Alert variant="light" color="teal" role="status" title="Your agent has a number">
          Callers reach it on {formatPhoneNumber(number)}.
        </Alert>
      ) : null}
      {canSelectNumber ? (
        <Group>
          <Button variant="light" onClick={() => overlays.open("selectNumber", String(agentId))}>
            {number ? "Choose another number" : "Choose a phone number"}
          </Button>
        </Group>
      ) : number ? null : (
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

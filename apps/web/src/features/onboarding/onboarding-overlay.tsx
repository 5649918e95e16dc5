import { Badge, Button, Group, Menu, Progress, Stack, Text } from "@mantine/core";
import type { OnboardingStep } from "@switchboard/core";
import { useMemo } from "react";
import { confirm } from "../../components/confirm/confirm-store.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { toOnboardingTemplate, useTemplates } from "./api.ts";
import { STEP_TITLES, stepPosition, TEMPLATE_STEPS } from "./step-info.ts";
import { ChooseNumberStep, EditStep, ScheduleCallStep, TestStep } from "./steps/agent-steps.tsx";
import { GenerateStep } from "./steps/generate-step.tsx";
import { TimezoneStep, VoiceStep } from "./steps/preference-steps.tsx";
import { SelectTemplateStep, SetupIntegrationsStep, SetupTemplateStep } from "./steps/template-steps.tsx";
import { WelcomeStep } from "./steps/welcome-step.tsx";
import { type OnboardingWizard, useOnboarding } from "./use-onboarding.ts";

/**
 * The onboarding wizard (`onboard` overlay, product spec §2.3, §4.1): core's machine drives the steps; the
 * query carries onboard, activeStep, fieldIndex and integrationIndex.
 */
export function OnboardingOverlay(_props: OverlayComponentProps) {
  const templates = useTemplates();
  const onboardingTemplates = useMemo(() => templates.data?.map(toOnboardingTemplate), [templates.data]);
  const wizard = useOnboarding(onboardingTemplates);
  const step = wizard.state.activeStep;
  const { number, count } = stepPosition(wizard.state.method, step);

  return (
    <Stack gap="lg" data-step={step}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs">
            <Text size="sm" c="dimmed" data-testid="onboarding-progress">
              Step {number} of {count} · {STEP_TITLES[step]}
            </Text>
            {wizard.state.onboardingComplete ? (
              <Badge color="teal" variant="light">
                Completed
              </Badge>
            ) : null}
          </Group>
          <WizardMenu wizard={wizard} />
        </Group>
        <Progress value={(number / count) * 100} size="sm" aria-label="Onboarding progress" />
      </Stack>
      <StepContent wizard={wizard} step={step} templates={templates} />
    </Stack>
  );
}

function StepContent({
  wizard,
  step,
  templates,
}: {
  wizard: OnboardingWizard;
  step: OnboardingStep;
  templates: ReturnType<typeof useTemplates>;
}) {
  switch (step) {
    case "WELCOME":
      return <WelcomeStep wizard={wizard} />;
    case "SELECT_TEMPLATE":
      return <SelectTemplateStep wizard={wizard} templates={templates} toOnboarding={toOnboardingTemplate} />;
    case "SETUP_TEMPLATE":
      return <SetupTemplateStep key={wizard.state.fieldIndex} wizard={wizard} />;
    case "SETUP_INTEGRATIONS":
      return <SetupIntegrationsStep wizard={wizard} />;
    case "SELECT_TIMEZONE":
      return <TimezoneStep wizard={wizard} />;
    case "SELECT_VOICE":
      return <VoiceStep wizard={wizard} />;
    case "GENERATE_AGENT":
      return <GenerateStep wizard={wizard} templates={templates} />;
    case "EDIT_AGENT":
      return <EditStep wizard={wizard} />;
    case "TEST_AGENT":
      return <TestStep wizard={wizard} />;
    case "CHOOSE_NUMBER":
      return <ChooseNumberStep wizard={wizard} />;
    case "SCHEDULE_CALL":
      return <ScheduleCallStep wizard={wizard} />;
  }
}

/** Exit and discard, start over, mark as complete and discard template (product spec §4.1). */
function WizardMenu({ wizard }: { wizard: OnboardingWizard }) {
  const { state } = wizard;
  const canDiscardTemplate =
    state.templateId !== null && wizard.agentId === null && TEMPLATE_STEPS.has(state.activeStep);
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="subtle" size="xs">
          Options
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {canDiscardTemplate ? (
          <Menu.Item
            onClick={() =>
              void confirm({
                title: "Discard this template?",
                details: "Your answers, time zone and voice are cleared and you choose a template again.",
                confirmText: "Discard template",
                confirmColor: "red",
                onConfirm: () => wizard.dispatch({ type: "discardTemplate" }),
              })
            }
          >
            Discard template
          </Menu.Item>
        ) : null}
        <Menu.Item
          onClick={() =>
            void confirm({
              title: "Start over?",
              details: "The wizard goes back to its first step. An agent you already created is kept.",
              confirmText: "Start over",
              onConfirm: () => wizard.dispatch({ type: "restart" }),
            })
          }
        >
          Start over
        </Menu.Item>
        {state.onboardingComplete ? null : (
          <Menu.Item onClick={() => wizard.dispatch({ type: "markComplete" })}>Mark as complete</Menu.Item>
        )}
        <Menu.Divider />
        <Menu.Item
          color="red"
          onClick={() =>
            void confirm({
              title: "Exit and discard?",
              details: "What you entered in the wizard is discarded. An agent you already created is kept.",
              confirmText: "Exit and discard",
              confirmColor: "red",
              onConfirm: () => wizard.dispatch({ type: "exitAndDiscard" }),
            })
          }
        >
          Exit and discard
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

import { Alert, Badge, Button, Card, Group, Progress, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { WALKTHROUGH_STEPS, type WalkthroughStep } from "@switchboard/core";
import IconCheck from "@tabler/icons-react/dist/esm/icons/IconCheck.mjs";
import { useEffect, useRef, useState } from "react";
import { useAccountState, usePermission } from "../../lib/account-state.ts";
import { errorMessage } from "../../lib/shell-api.ts";
import type { OverlayName } from "../../overlays/overlay-names.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { savedAgentId } from "../onboarding/onboarding-persistence.ts";
import { useNewestAgentId, useSaveWalkthrough, useWalkthroughAccount } from "./api.ts";
import { deriveWalkthrough, walkthroughToSave } from "./walkthrough-model.ts";

type StepCopy = { title: string; description: string; action: string; overlay: OverlayName };

const STEP_COPY: Record<WalkthroughStep, StepCopy> = {
  SETUP_AGENT: {
    title: "Set up your agent",
    description: "Build an AI agent for your business from a template or from scratch.",
    action: "Build an agent",
    overlay: "onboard",
  },
  TEST_AGENT: {
    title: "Test your agent",
    description: "Talk to your agent as a caller would and hear how it answers.",
    action: "Test your agent",
    overlay: "testAgent",
  },
  ADD_NUMBER: {
    title: "Add a phone number",
    description: "Give your agent a number callers can reach it on.",
    action: "Add a number",
    overlay: "selectNumber",
  },
  FORWARD_CALLS: {
    title: "Forward your calls",
    description: "Forward your existing business line so your agent answers it.",
    action: "See how",
    overlay: "forwardingInstructions",
  },
};

/**
 * The walkthrough checklist of the dashboard (product spec §4.2): setup agent, test agent, add number,
 * forward calls — each with its action and a way to mark it done — stored in account settings `walkthrough`.
 */
export function WalkthroughCard() {
  const { view } = useAccountState();
  const account = view.account;
  const overlays = useOverlays();
  const canEdit = usePermission("canEditOrg");
  const canAddAgents = usePermission("canAddAgents");
  const save = useSaveWalkthrough();
  const [finishedHere, setFinishedHere] = useState<WalkthroughStep[]>([]);
  const walkthroughAccount = useWalkthroughAccount();
  const state = deriveWalkthrough(walkthroughAccount, finishedHere);
  const pending = walkthroughToSave(account.settings.walkthrough, state);

  // Starting (version 1) and auto-completion are stored once per change.
  const sent = useRef<string | null>(null);
  const pendingKey = pending ? `${account.id}:${JSON.stringify(pending)}` : null;
  const { mutate } = save;
  useEffect(() => {
    if (!pending || !canEdit || pendingKey === sent.current) return;
    sent.current = pendingKey;
    mutate(pending);
  }, [pending, pendingKey, canEdit, mutate]);

  // The test and number steps act on the wizard's agent, else the organisation's newest one.
  const wizardAgent = savedAgentId(account.settings.onboarding);
  const newest = useNewestAgentId(account.accountType === "organization" && wizardAgent === null);
  const agentId = account.accountType === "agent" ? account.id : (wizardAgent ?? newest.data ?? null);
  const open = (step: WalkthroughStep) => {
    const overlay = STEP_COPY[step].overlay;
    if (overlay === "onboard") overlays.open("onboard");
    else if ((overlay === "testAgent" || overlay === "selectNumber") && agentId !== null)
      overlays.open(overlay, String(agentId));
    else overlays.open(overlay);
  };
  const done = state.completed.length;
  const total = WALKTHROUGH_STEPS.length;

  if (state.activeStep === null) {
    return (
      <Card withBorder padding="lg" component="section" aria-labelledby="walkthrough-title">
        <Group justify="space-between">
          <Stack gap={2}>
            <Title order={2} size="h4" id="walkthrough-title">
              Your setup is complete
            </Title>
            <Text size="sm" c="dimmed">
              Your agent is answering. You can build another one at any time.
            </Text>
          </Stack>
          {canAddAgents ? (
            <Button variant="light" onClick={() => overlays.open("onboard")}>
              Build an agent
            </Button>
          ) : null}
        </Group>
      </Card>
    );
  }

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="walkthrough-title">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start">
          <Stack gap={2}>
            <Title order={2} size="h4" id="walkthrough-title">
              Get your agent answering calls
            </Title>
            <Text size="sm" c="dimmed">
              {done} of {total} steps done
            </Text>
          </Stack>
          {canAddAgents && state.activeStep !== "SETUP_AGENT" ? (
            <Button variant="light" onClick={() => overlays.open("onboard")}>
              Build an agent
            </Button>
          ) : null}
        </Group>
        <Progress value={(done / total) * 100} size="sm" aria-label="Setup progress" />
        <Stack gap="sm" component="ol" style={{ listStyle: "none", padding: 0, margin: 0 }}>
          {WALKTHROUGH_STEPS.map((step, index) => {
            const copy = STEP_COPY[step];
            const complete = state.completed.includes(step);
            const active = state.activeStep === step;
            return (
              <li key={step} aria-label={copy.title} data-step={step} data-complete={complete}>
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <Group gap="sm" wrap="nowrap" align="flex-start">
                    <ThemeIcon
                      radius="xl"
                      size="md"
                      variant={complete ? "filled" : "light"}
                      color={complete ? "teal" : active ? undefined : "gray"}
                      aria-hidden
                    >
                      {complete ? <IconCheck size={16} /> : <Text size="xs">{index + 1}</Text>}
                    </ThemeIcon>
                    <Stack gap={0}>
                      <Group gap="xs">
                        <Text fw={600} td={complete ? "line-through" : undefined}>
                          {copy.title}
                        </Text>
                        {complete ? (
                          <Badge color="teal" variant="light" size="sm">
                            Done
                          </Badge>
                        ) : null}
                      </Group>
                      <Text size="sm" c="dimmed">
                        {copy.description}
                      </Text>
                    </Stack>
                  </Group>
                  {complete ? null : (
                    <Group gap="xs" wrap="nowrap">
                      {canEdit ? (
                        <Button
                          variant="subtle"
                          size="xs"
                          onClick={() => {
                            setFinishedHere((current) =>
                              current.includes(step) ? current : [...current, step],
                            );
                          }}
                          aria-label={`Mark as done: ${copy.title}`}
                        >
                          Mark as done
                        </Button>
                      ) : null}
                      {step === "SETUP_AGENT" && !canAddAgents ? null : (
                        <Button size="xs" variant={active ? "filled" : "light"} onClick={() => open(step)}>
                          {copy.action}
                        </Button>
                      )}
                    </Group>
                  )}
                </Group>
              </li>
            );
          })}
        </Stack>
        {save.error ? (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(save.error)}
          </Alert>
        ) : null}
      </Stack>
    </Card>
  );
}

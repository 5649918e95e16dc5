import { Button, Group, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import type { OnboardingWizard } from "../use-onboarding.ts";

/** The body of one step: heading, text, content and the Back / forward buttons. */
export function StepLayout({
  title,
  description,
  children,
  onBack,
  footer,
}: {
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  onBack?: (() => void) | undefined;
  footer?: ReactNode;
}) {
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={2} size="h3">
          {title}
        </Title>
        {description ? <Text c="dimmed">{description}</Text> : null}
      </Stack>
      {children}
      {onBack || footer ? (
        <Group justify="space-between" mt="sm">
          {onBack ? (
            <Button variant="default" onClick={onBack}>
              Back
            </Button>
          ) : (
            <span />
          )}
          <Group gap="sm">{footer}</Group>
        </Group>
      ) : null}
    </Stack>
  );
}

/** A step whose footer is Back and one button that goes on to the next step. */
export function BackNextStep({
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

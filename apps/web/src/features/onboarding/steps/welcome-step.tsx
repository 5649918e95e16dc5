import { Button, Card, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import type { OnboardingWizard } from "../use-onboarding.ts";
import { StepLayout } from "./step-layout.tsx";

/** WELCOME: the choice of method (only users with the full editor see it). */
export function WelcomeStep({ wizard }: { wizard: OnboardingWizard }) {
  return (
    <StepLayout
      title="Let's build your AI agent"
      description="Your agent answers calls and texts for your business. Start from a ready-made template for your kind of business, or describe your own from scratch."
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Card withBorder padding="lg" component="article" aria-labelledby="onboard-method-template">
          <Stack gap="sm" h="100%" justify="space-between">
            <Stack gap={4}>
              <Title order={3} size="h4" id="onboard-method-template">
                Start from a template
              </Title>
              <Text size="sm" c="dimmed">
                Answer a few questions about your business; the template does the rest. Recommended.
              </Text>
            </Stack>
            <Button onClick={() => wizard.dispatch({ type: "selectMethod", method: "BUILD_FROM_TEMPLATE" })}>
              Start from a template
            </Button>
          </Stack>
        </Card>
        <Card withBorder padding="lg" component="article" aria-labelledby="onboard-method-scratch">
          <Stack gap="sm" h="100%" justify="space-between">
            <Stack gap={4}>
              <Title order={3} size="h4" id="onboard-method-scratch">
                Build from scratch
              </Title>
              <Text size="sm" c="dimmed">
                Describe what your agent should do in your own words and write its instructions yourself.
              </Text>
            </Stack>
            <Button
              variant="light"
              onClick={() => wizard.dispatch({ type: "selectMethod", method: "BUILD_FROM_SCRATCH" })}
            >
              Build from scratch
            </Button>
          </Stack>
        </Card>
      </SimpleGrid>
    </StepLayout>
  );
}

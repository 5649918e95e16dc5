import { Button, Group, Radio, Select, SimpleGrid, Stack, Text } from "@mantine/core";
import { findTimezoneByUtc, resolveTimezone, TIMEZONES } from "@switchboard/core";
import { useState } from "react";
import { browserTimeZone } from "../../../lib/time-format.ts";
import { VoicePreviewButton } from "../../voice/voice-preview-button.tsx";
import type { OnboardingWizard } from "../use-onboarding.ts";
import { DEFAULT_VOICE_ID, languageLabel, VOICE_CHOICES } from "../voices.ts";
import { StepLayout } from "./step-layout.tsx";

const TIMEZONE_OPTIONS = TIMEZONES.map((entry) => ({ value: entry.value, label: entry.text }));

/** The browser's own zone as a row of the table, else UTC. */
function browserTimezone(): string {
  return findTimezoneByUtc(browserTimeZone())?.value ?? resolveTimezone("UTC").value;
}

/** SELECT_TIMEZONE: the time zone the agent books and speaks in (core's time-zone table). */
export function TimezoneStep({ wizard }: { wizard: OnboardingWizard }) {
  const [value, setValue] = useState<string>(() => wizard.state.timezone ?? browserTimezone());
  return (
    <StepLayout
      title="Which time zone is your business in?"
      description="Your agent uses it for opening hours and appointment times."
      onBack={() => wizard.dispatch({ type: "back" })}
      footer={
        <Button
          disabled={!value}
          onClick={() => wizard.dispatch({ type: "selectTimezone", timezone: value })}
        >
          Next
        </Button>
      }
    >
      <Select
        label="Time zone"
        data={TIMEZONE_OPTIONS}
        value={value}
        onChange={(next) => next && setValue(next)}
        searchable
        allowDeselect={false}
        nothingFoundMessage="No time zone matches"
        maxDropdownHeight={280}
        comboboxProps={{ withinPortal: true }}
      />
    </StepLayout>
  );
}

/** SELECT_VOICE: the voice the agent speaks with. */
export function VoiceStep({ wizard }: { wizard: OnboardingWizard }) {
  const [value, setValue] = useState<string>(wizard.state.agentVoice ?? DEFAULT_VOICE_ID);
  return (
    <StepLayout
      title="Choose your agent's voice"
      description="Callers hear this voice. You can change it any time."
      onBack={() => wizard.dispatch({ type: "back" })}
      footer={<Button onClick={() => wizard.dispatch({ type: "selectVoice", voice: value })}>Next</Button>}
    >
      <Radio.Group value={value} onChange={setValue} label="Voice">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} mt="xs">
          {VOICE_CHOICES.map((voice) => (
            <Group key={voice.id} wrap="nowrap" gap="xs" align="center">
              <Radio.Card value={voice.id} radius="md" p="md" aria-label={voice.name} style={{ flex: 1 }}>
                <Group wrap="nowrap" align="flex-start">
                  <Radio.Indicator />
                  <Stack gap={2}>
                    <Text fw={600}>{voice.name}</Text>
                    <Text size="sm" c="dimmed">
                      {voice.description} · {languageLabel(voice.language)}
                    </Text>
                  </Stack>
                </Group>
              </Radio.Card>
              {/* Beside the card, not in it: the card is a button itself. */}
              <VoicePreviewButton voiceId={voice.id} voiceName={voice.name} />
            </Group>
          ))}
        </SimpleGrid>
      </Radio.Group>
    </StepLayout>
  );
}

import { Divider, Group, Radio, Select, SimpleGrid, Stack, Text } from "@mantine/core";
import {
  AGENT_LANGUAGES,
  AGENT_VOICES,
  findTimezoneByUtc,
  findTimezoneByValue,
  TIMEZONES,
} from "@switchboard/core";
import { CallSettingsCard } from "../../../voice/call-settings-card.tsx";
import { TransferDestinationsCard } from "../../../voice/transfer-destinations-card.tsx";
import { VoicePreviewButton } from "../../../voice/voice-preview-button.tsx";
import type { PanelProps } from "../panels.ts";

const TIMEZONE_OPTIONS = TIMEZONES.map((entry) => ({ value: entry.value, label: entry.text }));

/** The campaign keeps an IANA zone name; the picker shows the table's entries (spec §3 Time zone entry). */
function timezoneEntry(timezone: string | null) {
  if (!timezone) return undefined;
  return findTimezoneByUtc(timezone) ?? findTimezoneByValue(timezone);
}

export function TimezonePanel({ editor, state }: PanelProps) {
  const entry = timezoneEntry(state.draft.timezone);
  return (
    <Stack gap="sm">
      <Select
        label="Time zone"
        description="The agent tells the time, books appointments and reads business hours in this zone."
        searchable
        clearable
        data={TIMEZONE_OPTIONS}
        value={entry?.value ?? null}
        nothingFoundMessage="No time zone matches"
        onChange={(value) => {
          const chosen = value ? findTimezoneByValue(value) : undefined;
          editor.edit({ timezone: chosen ? (chosen.utc[0] ?? chosen.value) : null });
        }}
      />
      {state.draft.timezone && !entry ? (
        <Text size="sm" c="dimmed">
          Saved zone: {state.draft.timezone}
        </Text>
      ) : null}
    </Stack>
  );
}

export function LanguagePanel({ editor, state }: PanelProps) {
  return (
    <Select
      label="Language"
      description="The language the agent speaks and understands."
      data={AGENT_LANGUAGES.map((language) => ({ value: language.code, label: language.label }))}
      value={state.draft.language}
      clearable
      onChange={(value) => editor.edit({ language: value })}
    />
  );
}

export function VoicesPanel({ agentId, editor, state }: PanelProps) {
  return (
    <Stack gap="lg">
      <VoicePicker editor={editor} state={state} />
      <Divider />
      <CallSettingsCard agentId={agentId} />
      <Divider />
      <TransferDestinationsCard agentId={agentId} />
    </Stack>
  );
}

function VoicePicker({ editor, state }: Omit<PanelProps, "agentId">) {
  return (
    <Radio.Group
      label="Voice"
      description="How the agent sounds on calls."
      value={state.draft.voice ?? ""}
      onChange={(value) => editor.edit({ voice: value || null })}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} mt="sm">
        {AGENT_VOICES.map((voice) => (
          <Group key={voice.id} wrap="nowrap" gap="xs" align="center">
            <Radio.Card value={voice.id} p="sm" radius="md" aria-label={voice.name} style={{ flex: 1 }}>
              <Text fw={600}>{voice.name}</Text>
              <Text size="sm" c="dimmed">
                {voice.description} · {voice.language}
              </Text>
            </Radio.Card>
            <VoicePreviewButton voiceId={voice.id} voiceName={voice.name} />
          </Group>
        ))}
      </SimpleGrid>
    </Radio.Group>
  );
}

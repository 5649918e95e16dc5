import { Button, Group, NumberInput, Stack, Switch, Text, Textarea, Title } from "@mantine/core";
import {
  type CallSettingsFields,
  callSettingsFieldsSchema,
  RECORDING_NOTICE_MESSAGE,
} from "@switchboard/api";
import { useState } from "react";
import { ActionError, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { SavedNote } from "../../components/saved-note.tsx";
import { toast } from "../../lib/toast.ts";
import { useCallSettings, useSaveCallSettings } from "./call-settings-api.ts";

const RANGES = callSettingsFieldsSchema.shape;
const limits = (schema: typeof RANGES.endpointSilenceMs) => ({
  min: schema.minValue ?? undefined,
  max: schema.maxValue ?? undefined,
});

function SettingsForm({ agentId, initial }: { agentId: number; initial: CallSettingsFields }) {
  const save = useSaveCallSettings(agentId);
  const [values, setValues] = useState(initial);
  const [savedAt, setSavedAt] = useState<number | null>(null);
  const parsed = callSettingsFieldsSchema.safeParse(values);
  const change = (next: Partial<CallSettingsFields>) => {
    setValues((current) => ({ ...current, ...next }));
    setSavedAt(null);
  };
  const silence = limits(RANGES.endpointSilenceMs);
  const interrupt = limits(RANGES.bargeInMinSpeechMs);
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!parsed.success) return;
        // The destinations have their own card (and may have changed there since this form loaded).
        const { transferDestinations: _destinations, ...changes } = parsed.data;
        save.mutate(changes, {
          onSuccess: () => {
            toast.success("Call settings saved.");
            setSavedAt(Date.now());
          },
        });
      }}
    >
      <Stack gap="sm">
        <NumberInput
          label="Silence before the agent answers (ms)"
          description="How long the caller must be quiet before their turn is over. Shorter answers sooner but may cut in."
          {...silence}
          step={50}
          value={values.endpointSilenceMs}
          onChange={(value) => change({ endpointSilenceMs: Number(value) })}
          error={
            parsed.success || !parsed.error.issues.some((issue) => issue.path[0] === "endpointSilenceMs")
              ? null
              : `Enter ${silence.min} to ${silence.max} ms.`
          }
        />
        <NumberInput
          label="Interruption sensitivity (ms of speech)"
          description="How long the caller must talk over the agent to stop it. Shorter speech (“mm-hm”) lets it go on."
          {...interrupt}
          step={20}
          value={values.bargeInMinSpeechMs}
          onChange={(value) => change({ bargeInMinSpeechMs: Number(value) })}
          error={
            parsed.success || !parsed.error.issues.some((issue) => issue.path[0] === "bargeInMinSpeechMs")
              ? null
              : `Enter ${interrupt.min} to ${interrupt.max} ms.`
          }
        />
        <Switch
          label="Record calls"
          description="Keep a recording of each call (caller and agent on separate channels), playable in the call's details in Calls. On by default; callers hear the recording notice first."
          checked={values.recordCalls}
          onChange={(event) => change({ recordCalls: event.currentTarget.checked })}
        />
        <Textarea
          label="Recording notice"
          description="Said before the greeting of every recorded call, and shown as the agent's first words in the transcript. {variables} are filled in like the greeting's. Where the law needs every party's consent, keep a notice the caller cannot miss."
          autosize
          minRows={1}
          disabled={!values.recordCalls}
          value={values.recordingNotice}
          onChange={(event) => change({ recordingNotice: event.currentTarget.value })}
          error={
            parsed.success || !parsed.error.issues.some((issue) => issue.path[0] === "recordingNotice")
              ? null
              : RECORDING_NOTICE_MESSAGE
          }
        />
        <ActionError error={save.error} />
        <Group justify="flex-end">
          <SavedNote at={savedAt} />
          <Button type="submit" loading={save.isPending} disabled={!parsed.success}>
            Save call settings
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Turn-taking and recording of the agent's calls (saved at once, not part of the draft). */
export function CallSettingsCard({ agentId }: { agentId: number }) {
  const settings = useCallSettings(agentId);
  return (
    <Stack gap="xs">
      <Title order={4}>Calls</Title>
      <Text size="sm" c="dimmed">
        These apply to every call at once; they are not part of the draft.
      </Text>
      {settings.isError ? (
        <ErrorState
          title="The call settings could not be loaded"
          error={settings.error}
          onRetry={() => void settings.refetch()}
        />
      ) : !settings.data ? (
        <LoadingState label="Loading the call settings…" />
      ) : (
        <SettingsForm agentId={agentId} initial={settings.data.settings} />
      )}
    </Stack>
  );
}

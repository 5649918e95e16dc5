import { Button, Group, NumberInput, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { ActionError, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { usePermission } from "../../lib/account-state.ts";
import { toast } from "../../lib/toast.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { type TaskLimits, useSaveTaskLimits, useTaskLimits } from "./api.ts";

function LimitsForm({ limits, close }: { limits: TaskLimits; close: () => void }) {
  const save = useSaveTaskLimits();
  const canEdit = usePermission("canEditOrg");
  const [values, setValues] = useState({ ...limits, optOutText: limits.optOutWords.join(", ") });
  const set = (patch: Partial<typeof values>) => setValues((current) => ({ ...current, ...patch }));
  const number = (key: "maxConcurrent" | "dailyLimit" | "maxAttempts" | "retryDelayMinutes") => ({
    value: values[key],
    onChange: (next: string | number) => set({ [key]: typeof next === "number" ? next : Number(next) || 0 }),
    allowDecimal: false,
    allowNegative: false,
    disabled: !canEdit,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { optOutText, ...rest } = values;
    save.mutate(
      {
        ...rest,
        optOutWords: optOutText
          .split(/[,\n]/)
          .map((word) => word.trim())
          .filter(Boolean),
      },
      {
        onSuccess: () => {
          toast.success("Task settings saved.");
          close();
        },
      },
    );
  };

  return (
    <form onSubmit={submit} aria-label="Task settings">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <NumberInput label="Tasks at the same time" min={1} max={100} {...number("maxConcurrent")} />
          <NumberInput label="Attempts a day" min={1} max={100_000} {...number("dailyLimit")} />
          <TextInput
            label="Calling hours from"
            type="time"
            value={values.callingHoursStart}
            onChange={(event) => set({ callingHoursStart: event.currentTarget.value })}
            disabled={!canEdit}
          />
          <TextInput
            label="Calling hours until"
            type="time"
            value={values.callingHoursEnd}
            onChange={(event) => set({ callingHoursEnd: event.currentTarget.value })}
            disabled={!canEdit}
          />
          <TextInput
            label="Default time zone"
            description="For people without one, and the day of the daily limit."
            value={values.defaultTimeZone}
            onChange={(event) => set({ defaultTimeZone: event.currentTarget.value })}
            disabled={!canEdit}
          />
          <NumberInput
            label="Attempts per call"
            description="When nobody answers or the line is busy."
            min={1}
            max={10}
            {...number("maxAttempts")}
          />
          <NumberInput
            label="Minutes between attempts"
            min={1}
            max={7 * 24 * 60}
            {...number("retryDelayMinutes")}
          />
          <TextInput
            label="Opt-out words"
            description="A text that is one of these stops all texts and tasks to that number."
            value={values.optOutText}
            onChange={(event) => set({ optOutText: event.currentTarget.value })}
            disabled={!canEdit}
          />
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          Calling hours are each person's own time zone. On a voicemail the agent leaves its voicemail message
          or hangs up, as set under On voicemail in the agent's Prompt panel.
        </Text>
        <ActionError error={save.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {canEdit ? "Cancel" : "Close"}
          </Button>
          {canEdit ? (
            <Button type="submit" loading={save.isPending}>
              Save settings
            </Button>
          ) : null}
        </Group>
      </Stack>
    </form>
  );
}

/** `?taskSettings`: the organisation's task limits — concurrency, daily limit, calling hours, retries. */
export function TaskSettingsOverlay({ close }: OverlayComponentProps) {
  const limits = useTaskLimits();
  if (limits.isPending) return <LoadingState label="Loading the settings…" />;
  if (limits.isError)
    return (
      <ErrorState
        title="The settings could not be loaded"
        error={limits.error}
        onRetry={() => void limits.refetch()}
      />
    );
  return <LimitsForm limits={limits.data.limits} close={close} />;
}

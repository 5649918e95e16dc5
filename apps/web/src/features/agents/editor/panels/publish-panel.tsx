import { Button, Group, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { confirm } from "../../../../components/confirm/confirm-store.ts";
import { ActionError } from "../../../../components/query-state.tsx";
import { toast } from "../../../../lib/toast.ts";
import { type TimeFormat, useTimeFormat } from "../../../../lib/use-time-format.ts";
import type { PanelProps } from "../panels.ts";

function when(ms: number | null, times: TimeFormat): string {
  return ms ? times.format(ms, "dateTime") : "never";
}

/** Staging and production: publish staging, or revert staging to what is live. */
export function PublishPanel({ editor, state }: PanelProps) {
  const times = useTimeFormat();
  const [revertError, setRevertError] = useState<unknown>(null);
  const unpublished = !state.production || !state.staging.published || !state.draft.published;
  const publish = async () => {
    if (await editor.publish()) toast.success("Published.");
  };
  const revert = async () => {
    const ok = await confirm({
      title: "Discard the unpublished changes?",
      details: "The draft goes back to the published configuration. Versions you made are kept.",
      confirmText: "Revert",
      confirmColor: "red",
    });
    if (!ok) return;
    setRevertError(null);
    try {
      await editor.revert();
      toast.success("Reverted to the published configuration.");
    } catch (error) {
      setRevertError(error);
    }
  };
  return (
    <Stack gap="sm">
      <Text>
        {state.production
          ? unpublished
            ? "The draft has changes that callers do not hear yet."
            : "Callers talk to exactly this configuration."
          : "This agent has never been published: callers do not reach it yet."}
      </Text>
      <Text size="sm" c="dimmed">
        Draft last saved: {when(state.staging.updatedAt, times)}. Live since:{" "}
        {when(state.production?.updatedAt ?? null, times)}.
      </Text>
      <Group>
        <Button loading={state.publishing} onClick={() => void publish()} disabled={!unpublished}>
          Publish the draft
        </Button>
        {state.production ? (
          <Button variant="default" color="red" onClick={() => void revert()} disabled={!unpublished}>
            Revert to published
          </Button>
        ) : null}
      </Group>
      <ActionError error={revertError} />
    </Stack>
  );
}

import { Button, Group, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { ActionError } from "../query-state.tsx";

/**
 * The body of an overlay that confirms one destructive action: the question, the error of the last try,
 * Cancel and the red confirm button (both held while `action` is pending).
 */
export function ConfirmPanel({
  children,
  confirmLabel,
  action,
  onCancel,
  onConfirm,
}: {
  children: ReactNode;
  confirmLabel: string;
  action: { isPending: boolean; error: unknown };
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Stack gap="md">
      <Text>{children}</Text>
      <ActionError error={action.error} />
      <Group justify="flex-end" gap="xs">
        <Button variant="default" onClick={onCancel} disabled={action.isPending}>
          Cancel
        </Button>
        <Button color="red" loading={action.isPending} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </Group>
    </Stack>
  );
}

import { Button, Group, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { useAccountState } from "../../lib/account-state.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";

/** After an edit: back to the settings overlay. */
export function useBackToSettings(name: OverlayComponentProps["name"]) {
  const overlays = useOverlays();
  return () => overlays.switch(name, "settings");
}

/** Back and the submit button, at the foot of every edit form. */
export function Buttons({
  onBack,
  submitting,
  label = "Save",
  disabled,
}: {
  onBack: () => void;
  submitting: boolean;
  label?: string;
  disabled?: boolean;
}) {
  return (
    <Group justify="flex-end" gap="sm">
      <Button variant="default" onClick={onBack} disabled={submitting}>
        Back
      </Button>
      <Button type="submit" loading={submitting} disabled={disabled}>
        {label}
      </Button>
    </Group>
  );
}

/** Only a person who may edit the account in view gets the form. */
export function EditGate({ children }: { children: ReactNode }) {
  const { view } = useAccountState();
  if (!view.permissions.canEditOrg) return <Text>Editing is not available for the account in view.</Text>;
  return children;
}

/** A text field of the account's details, or "". */
export function detail(details: Record<string, unknown>, key: string): string {
  const value = details[key];
  return typeof value === "string" ? value : "";
}

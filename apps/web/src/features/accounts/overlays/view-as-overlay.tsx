import { Button, Group, Radio, Stack, Text } from "@mantine/core";
import type { ViewingAs } from "@switchboard/core";
import { useState } from "react";
import { useAccountState } from "../../../lib/account-state.ts";
import { toast } from "../../../lib/toast.ts";
import { viewingAsLabel } from "../../../lib/viewing-as-label.ts";
import type { OverlayComponentProps } from "../../../overlays/overlay-props.ts";

const DESCRIPTIONS: Record<ViewingAs, string> = {
  superAdmin: "Everything, on every account.",
  partner: "Everything a partner may do on its accounts.",
  reseller: "Everything a reseller may do on its accounts.",
  owner: "What the organisation's owner sees, within the partner's settings.",
  admin: "What an organisation admin sees: no billing, deleting or deactivating.",
};

/** `?viewAs`: choose the role to see the product as, among those the user's rank allows (spec §4.5). */
export function ViewAsOverlay({ close }: OverlayComponentProps) {
  const { view, viewingAs, setViewingAs } = useAccountState();
  const [value, setValue] = useState<ViewingAs>(viewingAs);
  const apply = () => {
    setViewingAs(value);
    close();
    if (value !== viewingAs) toast.success(`Viewing as ${viewingAsLabel(value)}.`);
  };
  return (
    <Stack gap="md">
      <Text size="sm">
        See {view.account.displayName} as another role would. Your choice is kept in this browser.
      </Text>
      <Radio.Group
        value={value}
        onChange={(next) => setValue(next as ViewingAs)}
        label="View as"
        name="viewingAs"
      >
        <Stack gap="sm" mt="xs">
          {view.allowedViewingAs.map((option) => (
            <Radio
              key={option}
              value={option}
              label={viewingAsLabel(option)}
              description={DESCRIPTIONS[option]}
            />
          ))}
        </Stack>
      </Radio.Group>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={close}>
          Cancel
        </Button>
        <Button onClick={apply}>Apply</Button>
      </Group>
    </Stack>
  );
}

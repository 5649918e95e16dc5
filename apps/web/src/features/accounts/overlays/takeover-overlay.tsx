import { Button, Group, Stack, Text } from "@mantine/core";
import { useNavigate } from "react-router";
import { accountAppPath, accountTypeLabel } from "../../../lib/account-path.ts";
import { useAccountState } from "../../../lib/account-state.ts";
import { viewingAsLabel } from "../../../lib/viewing-as-label.ts";
import type { OverlayComponentProps } from "../../../overlays/overlay-props.ts";
import { AccountSummary } from "../account-summary.tsx";
import { WithOverlayAccount } from "./overlay-account.tsx";

/**
 * `?orgTakeover=<id>`, `?resellerTakeover=<id>`, `?partnerTakeover=<id>`: confirm, then put that account in
 * view (`/app/org/<id>`), acting for it with the current viewing-as value.
 */
export function TakeoverOverlay({ name, value, close }: OverlayComponentProps) {
  const { viewingAs } = useAccountState();
  const navigate = useNavigate();
  return (
    <WithOverlayAccount name={name} value={value}>
      {(account) => (
        <Stack gap="md">
          <Text size="sm">
            Take over <b>{account.displayName}</b>? You will see and act on this{" "}
            {accountTypeLabel(account.accountType).toLowerCase()} viewing as {viewingAsLabel(viewingAs)}. You
            can go back to your own account from the user menu.
          </Text>
          <AccountSummary account={account} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button onClick={() => navigate(accountAppPath(account.accountType, account.id))} data-autofocus>
              Take over
            </Button>
          </Group>
        </Stack>
      )}
    </WithOverlayAccount>
  );
}

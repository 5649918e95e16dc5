import { Alert, Button, Stack, Text } from "@mantine/core";
import { messageCodeOf } from "@switchboard/api";
import { useLoadedAccount, usePermission } from "../../lib/account-state.ts";
import { errorMessage } from "../../lib/shell-api.ts";
import type { OverlayName } from "../../overlays/overlay-names.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";

/**
 * A refused number (search, purchase or bring-your-own) with what to do about it: a plan without numbers,
 * or with all of its numbers in use, offers the upgrade (then back to `from`); a wallet short of the
 * number's month offers to add funds. Who may not manage billing is told who can.
 */
export function NumberRefusal({ error, from }: { error: unknown; from: OverlayName }) {
  const overlays = useOverlays();
  const account = useLoadedAccount();
  const manage = usePermission("canManageBilling");
  if (!error) return null;
  const message = errorMessage(error);
  const code = messageCodeOf(message);
  const upgrade = code === "numbers.planNoNumbers" || code === "numbers.planLimit";
  const fund = code === "numbers.walletShort";
  return (
    <Alert color="red" variant="light" role="alert">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{message}</Text>
        {(upgrade || fund) && !manage ? (
          <Text size="sm" c="dimmed">
            Ask an owner of your organisation: they manage its plan and wallet.
          </Text>
        ) : null}
        {upgrade && manage ? (
          <Button
            size="compact-sm"
            onClick={() =>
              // Upgrading to premium continues to the number (spec: the upgrade overlay continues to
              // selectNumber); a premium organisation chooses a plan with (more) numbers.
              account.premium ? overlays.switch(from, "selectPlan") : overlays.switch(from, "upgrade", from)
            }
          >
            Upgrade
          </Button>
        ) : null}
        {fund && manage ? (
          <Button size="compact-sm" onClick={() => overlays.switch(from, "addFunds")}>
            Add funds
          </Button>
        ) : null}
      </Stack>
    </Alert>
  );
}

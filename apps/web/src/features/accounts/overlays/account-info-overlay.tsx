import { Button, Group, Stack } from "@mantine/core";
import { useAccountState } from "../../../lib/account-state.ts";
import type { OverlayComponentProps } from "../../../overlays/overlay-props.ts";
import { useOverlays } from "../../../overlays/use-overlays.tsx";
import { TAKEOVER_OVERLAY } from "../account-kinds.ts";
import { AccountSummary } from "../account-summary.tsx";
import { WithOverlayAccount } from "./overlay-account.tsx";

/** `?orgInfo=<id>`, `?resellerInfo=<id>`, `?partnerInfo=<id>`: an account's details and what can be done. */
export function AccountInfoOverlay({ name, value }: OverlayComponentProps) {
  const { view } = useAccountState();
  const overlays = useOverlays();
  return (
    <WithOverlayAccount name={name} value={value}>
      {(account) => {
        const id = String(account.id);
        const type = account.accountType;
        const elsewhere = account.id !== view.account.id;
        return (
          <Stack gap="md">
            <AccountSummary
              account={account}
              extra={
                type === "organization"
                  ? [
                      ["Premium", account.premium ? "Yes" : "No"],
                      ["SMS enabled", account.smsEnabled ? "Yes" : "No"],
                    ]
                  : []
              }
            />
            <Group gap="sm">
              {elsewhere && type !== "agent" ? (
                <Button onClick={() => overlays.switch(name, TAKEOVER_OVERLAY[type], id)}>Take over</Button>
              ) : null}
              {type === "reseller" ? (
                <Button variant="light" onClick={() => overlays.switch(name, "resellerPreview", id)}>
                  Preview
                </Button>
              ) : null}
              {type === "organization" && (view.user.superAdmin || view.actingAsHigherRole) ? (
                <Button variant="light" onClick={() => overlays.switch(name, "orgAdmin", id)}>
                  Administer
                </Button>
              ) : null}
              {type === "organization" && view.permissions.canDeleteOrg ? (
                <Button
                  variant="light"
                  color="red"
                  onClick={() => overlays.switch(name, "deleteOrganization", id)}
                >
                  Delete
                </Button>
              ) : null}
            </Group>
          </Stack>
        );
      }}
    </WithOverlayAccount>
  );
}

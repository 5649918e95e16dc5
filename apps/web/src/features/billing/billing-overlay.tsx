import { Button, Group, Stack, Text } from "@mantine/core";
import { Link } from "react-router";
import { useAppPath } from "../../lib/account-context.ts";
import { appPath } from "../../lib/account-path.ts";
import { useLoadedAccount, usePermission } from "../../lib/account-state.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { CurrentPlanCard } from "./billing-page.tsx";
import { UsageCard } from "./usage-card.tsx";

/**
 * `?billing`: the plan and this period's usage of the account in view, over any page, with the way to the
 * full Billing page (plans, offers).
 */
export function BillingOverlay(_props: OverlayComponentProps) {
  const { accountPrefix } = useAppPath();
  const account = useLoadedAccount();
  const canView = usePermission("canViewBilling");
  if (!canView)
    return (
      <Text>
        Billing is managed by the owner of {account.displayName}. Ask them, or your partner, about the plan.
      </Text>
    );
  const offers = account.accountType === "partner" || account.accountType === "reseller";
  return (
    <Stack gap="md">
      {offers ? (
        <Text size="sm">
          The plan you offer your organisations and its prices are set on the Billing page.
        </Text>
      ) : (
        <>
          <CurrentPlanCard />
          <UsageCard />
        </>
      )}
      <Group gap="xs">
        <Button component={Link} to={appPath(accountPrefix, "billing")} variant="light">
          Open Billing
        </Button>
      </Group>
    </Stack>
  );
}

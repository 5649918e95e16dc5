import { Button, Divider, Group, Stack, Switch, Text, Textarea, TextInput, Title } from "@mantine/core";
import { type Account, PARTNER_SETTING_KEYS } from "@switchboard/api";
import { useState } from "react";
import { useAccountState } from "../../../app/account-state.ts";
import { ActionError } from "../../../components/query-state.tsx";
import { toast } from "../../../lib/toast.ts";
import type { OverlayComponentProps } from "../../../overlays/registry.ts";
import { AccountSummary } from "../account-summary.tsx";
import { useSaveAccountSetting, useSetAccountEnabled, useUpdateOrganizationFlags } from "../api.ts";
import { WithOverlayAccount } from "./overlay-account.tsx";

/** Messages of the product's error catalogue (spec §8), word for word. */
export const ENABLED_MESSAGE = "Account enabled!";
export const DISABLED_MESSAGE = "Organization disabled!";

const SETTING_LABELS: Record<string, string> = {
  grantTrialEntry: "Onboard without a plan",
  showMembers: "Members",
  showBilling: "Billing",
  allowSignup: "Delete and deactivate",
  allowTasks: "Tasks",
  allowAddAgents: "Add agents",
  allowAgentTakeover: "Agent takeover",
  allowFullEditor: "Full editor",
  allowEmbeds: "Embeds",
  smsMessaging: "SMS messaging",
  allowOrgNumberAssignment: "Choose numbers",
};

/** Super admin: enable, or disable with a reason. Failures are only logged (spec §8). */
function EnableDisable({ account }: { account: Account }) {
  const setEnabled = useSetAccountEnabled();
  const [reason, setReason] = useState("");
  const [details, setDetails] = useState("");
  const run = (enabled: boolean) =>
    setEnabled.mutate(
      { username: account.username, enabled, reason, details },
      {
        onSuccess: () => toast.success(enabled ? ENABLED_MESSAGE : DISABLED_MESSAGE),
        onError: (error) => console.error(enabled ? "enableAccount failed" : "disableAccount failed", error),
      },
    );
  if (account.disabled) {
    return (
      <Stack gap="sm">
        <Text size="sm">This account is disabled: nobody can sign in to it or act on it.</Text>
        <Group>
          <Button color="teal" loading={setEnabled.isPending} onClick={() => run(true)}>
            Enable account
          </Button>
        </Group>
      </Stack>
    );
  }
  return (
    <Stack gap="sm">
      <TextInput
        label="Reason"
        placeholder="Unpaid invoices, abuse, requested by the customer…"
        value={reason}
        onChange={(event) => setReason(event.currentTarget.value)}
        maxLength={200}
      />
      <Textarea
        label="Details"
        autosize
        minRows={2}
        value={details}
        onChange={(event) => setDetails(event.currentTarget.value)}
        maxLength={2000}
      />
      <Group>
        <Button color="red" variant="light" loading={setEnabled.isPending} onClick={() => run(false)}>
          Disable account
        </Button>
      </Group>
    </Stack>
  );
}

/** Premium and SMS-enabled flags, and the partner-controlled settings, for those acting above it. */
function Flags({ account }: { account: Account }) {
  const flags = useUpdateOrganizationFlags(account.id);
  const settings = useSaveAccountSetting(account.id);
  return (
    <Stack gap="sm">
      <Title order={3} size="h5">
        Plan
      </Title>
      <Group gap="lg">
        <Switch
          label="Premium"
          checked={account.premium}
          disabled={flags.isPending}
          onChange={(event) => flags.mutate({ premium: event.currentTarget.checked })}
        />
        <Switch
          label="SMS enabled"
          checked={account.smsEnabled}
          disabled={flags.isPending}
          onChange={(event) => flags.mutate({ smsEnabled: event.currentTarget.checked })}
        />
      </Group>
      <ActionError error={flags.error} />
      <Title order={3} size="h5">
        What the organization may use
      </Title>
      <Text size="xs" c="dimmed">
        Everything is allowed unless turned off here.
      </Text>
      <Stack gap={6}>
        {PARTNER_SETTING_KEYS.map((key) => (
          <Switch
            key={key}
            label={SETTING_LABELS[key] ?? key}
            checked={account.settings[key] !== false}
            disabled={settings.isPending}
            onChange={(event) => settings.mutate({ [key]: event.currentTarget.checked })}
          />
        ))}
      </Stack>
      <ActionError error={settings.error} />
    </Stack>
  );
}

/**
 * `?orgAdmin=<id>`: administer an organisation. A super admin enables or disables it ("Account enabled!",
 * "Organization disabled!"); whoever acts above it sets its plan flags and partner-controlled settings.
 */
export function OrgAdminOverlay({ name, value }: OverlayComponentProps) {
  const { view } = useAccountState();
  const superAdmin = view.user.superAdmin;
  const above = superAdmin || view.actingAsHigherRole;
  if (!above)
    return <Text>Only a super admin, partner or reseller above an organization can administer it.</Text>;
  return (
    <WithOverlayAccount name={name} value={value}>
      {(account) => (
        <Stack gap="md">
          <AccountSummary account={account} />
          {superAdmin ? (
            <>
              <Title order={3} size="h5">
                Access
              </Title>
              <EnableDisable account={account} />
              <Divider />
            </>
          ) : null}
          <Flags account={account} />
        </Stack>
      )}
    </WithOverlayAccount>
  );
}

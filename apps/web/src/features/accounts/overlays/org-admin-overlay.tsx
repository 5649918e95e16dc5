import {
  Button,
  Divider,
  Group,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from "@mantine/core";
import {
  type Account,
  issueRefundBodySchema,
  PARTNER_SETTING_KEYS,
  REFERRAL_MESSAGES,
} from "@switchboard/api";
import { useState } from "react";
import { confirm } from "../../../components/confirm/confirm-store.ts";
import { ActionError } from "../../../components/query-state.tsx";
import { useAccountState } from "../../../lib/account-state.ts";
import { toast } from "../../../lib/toast.ts";
import type { OverlayComponentProps } from "../../../overlays/overlay-props.ts";
import { AccountSummary } from "../account-summary.tsx";
import {
  useIssueRefund,
  useSaveAccountSetting,
  useSetAccountEnabled,
  useUpdateOrganizationFlags,
} from "../api.ts";
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

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/**
 * Super admin: refund into the account's wallet (an agent account's organisation), in dollars or satoshis,
 * after a confirmation. The spec's messages: 'The refund for the issue has been processed.' (then the
 * account reloads) and 'Something went wrong.'.
 */
function Refund({ account }: { account: Account }) {
  const refund = useIssueRefund();
  const [unit, setUnit] = useState<"usd" | "sats">("usd");
  const [amount, setAmount] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const submit = async () => {
    setDone(null);
    const body = {
      username: account.username,
      ...(unit === "usd" ? { usdAmount: amount.trim() } : { satsAmount: amount.trim() }),
      idempotencyKey: crypto.randomUUID(),
    };
    const parsed = issueRefundBodySchema.safeParse(body);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? REFERRAL_MESSAGES.refundFailed);
      return;
    }
    setError(null);
    const shown =
      parsed.data.usdAmount !== undefined
        ? usd.format(parsed.data.usdAmount)
        : `${(parsed.data.satsAmount ?? 0).toLocaleString("en-US")} sats`;
    const name = account.displayName || account.username;
    const confirmed = await confirm({
      title: `Refund ${shown}?`,
      details: `${shown} will be added to the wallet of ${name}. This cannot be undone here.`,
      confirmText: "Refund",
      confirmColor: "red",
    });
    if (!confirmed) return;
    refund.mutate(parsed.data, {
      onSuccess: (answer) => {
        toast.success(REFERRAL_MESSAGES.refunded);
        setDone(
          `${REFERRAL_MESSAGES.refunded} ${usd.format(answer.refundedCents / 100)} was added to the wallet.`,
        );
        setAmount("");
      },
      onError: () => toast.error(REFERRAL_MESSAGES.refundFailed),
    });
  };
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      noValidate
    >
      <Stack gap="sm">
        <SegmentedControl
          w="fit-content"
          size="xs"
          value={unit}
          onChange={(value) => setUnit(value as "usd" | "sats")}
          data={[
            { value: "usd", label: "USD" },
            { value: "sats", label: "Satoshis" },
          ]}
          aria-label="Refund currency"
        />
        <Group align="flex-start" gap="xs">
          <TextInput
            label={unit === "usd" ? "Refund amount (USD)" : "Refund amount (sats)"}
            inputMode="decimal"
            value={amount}
            error={error}
            onChange={(event) => setAmount(event.currentTarget.value)}
          />
          <Button type="submit" mt={25} color="red" variant="light" loading={refund.isPending}>
            Refund
          </Button>
        </Group>
        {refund.isError ? (
          <Stack gap={4}>
            <Text size="sm" c="red" role="alert">
              {REFERRAL_MESSAGES.refundFailed}
            </Text>
            <ActionError error={refund.error} />
          </Stack>
        ) : null}
        {done ? (
          <Text size="sm" c="teal" role="status">
            {done}
          </Text>
        ) : null}
      </Stack>
    </form>
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
              <Title order={3} size="h5">
                Refund
              </Title>
              <Refund account={account} />
              <Divider />
            </>
          ) : null}
          <Flags account={account} />
        </Stack>
      )}
    </WithOverlayAccount>
  );
}

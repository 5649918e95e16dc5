import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  TextInput,
} from "@mantine/core";
import { WITHDRAW_MAX_USD, WITHDRAW_MESSAGES, WITHDRAW_MIN_USD } from "@switchboard/api";
import { type FormEvent, useEffect, useState } from "react";
import { ActionError, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { useAppPath } from "../../lib/account-context.ts";
import { usePermission } from "../../lib/account-state.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import {
  useConnectedAccount,
  useConnectStripe,
  useInvalidateBalance,
  useWallet,
  useWithdraw,
  useWithdrawal,
  useWithdrawals,
} from "./api.ts";
import { formatCents, formatSats } from "./format.ts";

type Kind = "ln" | "paypal" | "venmo" | "stripe";

const METHOD_LABELS: Record<string, string> = {
  ln: "Lightning",
  paypal: "PayPal",
  venmo: "Venmo",
  stripe: "Bank (Stripe)",
};

/** Dollars typed by the user: at most two decimals within the withdrawal range, else null. */
function parseDollars(text: string): number | null {
  const trimmed = text.trim().replace(/^\$/, "");
  if (!/^\d+(\.\d{1,2})?$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value >= WITHDRAW_MIN_USD && value <= WITHDRAW_MAX_USD ? value : null;
}

export const withdrawalStatusLabel = (status: string) =>
  status === "settled" ? "Paid out" : status === "released" ? "Failed: funds returned" : "On hold";

export const withdrawalStatusColor = (status: string) =>
  status === "settled" ? "teal" : status === "released" ? "red" : "yellow";

/** A withdrawal's progress: on hold while the payment is made, then paid out or returned to the wallet. */
function WithdrawalProgress({ id, onAnother }: { id: number; onAnother: () => void }) {
  const withdrawal = useWithdrawal(id);
  const invalidate = useInvalidateBalance();
  const status = withdrawal.data?.withdrawal.status;
  // The balance and the lists change when the payout ends.
  useEffect(() => {
    if (status && status !== "pending") void invalidate();
  }, [status, invalidate]);
  if (withdrawal.isPending) return <LoadingState label="Loading the withdrawal…" />;
  if (withdrawal.isError)
    return <ErrorState error={withdrawal.error} onRetry={() => void withdrawal.refetch()} />;
  const { withdrawal: w, balance } = withdrawal.data;
  return (
    <Stack gap="sm" data-testid="withdrawal-progress">
      <Group justify="space-between" wrap="wrap">
        <Text fw={600}>
          {formatCents(w.amountCents)} to {METHOD_LABELS[w.method] ?? w.method}
          {w.amountSats ? ` (${formatSats(w.amountSats)})` : ""}
        </Text>
        <Badge color={withdrawalStatusColor(w.status)} data-testid="withdrawal-status">
          {withdrawalStatusLabel(w.status)}
        </Badge>
      </Group>
      <Text size="sm" c="dimmed" style={{ wordBreak: "break-all" }}>
        {w.method === "ln" ? `${w.address.slice(0, 32)}…` : w.address}
      </Text>
      {w.status === "pending" ? (
        <Alert color="yellow" variant="light" role="status">
          The funds are on hold while the payment is made. This takes a few seconds.
        </Alert>
      ) : w.status === "settled" ? (
        <Alert color="teal" variant="light" role="status">
          The money was sent. Available balance: {formatCents(balance.availableCents)}.
        </Alert>
      ) : (
        <Alert color="red" variant="light" role="alert">
          The payment failed: {w.failureReason}. {formatCents(w.amountCents)} went back to your wallet.
        </Alert>
      )}
      {w.sandboxUrl ? (
        <Anchor href={w.sandboxUrl} target="_blank" rel="noopener" size="sm">
          See this payout in the payouts sandbox
        </Anchor>
      ) : null}
      <Group justify="flex-end">
        <Button variant="light" onClick={onAnother}>
          New withdrawal
        </Button>
      </Group>
    </Stack>
  );
}

/** The withdraw overlay (spec §2.1): to a lightning invoice, a PayPal or Venmo payout, or a bank (Stripe). */
export function WithdrawOverlay({ value }: OverlayComponentProps) {
  const canManage = usePermission("canManageBilling");
  const wallet = useWallet();
  const withdrawals = useWithdrawals();
  const withdraw = useWithdraw();
  const [kind, setKind] = useState<Kind>(
    value === "paypal" || value === "venmo" || value === "stripe" ? value : "ln",
  );
  const [address, setAddress] = useState("");
  const [amount, setAmount] = useState("");
  const [errors, setErrors] = useState<{ address?: string; amount?: string }>({});
  const [started, setStarted] = useState<number | null>(null);

  if (!canManage)
    return <Alert color="gray">Only members who manage billing can withdraw from the wallet.</Alert>;
  if (started !== null)
    return (
      <WithdrawalProgress
        id={started}
        onAnother={() => {
          setStarted(null);
          setAddress("");
          withdraw.reset();
        }}
      />
    );
  if (wallet.isPending) return <LoadingState label="Loading the wallet…" />;
  if (wallet.isError) return <ErrorState error={wallet.error} onRetry={() => void wallet.refetch()} />;
  const available = wallet.data.balance.availableCents;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: typeof errors = {};
    const trimmed = address.trim();
    let dollars: number | null = null;
    if (kind === "ln") {
      if (!/^(lightning:)?ln[a-z0-9]+$/i.test(trimmed)) next.address = WITHDRAW_MESSAGES.invoice;
    } else if (kind === "stripe") {
      dollars = parseDollars(amount);
      if (dollars === null) next.amount = WITHDRAW_MESSAGES.amount;
      else if (dollars * 100 > available) next.amount = WITHDRAW_MESSAGES.insufficientFunds;
    } else {
      if (!trimmed)
        next.address = kind === "paypal" ? WITHDRAW_MESSAGES.paypalAddress : WITHDRAW_MESSAGES.venmoAddress;
      dollars = parseDollars(amount);
      if (dollars === null) next.amount = WITHDRAW_MESSAGES.amount;
      else if (dollars * 100 > available) next.amount = WITHDRAW_MESSAGES.insufficientFunds;
    }
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    withdraw.mutate(
      kind === "ln"
        ? { kind, address: trimmed }
        : kind === "stripe"
          ? { kind, amountUsd: dollars as number }
          : { kind, address: trimmed, amountUsd: dollars as number },
      { onSuccess: (answer) => setStarted(answer.withdrawal.id) },
    );
  };

  const sandboxWallet = withdrawals.data?.sandboxLightningWalletUrl ?? null;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm">
          Available: <b data-testid="withdraw-available">{formatCents(available)}</b>
        </Text>
        <SegmentedControl
          aria-label="Withdraw to"
          value={kind}
          onChange={(next) => {
            setKind(next as Kind);
            setErrors({});
            withdraw.reset();
          }}
          data={[
            { label: "Lightning", value: "ln" },
            { label: "PayPal", value: "paypal" },
            { label: "Venmo", value: "venmo" },
            { label: "Bank account (Stripe)", value: "stripe" },
          ]}
        />
        {kind === "ln" ? (
          <>
            <Textarea
              label="Lightning invoice"
              description="An invoice (BOLT11) from your lightning wallet, with the amount to withdraw"
              autosize
              minRows={3}
              value={address}
              onChange={(event) => setAddress(event.currentTarget.value)}
              error={errors.address}
              styles={{ input: { fontFamily: "monospace", wordBreak: "break-all" } }}
            />
            {sandboxWallet ? (
              <Text size="xs" c="dimmed">
                Sandbox: make an invoice to withdraw to in the{" "}
                <Anchor href={sandboxWallet} target="_blank" rel="noopener" size="xs">
                  sandbox lightning wallet
                </Anchor>
                .
              </Text>
            ) : null}
          </>
        ) : kind === "stripe" ? (
          <StripeFields amount={amount} setAmount={setAmount} error={errors.amount} />
        ) : (
          <>
            <TextInput
              label={kind === "paypal" ? "PayPal email" : "Venmo email or mobile number"}
              autoComplete="email"
              value={address}
              onChange={(event) => setAddress(event.currentTarget.value)}
              error={errors.address}
            />
            <TextInput
              label="Amount (USD)"
              leftSection="$"
              inputMode="decimal"
              value={amount}
              onChange={(event) => setAmount(event.currentTarget.value)}
              error={errors.amount}
            />
          </>
        )}
        <ActionError error={withdraw.error} />
        <Button type="submit" loading={withdraw.isPending} disabled={available <= 0}>
          Withdraw
        </Button>
        {available <= 0 ? (
          <Text size="xs" c="dimmed">
            The wallet is empty: there is nothing to withdraw.
          </Text>
        ) : null}
      </Stack>
    </form>
  );
}

/** The bank account (Stripe Connect) fields: connect first (Stripe's onboarding), then the amount. */
function StripeFields({
  amount,
  setAmount,
  error,
}: {
  amount: string;
  setAmount: (value: string) => void;
  error: string | undefined;
}) {
  const connected = useConnectedAccount();
  const connect = useConnectStripe();
  const { accountPrefix } = useAppPath();
  if (connected.isPending) return <LoadingState label="Checking the bank account…" />;
  if (connected.isError)
    return <ErrorState error={connected.error} onRetry={() => void connected.refetch()} />;
  if (!connected.data.payoutsEnabled) {
    const start = () => {
      const origin = window.location.origin;
      connect.mutate(
        {
          successUrl: `${origin}${accountPrefix}/stripePayoutConnectSuccess`,
          failureUrl: `${origin}${accountPrefix}/stripePayoutConnectFailure`,
        },
        { onSuccess: (answer) => window.location.assign(answer.url) },
      );
    };
    return (
      <Stack gap="xs">
        <Text size="sm">
          {connected.data.accountId
            ? "Stripe has not enabled payouts on your connected account yet. Finish its onboarding."
            : "Connect a bank account with Stripe to withdraw to it."}
        </Text>
        <ActionError error={connect.error} />
        <Button variant="light" onClick={start} loading={connect.isPending}>
          Connect a bank account
        </Button>
      </Stack>
    );
  }
  return (
    <>
      <Group gap="xs">
        <Badge color="teal" variant="light">
          Bank account connected
        </Badge>
        <Text size="xs" c="dimmed">
          {connected.data.accountId}
        </Text>
      </Group>
      <TextInput
        label="Amount (USD)"
        leftSection="$"
        inputMode="decimal"
        value={amount}
        onChange={(event) => setAmount(event.currentTarget.value)}
        error={error}
      />
    </>
  );
}

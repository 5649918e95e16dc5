import {
  Alert,
  Anchor,
  Button,
  Code,
  CopyButton,
  Group,
  SegmentedControl,
  Stack,
  Tabs,
  Text,
  Textarea,
  TextInput,
} from "@mantine/core";
import { TOP_UP_MAX_USD, TOP_UP_MIN_USD, WALLET_MESSAGES } from "@switchboard/api";
import { type FormEvent, useState } from "react";
import { ActionError, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { useAppPath } from "../../lib/account-context.ts";
import { toast } from "../../lib/toast.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import {
  isMarketRate,
  useCheckoutCredit,
  useExchangeRate,
  usePendingInvoice,
  useProveInvoicePaid,
  useRequestInvoice,
  useResetPendingInvoice,
} from "./api.ts";
import { formatCents, formatSats } from "./format.ts";

/** Dollars typed by the user: a number with at most two decimals within the top-up range, else null. */
function parseDollars(text: string): number | null {
  const value = Number(text.trim().replace(/^\$/, ""));
  if (!Number.isFinite(value) || !/^\$?\d+(\.\d{1,2})?$/.test(text.trim())) return null;
  return value >= TOP_UP_MIN_USD && value <= TOP_UP_MAX_USD ? value : null;
}

export function CardTopUp({ initialAmount = "25" }: { initialAmount?: string }) {
  const { accountPrefix } = useAppPath();
  const checkout = useCheckoutCredit();
  const [amount, setAmount] = useState(initialAmount);
  const [invalid, setInvalid] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const dollars = parseDollars(amount);
    setInvalid(dollars === null);
    if (dollars === null) return;
    const origin = window.location.origin;
    checkout.mutate(
      {
        amount: dollars,
        successUrl: `${origin}${accountPrefix}/paymentSuccess?session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${origin}${accountPrefix}/paymentCancel`,
      },
      { onSuccess: (answer) => window.location.assign(answer.url) },
    );
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label="Amount (USD)"
          leftSection="$"
          inputMode="decimal"
          value={amount}
          onChange={(event) => setAmount(event.currentTarget.value)}
          error={invalid ? WALLET_MESSAGES.amount : null}
        />
        <Text size="xs" c="dimmed">
          You pay on the card checkout page, then come back here. The wallet is credited once the payment
          completes.
        </Text>
        <ActionError error={checkout.error} />
        <Button type="submit" loading={checkout.isPending || checkout.isSuccess}>
          Continue to card payment
        </Button>
      </Stack>
    </form>
  );
}

function LightningTopUp({ onDone }: { onDone: () => void }) {
  const pending = usePendingInvoice();
  const request = useRequestInvoice();
  const reset = useResetPendingInvoice();
  const prove = useProveInvoicePaid();
  const rate = useExchangeRate();
  const satToUsd = rate.satToUsd;
  // Only a market rate is a price: the sandbox's and the fallback say what they are.
  const rateNote = isMarketRate(rate)
    ? ""
    : rate.source === "sandbox"
      ? " (sandbox rate)"
      : " (fallback rate)";
  const [amount, setAmount] = useState("10");
  const [unit, setUnit] = useState<"USD" | "SAT">("USD");
  const [preimage, setPreimage] = useState("");
  const [invalid, setInvalid] = useState<string | null>(null);

  if (pending.isPending) return <LoadingState label="Loading the pending invoice…" />;
  if (pending.isError) return <ErrorState error={pending.error} onRetry={() => void pending.refetch()} />;
  const invoice = pending.data.pendingInvoice;

  if (!invoice) {
    const ask = (event: FormEvent) => {
      event.preventDefault();
      const value = Number(amount.trim());
      const ok =
        unit === "USD"
          ? parseDollars(amount) !== null
          : Number.isInteger(value) && value * satToUsd >= TOP_UP_MIN_USD;
      setInvalid(ok ? null : unit === "USD" ? WALLET_MESSAGES.amount : WALLET_MESSAGES.amountSats);
      if (ok) request.mutate({ amount: value, unit });
    };
    const estimate = Number(amount);
    return (
      <form onSubmit={ask} noValidate>
        <Stack gap="sm">
          <SegmentedControl
            aria-label="Unit"
            value={unit}
            onChange={(value) => setUnit(value as "USD" | "SAT")}
            data={[
              { label: "Dollars", value: "USD" },
              { label: "Satoshis", value: "SAT" },
            ]}
          />
          <TextInput
            label={unit === "USD" ? "Amount (USD)" : "Amount (sats)"}
            inputMode="decimal"
            value={amount}
            onChange={(event) => setAmount(event.currentTarget.value)}
            error={invalid}
            description={
              Number.isFinite(estimate) && estimate > 0
                ? unit === "USD"
                  ? `≈ ${formatSats(estimate / satToUsd)}${rateNote}`
                  : `≈ ${formatCents(Math.floor(estimate * satToUsd * 100))}${rateNote}`
                : null
            }
          />
          <ActionError error={request.error} />
          <Button type="submit" loading={request.isPending}>
            Create lightning invoice
          </Button>
        </Stack>
      </form>
    );
  }

  const confirm = (event: FormEvent) => {
    event.preventDefault();
    prove.mutate(
      { preimage: preimage.trim(), invoice: invoice.invoice },
      {
        onSuccess: (answer) => {
          toast.success(`${formatCents(answer.creditedCents)} was added to your wallet.`);
          onDone();
        },
      },
    );
  };
  const expired = invoice.expiresAt < Date.now();
  return (
    <Stack gap="sm">
      <Text size="sm">
        Pay this invoice of <b>{formatSats(invoice.amountSats)}</b> ({formatCents(invoice.amountCents)}) from
        a lightning wallet, then paste the payment's preimage below to prove it.
      </Text>
      {expired ? (
        <Alert color="yellow" variant="light">
          {WALLET_MESSAGES.invoiceExpired}
        </Alert>
      ) : null}
      <Code block style={{ wordBreak: "break-all", whiteSpace: "pre-wrap" }} data-testid="lightning-invoice">
        {invoice.invoice}
      </Code>
      <Group gap="xs" wrap="wrap">
        <CopyButton value={invoice.invoice}>
          {({ copied, copy }) => (
            <Button size="xs" variant="light" onClick={copy}>
              {copied ? "Copied" : "Copy invoice"}
            </Button>
          )}
        </CopyButton>
        {invoice.sandboxWalletUrl ? (
          <Anchor href={invoice.sandboxWalletUrl} target="_blank" rel="noopener" size="sm">
            Pay with the sandbox wallet
          </Anchor>
        ) : null}
      </Group>
      <form onSubmit={confirm} noValidate>
        <Stack gap="sm">
          <Textarea
            label="Preimage"
            description="64 hexadecimal characters your wallet shows after paying"
            autosize
            minRows={2}
            value={preimage}
            onChange={(event) => setPreimage(event.currentTarget.value)}
            styles={{ input: { fontFamily: "monospace" } }}
          />
          <ActionError error={prove.error} />
          <Group justify="space-between" wrap="wrap">
            <Button variant="subtle" color="gray" loading={reset.isPending} onClick={() => reset.mutate()}>
              Cancel this invoice
            </Button>
            <Button type="submit" loading={prove.isPending} disabled={!preimage.trim()}>
              Confirm payment
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}

/** The addFunds overlay (spec §2.1): top up by card (checkout) or by lightning (an invoice and its preimage). */
export function AddFundsOverlay({ value, close }: OverlayComponentProps) {
  const [tab, setTab] = useState<string | null>(value === "lightning" ? "lightning" : "card");
  return (
    <Tabs value={tab} onChange={setTab} keepMounted={false}>
      <Tabs.List grow mb="md">
        <Tabs.Tab value="card">Card</Tabs.Tab>
        <Tabs.Tab value="lightning">Lightning</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="card">
        <CardTopUp />
      </Tabs.Panel>
      <Tabs.Panel value="lightning">
        <LightningTopUp onDone={close} />
      </Tabs.Panel>
    </Tabs>
  );
}

import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { useAppPath } from "../../lib/account-context.ts";
import { usePermission } from "../../lib/account-state.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { type ExchangeRate, isMarketRate, useExchangeRate, useWallet } from "./api.ts";
import { ConnectReturnPage } from "./connect-return-page.tsx";
import { formatCents, formatSats } from "./format.ts";
import { PaymentLinksSection } from "./payment-links-section.tsx";
import { PaymentReturnPage } from "./payment-return-page.tsx";
import { ReferralsSection } from "./referrals-section.tsx";
import { TransactionRows } from "./transaction-rows.tsx";

/**
 * The bitcoin price a balance is converted at, saying what it is: a market price, the sandbox's made-up
 * rate (no real market: PAYMENTS offline), or the fixed fallback when no provider answered.
 */
export function rateText(rate: ExchangeRate): string {
  const perBitcoin = `$${(rate.satToUsd * 1e8).toLocaleString("en-US", { maximumFractionDigits: 0 })} per bitcoin`;
  if (rate.source === "sandbox")
    return `the sandbox rate of ${perBitcoin} (made up for testing, not a market price)`;
  if (!isMarketRate(rate)) return `a fixed fallback rate of ${perBitcoin} (no market price could be had)`;
  return perBitcoin;
}

function Wallet() {
  const wallet = useWallet();
  const rate = useExchangeRate();
  const overlays = useOverlays();
  const canManage = usePermission("canManageBilling");
  const canView = usePermission("canViewBilling");
  const balance = wallet.data?.balance;
  return (
    <Stack gap="lg" p="md" maw={960}>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Stack gap={4}>
          <Title order={1}>Wallet</Title>
          <Text c="dimmed">
            Your prepaid balance pays for usage. Top it up by card or over lightning; withdraw to lightning,
            PayPal, Venmo or a bank account (Stripe).
          </Text>
        </Stack>
        {canManage ? (
          <Group gap="xs">
            <Button onClick={() => overlays.open("addFunds")}>Add funds</Button>
            <Button variant="light" onClick={() => overlays.open("withdraw")}>
              Withdraw
            </Button>
          </Group>
        ) : null}
      </Group>
      {wallet.isPending ? <LoadingState label="Loading the wallet…" /> : null}
      {wallet.isError ? <ErrorState error={wallet.error} onRetry={() => void wallet.refetch()} /> : null}
      {balance ? (
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <Card withBorder padding="lg">
            <Text size="sm" c="dimmed">
              Balance
            </Text>
            <Text size="xl" fw={700} fz={32} data-testid="wallet-balance">
              {formatCents(balance.availableCents)}
            </Text>
            <Text size="xs" c="dimmed" data-testid="wallet-sats">
              ≈ {formatSats(balance.availableCents / 100 / rate.satToUsd)} at {rateText(rate)}
            </Text>
            {balance.owedCents ? (
              <Text size="sm" c="red.8" mt={4} data-testid="wallet-owed">
                {formatCents(balance.owedCents)} of usage owed: paid from your next top-up.
              </Text>
            ) : null}
          </Card>
          <Card withBorder padding="lg">
            <Text size="sm" c="dimmed">
              On hold
            </Text>
            <Text size="xl" fw={700} fz={32}>
              {formatCents(balance.heldCents)}
            </Text>
            <Group justify="space-between" gap="xs">
              <Text size="xs" c="dimmed">
                Withdrawals in progress
              </Text>
              <Button size="compact-xs" variant="subtle" onClick={() => overlays.open("balances")}>
                Balances
              </Button>
            </Group>
          </Card>
        </SimpleGrid>
      ) : null}
      {wallet.data ? (
        <Stack gap="xs">
          <Group gap="xs">
            <Title order={2} size="h3">
              Recent transactions
            </Title>
            <Badge variant="light">{wallet.data.transactions.length}</Badge>
            <Button
              size="compact-sm"
              variant="subtle"
              ml="auto"
              onClick={() => overlays.open("transactions")}
            >
              All transactions
            </Button>
            <Button size="compact-sm" variant="subtle" onClick={() => overlays.open("wallet")}>
              Withdrawals
            </Button>
          </Group>
          {wallet.data.transactions.length === 0 ? (
            <EmptyState
              action={
                canManage ? (
                  <Button variant="light" onClick={() => overlays.open("addFunds")}>
                    Add funds
                  </Button>
                ) : null
              }
            >
              No transactions yet. Top-ups and usage will be listed here.
            </EmptyState>
          ) : (
            <TransactionRows transactions={wallet.data.transactions} />
          )}
        </Stack>
      ) : null}
      {canView ? <PaymentLinksSection canManage={canManage} /> : null}
      {canView ? <ReferralsSection /> : null}
    </Stack>
  );
}

/**
 * /app/…/wallet, the payment return pages /app/…/paymentSuccess and /app/…/paymentCancel, and the Stripe
 * Connect return pages /app/…/stripePayoutConnectSuccess and …Failure (spec §2.2).
 */
export function WalletPage() {
  const { rest } = useAppPath();
  if (rest[0] === "paymentSuccess" || rest[0] === "paymentCancel")
    return <PaymentReturnPage outcome={rest[0] === "paymentSuccess" ? "success" : "cancel"} />;
  if (rest[0] === "stripePayoutConnectSuccess" || rest[0] === "stripePayoutConnectFailure")
    return <ConnectReturnPage outcome={rest[0] === "stripePayoutConnectSuccess" ? "success" : "failure"} />;
  return <Wallet />;
}

import { Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text } from "@mantine/core";
import { EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { usePermission } from "../../lib/account-state.ts";
import { useTimeFormat } from "../../lib/use-time-format.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { isMarketRate, useExchangeRate, useTransactionPages, useWallet, useWithdrawals } from "./api.ts";
import { formatCents, formatSats } from "./format.ts";
import { TransactionRows } from "./transaction-rows.tsx";
import { withdrawalStatusColor, withdrawalStatusLabel } from "./withdraw-overlay.tsx";

/** The transactions overlay (spec §2.1): every transaction of the wallet, newest first, a page at a time. */
export function TransactionsOverlay(_props: OverlayComponentProps) {
  const pages = useTransactionPages();
  if (!pages.data) {
    if (pages.isError) return <ErrorState error={pages.error} onRetry={() => void pages.refetch()} />;
    return <LoadingState label="Loading the transactions…" />;
  }
  const transactions = pages.data.pages.flatMap((page) => page.transactions);
  if (transactions.length === 0)
    return <EmptyState>No transactions yet. Top-ups, usage and withdrawals will be listed here.</EmptyState>;
  return (
    <Stack gap="sm">
      <TransactionRows transactions={transactions} />
      <Group justify="space-between" wrap="wrap">
        <Text size="xs" c="dimmed" data-testid="transactions-count">
          {transactions.length} shown
        </Text>
        {pages.hasNextPage ? (
          <Button
            variant="light"
            loading={pages.isFetchingNextPage}
            onClick={() => void pages.fetchNextPage()}
          >
            Load older transactions
          </Button>
        ) : (
          <Text size="xs" c="dimmed">
            That is all.
          </Text>
        )}
      </Group>
      {pages.isFetchNextPageError ? (
        <ErrorState error={pages.error} onRetry={() => void pages.fetchNextPage()} />
      ) : null}
    </Stack>
  );
}

/** The balances overlay (spec §2.1): available and on hold, and the withdrawals that hold funds. */
export function BalancesOverlay(_props: OverlayComponentProps) {
  const wallet = useWallet();
  const withdrawals = useWithdrawals();
  const rate = useExchangeRate();
  if (wallet.isPending) return <LoadingState label="Loading the balances…" />;
  if (wallet.isError) return <ErrorState error={wallet.error} onRetry={() => void wallet.refetch()} />;
  const { balance } = wallet.data;
  const pending = withdrawals.data?.withdrawals.filter((w) => w.status === "pending") ?? [];
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <Card withBorder>
          <Text size="sm" c="dimmed">
            Available
          </Text>
          <Text fw={700} fz={26} data-testid="balances-available">
            {formatCents(balance.availableCents)}
          </Text>
          <Text size="xs" c="dimmed">
            ≈ {formatSats(balance.availableCents / 100 / rate.satToUsd)}
            {isMarketRate(rate)
              ? ""
              : rate.source === "sandbox"
                ? " at the sandbox rate"
                : " at a fallback rate"}
          </Text>
        </Card>
        <Card withBorder>
          <Text size="sm" c="dimmed">
            On hold
          </Text>
          <Text fw={700} fz={26} data-testid="balances-held">
            {formatCents(balance.heldCents)}
          </Text>
          <Text size="xs" c="dimmed">
            Withdrawals in progress
          </Text>
        </Card>
      </SimpleGrid>
      <Text size="sm">
        Total: <b>{formatCents(balance.availableCents + balance.heldCents)}</b>. Funds on hold return to the
        available balance if their payout fails.
      </Text>
      {withdrawals.isError ? (
        <ErrorState error={withdrawals.error} onRetry={() => void withdrawals.refetch()} />
      ) : pending.length > 0 ? (
        <Stack gap={4}>
          {pending.map((w) => (
            <Group key={w.id} justify="space-between">
              <Text size="sm">
                {formatCents(w.amountCents)} · {w.method === "ln" ? "Lightning" : w.method}
              </Text>
              <Badge color="yellow">On hold</Badge>
            </Group>
          ))}
        </Stack>
      ) : null}
    </Stack>
  );
}

/** The wallet overlay (spec §2.1): the balance, the latest withdrawals, and the wallet's actions. */
export function WalletOverlay({ name }: OverlayComponentProps) {
  const times = useTimeFormat();
  const wallet = useWallet();
  const withdrawals = useWithdrawals();
  const overlays = useOverlays();
  const canManage = usePermission("canManageBilling");
  if (wallet.isPending) return <LoadingState label="Loading the wallet…" />;
  if (wallet.isError) return <ErrorState error={wallet.error} onRetry={() => void wallet.refetch()} />;
  const { balance } = wallet.data;
  const recent = withdrawals.data?.withdrawals.slice(0, 5) ?? [];
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Stack gap={0}>
          <Text size="sm" c="dimmed">
            Balance
          </Text>
          <Text fw={700} fz={30} data-testid="wallet-overlay-balance">
            {formatCents(balance.availableCents)}
          </Text>
          {balance.heldCents > 0 ? (
            <Text size="xs" c="dimmed">
              {formatCents(balance.heldCents)} on hold
            </Text>
          ) : null}
        </Stack>
        <Group gap="xs" wrap="wrap">
          {canManage ? (
            <>
              <Button size="sm" onClick={() => overlays.switch(name, "addFunds")}>
                Add funds
              </Button>
              <Button size="sm" variant="light" onClick={() => overlays.switch(name, "withdraw")}>
                Withdraw
              </Button>
            </>
          ) : null}
        </Group>
      </Group>
      <Group gap="xs" wrap="wrap">
        <Button size="xs" variant="subtle" onClick={() => overlays.switch(name, "balances")}>
          Balances
        </Button>
        <Button size="xs" variant="subtle" onClick={() => overlays.switch(name, "transactions")}>
          All transactions
        </Button>
      </Group>
      <Text fw={600} size="sm">
        Withdrawals
      </Text>
      {withdrawals.isPending ? (
        <LoadingState label="Loading the withdrawals…" />
      ) : withdrawals.isError ? (
        <ErrorState error={withdrawals.error} onRetry={() => void withdrawals.refetch()} />
      ) : recent.length === 0 ? (
        <Text size="sm" c="dimmed">
          No withdrawals yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={320}>
          <Table aria-label="Withdrawals">
            <Table.Tbody>
              {recent.map((w) => (
                <Table.Tr key={w.id} data-testid="withdrawal-row">
                  <Table.Td>
                    <Text size="sm">{times.format(w.createdAt, "dateTime")}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">
                      {w.method === "ln" ? "Lightning" : w.method === "venmo" ? "Venmo" : "PayPal"}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">
                    <Text size="sm" fw={600}>
                      {formatCents(w.amountCents)}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">
                    <Badge color={withdrawalStatusColor(w.status)} title={w.failureReason ?? undefined}>
                      {withdrawalStatusLabel(w.status)}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

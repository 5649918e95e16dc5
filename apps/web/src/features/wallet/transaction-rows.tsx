import { Stack, Table, Text } from "@mantine/core";
import type { WalletTransaction } from "@switchboard/api";
import { useTimeFormat } from "../../lib/use-time-format.ts";
import { formatCents, formatSats, kindLabel } from "./format.ts";

/** Wallet transactions: date, what, and the change of the balance (or of the funds on hold). */
export function TransactionRows({ transactions }: { transactions: WalletTransaction[] }) {
  const times = useTimeFormat();
  return (
    <Table.ScrollContainer minWidth={420}>
      <Table verticalSpacing="sm" aria-label="Recent transactions">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Date</Table.Th>
            <Table.Th>Description</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {transactions.map((tx) => {
            // The available balance's change; a payout leaving the hold changes only the funds on hold.
            const fromHold = tx.amountCents === 0 && tx.heldCents < 0;
            // A plan paid by card: its price, said to be paid by card (the wallet did not change).
            const byCard = tx.amountCents === 0 && !fromHold && (tx.paidByCardCents ?? 0) > 0;
            const amount = fromHold ? tx.heldCents : byCard ? -(tx.paidByCardCents ?? 0) : tx.amountCents;
            return (
              <Table.Tr key={tx.id} data-testid="wallet-transaction">
                <Table.Td>
                  <Text size="sm">{times.format(tx.createdAt, "dateTime")}</Text>
                </Table.Td>
                <Table.Td>
                  <Stack gap={2}>
                    <Text size="sm" fw={500}>
                      {kindLabel(tx.kind)}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {tx.description}
                    </Text>
                  </Stack>
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="sm" fw={600} c={amount > 0 ? "teal.9" : undefined}>
                    {amount > 0 ? "+" : ""}
                    {formatCents(amount)}
                  </Text>
                  {fromHold ? (
                    <Text size="xs" c="dimmed">
                      from the funds on hold
                    </Text>
                  ) : null}
                  {byCard ? (
                    <Text size="xs" c="dimmed" data-testid="paid-by-card">
                      paid by card, not from the wallet
                    </Text>
                  ) : null}
                  {tx.amountSats ? (
                    <Text size="xs" c="dimmed">
                      {formatSats(tx.amountSats)}
                    </Text>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

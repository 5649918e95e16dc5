import { Card, Group, Stack, Table, Text, Title } from "@mantine/core";
import { ErrorState, LoadingState } from "../../components/query-state.tsx";
import { formatCalendarDay } from "../../lib/time-format.ts";
import { usePeriodUsage } from "./api.ts";
import { formatCents } from "./plan-parts.tsx";

type Bucket = "voice" | "advancedVoice" | "outbound-message" | "inbound-message" | "tokens" | "number";

/** Each bucket's name, its unit, and how many of the API's units (token, minute, ...) one priced unit is. */
const BUCKETS: { key: Bucket; label: string; unit: string; per: number }[] = [
  { key: "voice", label: "Call minutes", unit: "minute", per: 1 },
  { key: "advancedVoice", label: "Advanced call minutes", unit: "minute", per: 1 },
  { key: "outbound-message", label: "Texts sent", unit: "text", per: 1 },
  { key: "inbound-message", label: "Texts received", unit: "text", per: 1 },
  { key: "tokens", label: "Model tokens", unit: "1,000 tokens", per: 1000 },
  { key: "number", label: "Phone numbers", unit: "number", per: 1 },
];

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 4 });
const day = (iso: string) => formatCalendarDay(iso, { withYear: false });

/**
 * The current billing period's usage per bucket: quantity, what the next unit costs by the plan's tiers, and
 * the cost so far — the same pricing the usage debits charge the wallet by — and what they charged so far.
 */
export function UsageCard() {
  const usage = usePeriodUsage();
  if (usage.isPending) return <LoadingState label="Loading usage…" />;
  if (usage.isError)
    return (
      <ErrorState
        title="Usage could not be loaded"
        error={usage.error}
        onRetry={() => void usage.refetch()}
      />
    );
  const {
    usage: quantities,
    prices,
    costs,
    totalCost,
    debitedCents,
    notChargedCents,
    pendingCents,
    plan,
    startDate,
    endDate,
  } = usage.data;
  const used = BUCKETS.filter((bucket) => quantities[bucket.key] > 0);
  return (
    <Card withBorder padding="md" radius="md" aria-labelledby="usage-title" data-testid="usage-card">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={2} size="h4" id="usage-title">
            Usage this period
          </Title>
          <Text size="sm" c="dimmed">
            {day(startDate)} – {day(endDate)}
          </Text>
        </Group>
        <Text size="sm" c="dimmed">
          {plan ? `Priced by the ${plan} plan's tiers` : "Priced at list prices"}; usage is charged to your
          wallet as it adds up.
        </Text>
        {used.length === 0 ? (
          <Text c="dimmed" data-testid="usage-empty">
            No usage yet this period.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={420}>
            <Table aria-label="Usage this period" verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Usage</Table.Th>
                  <Table.Th ta="right">Quantity</Table.Th>
                  <Table.Th ta="right">Price now</Table.Th>
                  <Table.Th ta="right">Cost</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {used.map((bucket) => {
                  const price = prices[bucket.key] * bucket.per;
                  return (
                    <Table.Tr key={bucket.key} data-testid={`usage-row-${bucket.key}`}>
                      <Table.Td>{bucket.label}</Table.Td>
                      <Table.Td ta="right" data-testid={`usage-quantity-${bucket.key}`}>
                        {quantities[bucket.key].toLocaleString("en-US")}
                      </Table.Td>
                      <Table.Td ta="right">
                        {price === 0 ? "Included" : `${usd.format(price)} / ${bucket.unit}`}
                      </Table.Td>
                      <Table.Td ta="right">{usd.format(costs?.[bucket.key] ?? 0)}</Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Text size="sm">
          Total this period: <b data-testid="usage-total">{usd.format(totalCost ?? 0)}</b>
        </Text>
        {debitedCents !== undefined ? (
          <Table aria-label="How this period's total is charged" data-testid="usage-charges">
            <Table.Tbody>
              <Table.Tr>
                <Table.Td>Charged to your wallet so far</Table.Td>
                <Table.Td ta="right" data-testid="usage-debited">
                  {formatCents(debitedCents)}
                </Table.Td>
              </Table.Tr>
              {pendingCents ? (
                <Table.Tr>
                  <Table.Td>To be charged with the next usage charge (every few minutes)</Table.Td>
                  <Table.Td ta="right" data-testid="usage-pending">
                    {formatCents(pendingCents)}
                  </Table.Td>
                </Table.Tr>
              ) : null}
              {notChargedCents ? (
                <Table.Tr>
                  <Table.Td>Not charged: usage from before usage charging started for you</Table.Td>
                  <Table.Td ta="right" data-testid="usage-not-charged">
                    {formatCents(notChargedCents)}
                  </Table.Td>
                </Table.Tr>
              ) : null}
            </Table.Tbody>
          </Table>
        ) : null}
        <Text size="xs" c="dimmed">
          Your plan's own price is paid by card and is not part of this total.
        </Text>
      </Stack>
    </Card>
  );
}

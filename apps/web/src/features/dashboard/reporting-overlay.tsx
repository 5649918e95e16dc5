import { Group, Paper, SegmentedControl, SimpleGrid, Stack, Table, Text, TextInput } from "@mantine/core";
import { useState } from "react";
import { EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { useCampaignStats, useUsage } from "./api.ts";
import { BarChart } from "./bar-chart.tsx";

const BUCKET_LABELS: Record<string, string> = {
  number: "Phone numbers",
  tokens: "Model tokens",
  voice: "Voice minutes",
  advancedVoice: "Advanced voice minutes",
  "outbound-message": "Messages sent",
  "inbound-message": "Messages received",
};

function UsagePanel() {
  const [period, setPeriod] = useState<"current" | "previous">("current");
  const usage = useUsage({ billingPeriod: period });
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <SegmentedControl
          value={period}
          onChange={(next) => setPeriod(next as "current" | "previous")}
          data={[
            { value: "current", label: "This billing period" },
            { value: "previous", label: "Previous period" },
          ]}
        />
        {usage.data ? (
          <Text size="sm" c="dimmed">
            {usage.data.startDate} – {usage.data.endDate}
          </Text>
        ) : null}
      </Group>
      {usage.isPending ? (
        <LoadingState />
      ) : usage.isError ? (
        <ErrorState error={usage.error} onRetry={() => void usage.refetch()} />
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} aria-label="Usage">
            {Object.entries(BUCKET_LABELS).map(([bucket, label]) => (
              <Paper key={bucket} withBorder p="sm">
                <Text size="xs" c="dimmed">
                  {label}
                </Text>
                <Text fw={700}>
                  {(usage.data.usage[bucket as keyof typeof usage.data.usage] ?? 0).toLocaleString()}
                </Text>
                {usage.data.costs ? (
                  <Text size="xs" c="dimmed">
                    ${(usage.data.costs[bucket as keyof typeof usage.data.costs] ?? 0).toFixed(2)}
                  </Text>
                ) : null}
                <BarChart
                  height={40}
                  label={`${label} per day`}
                  points={(usage.data.timeseries ?? []).map((point) => ({
                    date: point.date,
                    value: Number(point[bucket as keyof typeof point] ?? 0),
                  }))}
                />
              </Paper>
            ))}
          </SimpleGrid>
          {usage.data.totalCost !== undefined ? (
            <Text size="sm">
              Total {usage.data.plan ? `at the ${usage.data.plan} plan's prices` : "at list prices"}:{" "}
              <b>${usage.data.totalCost.toFixed(2)}</b>
            </Text>
          ) : null}
        </>
      )}
    </Stack>
  );
}

function CampaignPanel() {
  const [date, setDate] = useState(() => new Date().toISOString().slice(0, 10));
  const stats = useCampaignStats(date);
  return (
    <Stack gap="sm">
      <TextInput
        type="date"
        label="Day"
        w={200}
        value={date}
        onChange={(e) => setDate(e.currentTarget.value)}
      />
      {stats.isPending ? (
        <LoadingState />
      ) : stats.isError ? (
        <ErrorState error={stats.error} />
      ) : stats.data.campaigns.length === 0 ? (
        <EmptyState>No agents yet.</EmptyState>
      ) : (
        <Table aria-label="Campaign statistics" striped>
          <Table.Thead>
            <Table.Tr>
              {["Agent", "Calls", "Answered", "Minutes", "Transfers", "Booked", "Inbound", "Outbound"].map(
                (h) => (
                  <Table.Th key={h}>{h}</Table.Th>
                ),
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {stats.data.campaigns.map((c) => (
              <Table.Tr key={c.campaignId}>
                <Table.Td>{c.agentName}</Table.Td>
                <Table.Td>{c.calls}</Table.Td>
                <Table.Td>{c.answered}</Table.Td>
                <Table.Td>{c.minutes}</Table.Td>
                <Table.Td>{c.transfers}</Table.Td>
                <Table.Td>{c.appointmentsBooked}</Table.Td>
                <Table.Td>{c.inbound}</Table.Td>
                <Table.Td>{c.outbound}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

/** `?reporting`: usage statistics of the billing period and the campaigns' statistics of a day. */
export function ReportingOverlay() {
  const [tab, setTab] = useState<"usage" | "campaigns">("usage");
  return (
    <Stack gap="md">
      <SegmentedControl
        value={tab}
        onChange={(next) => setTab(next as "usage" | "campaigns")}
        data={[
          { value: "usage", label: "Usage" },
          { value: "campaigns", label: "Campaigns" },
        ]}
      />
      {tab === "usage" ? <UsagePanel /> : <CampaignPanel />}
    </Stack>
  );
}

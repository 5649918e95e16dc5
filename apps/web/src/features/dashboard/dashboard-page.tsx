import {
  Alert,
  Button,
  Card,
  Group,
  Modal,
  NativeSelect,
  ScrollArea,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from "@mantine/core";
import { listLogs } from "@switchboard/api";
import { buildLogRequest, describeLogChannels, formatMetricValue, metricChannels } from "@switchboard/core";
import { useQuery } from "@tanstack/react-query";
import { useDeferredValue, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { useAccountKey, useAccountState } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { utcOffsetMinutes } from "../logs/api.ts";
import { fieldLabel, formatCell } from "../logs/log-format.ts";
import { WalkthroughCard } from "../walkthrough/walkthrough-card.tsx";
import { type MetricResult, useDashboardMetrics } from "./api.ts";
import { BarChart } from "./bar-chart.tsx";
import { DASHBOARD_RANGES } from "./ranges.ts";

/** What a figure counts, in the product's words: "calls", "calls and texts". */
const countedOf = (metric: MetricResult["metric"]) => describeLogChannels(metricChannels(metric));

/** The rows behind a figure: the conversations of its channels and window that pass its filters. */
function MetricData({ result, close }: { result: MetricResult; close: () => void }) {
  const [accountId, viewingAs] = useAccountKey();
  const { metric, window } = result;
  const channels = metricChannels(metric);
  const counted = countedOf(metric);
  const columns = ["timestamp", "direction", "duration", "transfer", "appointmentBooked"];
  const rows = useQuery({
    queryKey: ["metric-data", accountId, viewingAs, metric, window],
    queryFn: ({ signal }) => {
      const request = buildLogRequest({ filters: metric.filters, fields: columns, pageSize: 50 });
      return apiClient.call(listLogs, {
        query: {
          ...request,
          start: String(window.start),
          end: String(window.end),
          utcOffsetMinutes: utcOffsetMinutes(),
          channel: channels.length === 1 ? channels[0] : "all",
        },
        signal,
      });
    },
  });
  return (
    <Modal opened onClose={close} title={`${metric.title}: the ${counted} behind it`} size="xl">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Formula <code>{metric.formula}</code>, {metric.aggregation} over {result.rows.toLocaleString()}{" "}
          {counted}.
        </Text>
        {rows.isPending ? (
          <LoadingState />
        ) : rows.isError ? (
          <ErrorState error={rows.error} />
        ) : rows.data.logs.length === 0 ? (
          <EmptyState>No {counted} in this window.</EmptyState>
        ) : (
          <ScrollArea h={420}>
            <Table striped aria-label="Metric data">
              <Table.Thead>
                <Table.Tr>
                  {columns.map((column) => (
                    <Table.Th key={column}>{fieldLabel(column)}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.data.logs.map((row) => (
                  <Table.Tr key={String(row.uuid)}>
                    {columns.map((column) => (
                      <Table.Td key={column}>{formatCell(column, row[column])}</Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {rows.data.pagination.hasMore ? (
              <Text size="xs" c="dimmed" mt="xs">
                The newest 50 of {rows.data.totalCount.toLocaleString()} {counted}.
              </Text>
            ) : null}
          </ScrollArea>
        )}
      </Stack>
    </Modal>
  );
}

function MetricCard({ result, onOpen }: { result: MetricResult; onOpen: () => void }) {
  const { metric } = result;
  const counted = countedOf(metric);
  return (
    <Card withBorder padding="md" aria-label={metric.title} aria-description={`Counts ${counted}`}>
      <Stack gap={6}>
        <Text size="sm" c="dimmed" fw={500} title={`${metric.title} counts ${counted}`}>
          {metric.title}
        </Text>
        <Text size="xs" c="dimmed" data-testid="metric-channels">
          Counts {counted}
        </Text>
        {result.error ? (
          <Text size="sm" c="red" role="alert">
            {result.error}
          </Text>
        ) : (
          <Text fz={28} fw={700} lh={1.1} data-testid="metric-value">
            {result.text}
          </Text>
        )}
        <BarChart
          points={result.series}
          label={`${metric.title} per day`}
          format={(value) => formatMetricValue(value, metric.format, metric.precision)}
        />
        <Button size="compact-xs" variant="subtle" w="fit-content" onClick={onOpen}>
          View {counted}
        </Button>
      </Stack>
    </Card>
  );
}

function Metrics() {
  const location = useLocation();
  const navigate = useNavigate();
  const overlays = useOverlays();
  const params = new URLSearchParams(location.search);
  const dateFilter = params.get("dateFilter") ?? undefined;
  // The cards render in a transition React can interrupt, not in one long task when the figures land.
  const metrics = useDeferredValue(useDashboardMetrics(dateFilter));
  const [open, setOpen] = useState<MetricResult | null>(null);
  const setDateFilter = (value: string | null) => {
    const next = new URLSearchParams(location.search);
    if (!value || value === "30 day") next.delete("dateFilter");
    else next.set("dateFilter", value);
    const text = next.toString();
    navigate({ pathname: location.pathname, search: text ? `?${text}` : "" }, { replace: true });
  };
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="end">
        <Title order={2}>Your figures</Title>
        <Group gap="xs" align="end">
          <NativeSelect
            label="Date range"
            w={170}
            data={DASHBOARD_RANGES}
            value={dateFilter ?? "30 day"}
            onChange={(event) => setDateFilter(event.currentTarget.value)}
          />
          <Button variant="default" onClick={() => overlays.open("reporting")}>
            Usage and reports
          </Button>
          <Button onClick={() => overlays.open("editDashboard")}>Edit dashboard</Button>
        </Group>
      </Group>
      {metrics.isPending ? (
        <LoadingState label="Computing your figures…" />
      ) : metrics.isError ? (
        <ErrorState error={metrics.error} onRetry={() => void metrics.refetch()} />
      ) : (
        <>
          {metrics.data.metrics.length === 0 ? (
            <Alert variant="light">No metrics on this dashboard.</Alert>
          ) : null}
          <SimpleGrid cols={{ base: 1, xs: 2, xl: 4 }} spacing="md" aria-label="Metrics">
            {metrics.data.metrics.map((result) => (
              <MetricCard key={result.metric.name} result={result} onOpen={() => setOpen(result)} />
            ))}
          </SimpleGrid>
        </>
      )}
      {open ? <MetricData result={open} close={() => setOpen(null)} /> : null}
    </Stack>
  );
}

export function DashboardPage() {
  const { view } = useAccountState();
  const type = view.account.accountType;
  const showWalkthrough = type === "organization" || type === "agent";
  return (
    <Stack gap="md">
      <Title order={1}>Dashboard</Title>
      {showWalkthrough ? <WalkthroughCard /> : null}
      <Metrics />
    </Stack>
  );
}

import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Modal,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
} from "@mantine/core";
import {
  APPOINTMENT_BOOKED_FIELD,
  createMetric,
  FORMULA_AGGREGATES,
  type Metric,
  validateFormula,
} from "@switchboard/core";
import IconArrowDown from "@tabler/icons-react/dist/esm/icons/IconArrowDown.mjs";
import IconArrowUp from "@tabler/icons-react/dist/esm/icons/IconArrowUp.mjs";
import IconPencil from "@tabler/icons-react/dist/esm/icons/IconPencil.mjs";
import IconTrash from "@tabler/icons-react/dist/esm/icons/IconTrash.mjs";
import { useEffect, useMemo, useState } from "react";
import { useLocation } from "react-router";
import { useAccountKey, usePermission } from "../../app/account-state.ts";
import { ActionError, EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { toast } from "../../lib/toast.ts";
import type { OverlayComponentProps } from "../../overlays/registry.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { useLogFields } from "../logs/api.ts";
import { draftsOf, type FilterDraft, FilterRows, filtersOf } from "../logs/logs-overlays.tsx";
import {
  type MetricInput,
  useCampaignStats,
  useDashboardMetrics,
  useMetricPreview,
  useSaveMetrics,
  useUsage,
} from "./api.ts";
import { BarChart } from "./bar-chart.tsx";
import {
  discardDraft,
  discardUnlessEditing,
  placeMetric,
  setDraft,
  useDashboardDraft,
} from "./dashboard-draft.ts";
import { DASHBOARD_RANGES } from "./ranges.ts";

const useDashboardDateFilter = () => new URLSearchParams(useLocation().search).get("dateFilter") ?? undefined;

/** The metrics as saved (results carry each metric). */
function useSavedMetrics() {
  const metrics = useDashboardMetrics(useDashboardDateFilter());
  return { query: metrics, list: metrics.data?.metrics.map((result) => result.metric as MetricInput) ?? [] };
}

/**
 * The dashboard as being edited: the draft when there is one, else the saved metrics. The draft is discarded
 * when the editing overlays close (not when one switches to the other).
 */
function useEditedMetrics() {
  const saved = useSavedMetrics();
  const [accountId, viewingAs] = useAccountKey();
  const account = `${accountId}:${viewingAs}`;
  const draft = useDashboardDraft(account);
  useEffect(
    () => () => {
      setTimeout(() => discardUnlessEditing(window.location.search), 0);
    },
    [],
  );
  return {
    ...saved,
    draft,
    current: draft ?? saved.list,
    change: (metrics: MetricInput[]) => setDraft(account, metrics),
  };
}

/** `?editDashboard`: add, remove and order the dashboard's metrics. */
export function EditDashboardOverlay({ close }: OverlayComponentProps) {
  const overlays = useOverlays();
  const { query, draft, current, change } = useEditedMetrics();
  const save = useSaveMetrics();
  const canEdit = usePermission("canEditOrg");
  if (query.isPending) return <LoadingState />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  const move = (index: number, by: number) => {
    const next = [...current];
    const [item] = next.splice(index, 1);
    if (item) next.splice(index + by, 0, item);
    change(next);
  };
  const cancel = () => {
    discardDraft();
    close();
  };
  return (
    <Stack gap="md">
      {query.data.source !== "account" ? (
        <Text size="sm" c="dimmed">
          {query.data.source === "default"
            ? "This dashboard shows the default metrics. Your changes make it your own."
            : "This dashboard shows the metrics your provider set for organisations. Your changes make it your own."}
        </Text>
      ) : null}
      {current.length === 0 ? (
        <EmptyState>No metrics: saving goes back to the default metrics.</EmptyState>
      ) : null}
      {draft !== null ? (
        <Text size="sm" c="dimmed" role="status">
          Unsaved changes: "Save dashboard" puts them on the dashboard, Cancel discards them.
        </Text>
      ) : null}
      <Stack gap={4} aria-label="Dashboard metrics">
        {current.map((metric, index) => (
          <Group key={metric.name} justify="space-between" wrap="nowrap">
            <Stack gap={0}>
              <Text size="sm" fw={500}>
                {metric.title}
              </Text>
              <Text size="xs" c="dimmed">
                {metric.aggregation} of {metric.formula}
              </Text>
            </Stack>
            <Group gap={2} wrap="nowrap">
              <ActionIcon
                variant="subtle"
                aria-label={`Move ${metric.title} up`}
                disabled={index === 0}
                onClick={() => move(index, -1)}
              >
                <IconArrowUp size={14} />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                aria-label={`Move ${metric.title} down`}
                disabled={index === current.length - 1}
                onClick={() => move(index, 1)}
              >
                <IconArrowDown size={14} />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                aria-label={`Edit ${metric.title}`}
                onClick={() => overlays.switch("editDashboard", "editMetric", metric.name)}
              >
                <IconPencil size={14} />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Remove ${metric.title}`}
                onClick={() => change(current.filter((other) => other.name !== metric.name))}
              >
                <IconTrash size={14} />
              </ActionIcon>
            </Group>
          </Group>
        ))}
      </Stack>
      <ActionError error={save.error} />
      <Group justify="space-between">
        <Button
          variant="light"
          disabled={!canEdit}
          onClick={() => overlays.switch("editDashboard", "editMetric", "new")}
        >
          Add metric
        </Button>
        <Group gap="xs">
          <Button variant="default" onClick={cancel}>
            Cancel
          </Button>
          <Button
            disabled={draft === null || !canEdit}
            loading={save.isPending}
            onClick={() =>
              save.mutate(current, {
                onSuccess: () => {
                  discardDraft();
                  toast.success("Dashboard saved");
                  close();
                },
              })
            }
          >
            Save dashboard
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}

const FUNCTIONS = ["if", "abs", ...Object.keys(FORMULA_AGGREGATES)];

/** A metric name from its title: `Long calls` -> `longCalls`, unique among `taken`. */
export function metricNameOf(title: string, taken: readonly string[]): string {
  const words = title
    .replace(/[^A-Za-z0-9]+/g, " ")
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  const base =
    words
      .map((word, i) =>
        i === 0 ? word.toLowerCase() : word.charAt(0).toUpperCase() + word.slice(1).toLowerCase(),
      )
      .join("") || "metric";
  let name = base.slice(0, 60);
  for (let n = 2; taken.includes(name); n++) name = `${base.slice(0, 56)}${n}`;
  return name;
}

function SelectMetricField({
  fields,
  onPick,
  close,
}: {
  fields: ReadonlyArray<{ name: string; label: string; type: string }>;
  onPick: (name: string) => void;
  close: () => void;
}) {
  const [search, setSearch] = useState("");
  const shown = fields.filter((field) =>
    `${field.name} ${field.label}`.toLowerCase().includes(search.toLowerCase()),
  );
  return (
    <Modal opened onClose={close} title="Select a field" transitionProps={{ duration: 150 }}>
      <Stack gap="xs">
        <TextInput
          placeholder="Search fields"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          data-autofocus
        />
        {shown.map((field) => (
          <Button
            key={field.name}
            variant="subtle"
            justify="space-between"
            onClick={() => onPick(field.name)}
            rightSection={
              <Text size="xs" c="dimmed">
                {field.type}
              </Text>
            }
          >
            {field.label}
          </Button>
        ))}
      </Stack>
    </Modal>
  );
}

/** `?editMetric=<name>` (or `new`): name, title, filters, formula, aggregation, scale, format, precision, date filter. */
export function EditMetricOverlay({ value }: OverlayComponentProps) {
  const overlays = useOverlays();
  const { query, current: list, change } = useEditedMetrics();
  const fields = useLogFields();
  const [clash, setClash] = useState<string | null>(null);
  const dashboardDateFilter = useDashboardDateFilter();
  const existing = list.find((metric) => metric.name === value);
  const [metric, setMetric] = useState<Metric | null>(null);
  const [drafts, setDrafts] = useState<FilterDraft[]>([]);
  const [picking, setPicking] = useState(false);
  const [debounced, setDebounced] = useState<MetricInput | null>(null);

  useEffect(() => {
    if (metric !== null || query.isPending) return;
    const start = existing
      ? ({ ...createMetric({ name: existing.name, title: existing.title }), ...existing } as Metric)
      : createMetric({ name: "", title: "" });
    setMetric(start);
    setDrafts(draftsOf(start.filters));
  }, [existing, metric, query.isPending]);

  const fieldList = fields.data?.fields ?? [];
  const knownNames = useMemo(
    () => [...fieldList.map((field) => field.name), APPOINTMENT_BOOKED_FIELD],
    [fieldList],
  );
  const validation = metric ? validateFormula(metric.formula, knownNames) : { valid: false, errors: [] };
  const types = Object.fromEntries(fieldList.map((field) => [field.name, field.type]));
  const candidate: MetricInput | null =
    metric && validation.valid && metric.title.trim() !== ""
      ? {
          ...metric,
          name:
            metric.name ||
            metricNameOf(
              metric.title,
              list.map((m) => m.name),
            ),
          filters: filtersOf(drafts, types),
        }
      : null;
  const candidateKey = JSON.stringify(candidate);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the candidate's contents.
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(candidate), 500);
    return () => clearTimeout(timer);
  }, [candidateKey]);
  const preview = useMetricPreview(debounced, metric?.dateFilter ?? dashboardDateFilter);

  if (query.isPending || fields.isPending || metric === null) return <LoadingState />;
  if (query.isError) return <ErrorState error={query.error} />;
  if (value !== "new" && !existing) return <Alert color="red">This metric is not on the dashboard.</Alert>;
  const update = (patch: Partial<Metric>) => {
    setClash(null);
    setMetric({ ...metric, ...patch });
  };
  const insert = (text: string) =>
    update({
      formula:
        metric.formula.trim() === "1" && !existing
          ? text
          : `${metric.formula}${metric.formula.endsWith(" ") || metric.formula === "" ? "" : " "}${text}`,
    });

  // The metric goes into the dashboard's draft; "Save dashboard" saves them all.
  const onSave = () => {
    if (!candidate) return;
    const { field: _field, ...saved } = candidate as MetricInput & { field?: string };
    const placed = placeMetric(list, saved, existing?.name ?? null);
    if ("error" in placed) {
      setClash(placed.error);
      return;
    }
    change(placed.metrics);
    overlays.switch("editMetric", "editDashboard");
  };
  const back = () => overlays.switch("editMetric", "editDashboard");

  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Title"
          required
          value={metric.title}
          onChange={(e) => update({ title: e.currentTarget.value })}
        />
        <TextInput
          label="Name"
          description={existing ? "The metric's key" : "Left empty, it is made from the title"}
          value={metric.name}
          disabled={Boolean(existing)}
          onChange={(e) => update({ name: e.currentTarget.value })}
        />
      </SimpleGrid>
      <Stack gap={4}>
        <TextInput
          label="Formula"
          description="Evaluated on every call: fields, numbers, 'text', + - * / %, comparisons, and, or, not, functions."
          value={metric.formula}
          onChange={(e) => update({ formula: e.currentTarget.value })}
          error={validation.errors.length > 0 ? validation.errors.join(" ") : undefined}
          styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
        />
        <Group gap={4}>
          <Button size="compact-xs" variant="light" onClick={() => setPicking(true)}>
            Insert field
          </Button>
          {FUNCTIONS.map((name) => (
            <Button key={name} size="compact-xs" variant="subtle" onClick={() => insert(`${name}(`)}>
              {name}
            </Button>
          ))}
        </Group>
      </Stack>
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <Select
          label="Aggregation"
          data={[
            { value: "sum", label: "Sum" },
            { value: "count", label: "Count" },
            { value: "avg", label: "Average" },
          ]}
          value={metric.aggregation}
          allowDeselect={false}
          onChange={(next) => update({ aggregation: (next ?? "sum") as Metric["aggregation"] })}
        />
        <NumberInput
          label="Scale"
          value={metric.scale}
          decimalScale={8}
          onChange={(next) => update({ scale: typeof next === "number" ? next : Number(next) || 1 })}
        />
        <Select
          label="Format"
          data={[
            { value: "integer", label: "Number" },
            { value: "percentage", label: "Percentage" },
          ]}
          value={metric.format}
          allowDeselect={false}
          onChange={(next) => update({ format: (next ?? "integer") as Metric["format"] })}
        />
        <NumberInput
          label="Precision"
          min={0}
          max={10}
          value={metric.precision}
          onChange={(next) => update({ precision: Math.max(0, Math.min(10, Number(next) || 0)) })}
        />
      </SimpleGrid>
      <Select
        label="Date range"
        description="Empty: the dashboard's"
        clearable
        data={DASHBOARD_RANGES}
        value={metric.dateFilter ?? null}
        onChange={(next) => {
          const { dateFilter: _old, ...rest } = metric;
          setMetric(next ? { ...rest, dateFilter: next } : rest);
        }}
      />
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          Only calls where
        </Text>
        <FilterRows fields={fieldList} drafts={drafts} onChange={setDrafts} />
      </Stack>
      <Paper withBorder p="sm" aria-label="Preview">
        {candidate === null ? (
          <Text size="sm" c="dimmed">
            {metric.title.trim() === ""
              ? "Enter a title to see the figure."
              : "Fix the formula to see the figure."}
          </Text>
        ) : preview.isFetching || preview.isPending ? (
          <Text size="sm" c="dimmed">
            Computing…
          </Text>
        ) : preview.isError ? (
          <Text size="sm" c="red">
            {String((preview.error as Error).message)}
          </Text>
        ) : preview.data.result.error ? (
          <Text size="sm" c="red">
            {preview.data.result.error}
          </Text>
        ) : (
          <Stack gap={4}>
            <Text size="sm">
              Preview: <b>{preview.data.result.text}</b> over {preview.data.result.rows.toLocaleString()}{" "}
              calls
            </Text>
            <BarChart points={preview.data.result.series} label="Preview per day" />
          </Stack>
        )}
      </Paper>
      {clash ? (
        <Alert color="red" variant="light" role="alert">
          {clash}
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={back}>
          Cancel
        </Button>
        <Button disabled={candidate === null} onClick={onSave}>
          Save metric
        </Button>
      </Group>
      {picking ? (
        <SelectMetricField
          fields={[
            ...fieldList,
            ...(fieldList.some((f) => f.name === APPOINTMENT_BOOKED_FIELD)
              ? []
              : [{ name: APPOINTMENT_BOOKED_FIELD, label: "Appointment Booked", type: "string" }]),
          ]}
          close={() => setPicking(false)}
          onPick={(name) => {
            setPicking(false);
            setMetric({
              ...metric,
              field: name,
              formula: metric.formula.trim() === "1" && !existing ? name : `${metric.formula} ${name}`,
            });
          }}
        />
      ) : null}
    </Stack>
  );
}

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
              Total at list prices: <b>${usage.data.totalCost.toFixed(2)}</b>
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

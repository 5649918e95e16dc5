import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from "@mantine/core";
import {
  APPOINTMENT_BOOKED_FIELD,
  createMetric,
  describeLogChannels,
  FORMULA_AGGREGATES,
  LOG_CHANNEL_TITLES,
  LOG_CHANNELS,
  type Metric,
  metricChannels,
  validateFormula,
} from "@switchboard/core";
import { useEffect, useMemo, useState } from "react";
import { ErrorState, LoadingState } from "../../components/query-state.tsx";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { useLogFields } from "../logs/api.ts";
import { draftsOf, type FilterDraft, FilterRows, filtersOf } from "../logs/logs-overlays.tsx";
import { type MetricInput, useMetricPreview } from "./api.ts";
import { BarChart } from "./bar-chart.tsx";
import { placeMetric } from "./dashboard-draft.ts";
import { useDashboardDateFilter, useEditedMetrics } from "./edited-metrics.ts";
import { metricNameOf } from "./metric-name.ts";
import { DASHBOARD_RANGES } from "./ranges.ts";

const FUNCTIONS = ["if", "abs", ...Object.keys(FORMULA_AGGREGATES)];

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
      {/* Which conversations it counts: the dashboard says so under the figure. At least one. */}
      <Checkbox.Group
        label="Counts"
        value={metricChannels(metric)}
        onChange={(next) => {
          const channels = LOG_CHANNELS.filter((channel) => next.includes(channel));
          if (channels.length > 0) update({ channels });
        }}
      >
        <Group gap="md" mt={4}>
          {LOG_CHANNELS.map((channel) => (
            <Checkbox key={channel} value={channel} label={LOG_CHANNEL_TITLES[channel]} />
          ))}
        </Group>
      </Checkbox.Group>
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          Only {describeLogChannels(metricChannels(metric))} where
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

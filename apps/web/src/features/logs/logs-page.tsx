import {
  Alert,
  Button,
  Code,
  Group,
  Menu,
  Modal,
  Progress,
  ScrollArea,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { describeFilters, LOG_FIXED_FIELDS, type LogScreenState, PAGE_SIZES } from "@switchboard/core";
import IconColumns from "@tabler/icons-react/dist/esm/icons/IconColumns.mjs";
import IconDownload from "@tabler/icons-react/dist/esm/icons/IconDownload.mjs";
import IconFilter from "@tabler/icons-react/dist/esm/icons/IconFilter.mjs";
import { useMemo, useState } from "react";
import { usePermission } from "../../app/account-state.ts";
import { EmptyState, LoadingState } from "../../components/query-state.tsx";
import { errorMessage } from "../../lib/shell-api.ts";
import { toast } from "../../lib/toast.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import {
  type ExportProgress,
  exportLogs,
  useAgentTimeZones,
  useLogFields,
  useLogs,
  useTranscript,
} from "./api.ts";
import { type CellContext, fieldLabel, formatCell, formatDuration } from "./log-format.ts";
import { defaultColumns, useLogScreenState } from "./log-screen-query.ts";

type Row = Record<string, unknown>;

/** The relative ranges offered; a custom range is `start,end` (YYYY-MM-DD). */
export const DATE_RANGES = [
  { value: "7 day", label: "Last 7 days" },
  { value: "30 day", label: "Last 30 days" },
  { value: "90 day", label: "Last 90 days" },
  { value: "1 year", label: "Last 12 months" },
  { value: "custom", label: "Custom range…" },
] as const;

function DateRangePicker({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}) {
  const isCustom = value?.includes(",") ?? false;
  const [start, end] = isCustom ? (value as string).split(",") : ["", ""];
  const [custom, setCustom] = useState(isCustom);
  const [from, setFrom] = useState(start ?? "");
  const [to, setTo] = useState(end ?? "");
  return (
    <Group gap="xs" align="end">
      <Select
        label="Date range"
        w={180}
        data={DATE_RANGES.map((range) => ({ value: range.value, label: range.label }))}
        value={custom ? "custom" : (value ?? "30 day")}
        allowDeselect={false}
        onChange={(next) => {
          if (next === "custom") setCustom(true);
          else {
            setCustom(false);
            onChange(next === "30 day" ? undefined : (next ?? undefined));
          }
        }}
      />
      {custom ? (
        <>
          <TextInput type="date" label="From" value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
          <TextInput type="date" label="To" value={to} onChange={(e) => setTo(e.currentTarget.value)} />
          <Button
            variant="default"
            disabled={!from || !to || from > to}
            onClick={() => onChange(`${from},${to}`)}
          >
            Apply range
          </Button>
        </>
      ) : null}
    </Group>
  );
}

function ExportButtons({ state, total }: { state: LogScreenState; total: number }) {
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const [running, setRunning] = useState<"csv" | "json" | null>(null);
  const run = async (format: "csv" | "json") => {
    setRunning(format);
    try {
      const name = await exportLogs(state, format, total, setProgress);
      toast.success(`Saved ${name}`);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setRunning(null);
    }
  };
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <Button
          variant="default"
          leftSection={<IconDownload size={16} />}
          loading={running === "csv"}
          disabled={running !== null}
          onClick={() => void run("csv")}
        >
          Export CSV
        </Button>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} />}
          loading={running === "json"}
          disabled={running !== null}
          onClick={() => void run("json")}
        >
          Export JSON
        </Button>
      </Group>
      {progress && (running !== null || progress.done) ? (
        <Stack gap={2} w={240} aria-label="Export progress">
          <Progress
            value={progress.expected > 0 ? Math.min(100, (progress.rows / progress.expected) * 100) : 100}
            animated={!progress.done}
            size="sm"
          />
          <Text size="xs" c="dimmed">
            {progress.done
              ? `Exported ${progress.rows.toLocaleString()} rows`
              : `Exporting… ${progress.rows.toLocaleString()} of ${progress.expected.toLocaleString()} rows`}
          </Text>
        </Stack>
      ) : null}
    </Stack>
  );
}

type Dialog = { kind: "details" | "stats" | "data" | "json"; row: Row } | null;

function CallStats({ row }: { row: Row }) {
  const transcript = useTranscript(String(row.roomId ?? ""), String(row.uuid ?? ""));
  if (!row.roomId) return <Text>No conversation is stored for this call.</Text>;
  if (transcript.isPending) return <LoadingState label="Loading the call…" />;
  if (transcript.isError) return <Alert color="red">{errorMessage(transcript.error)}</Alert>;
  const messages = transcript.data.conversation;
  const turns = messages.filter((message) => message.role === "assistant");
  const firstTokens = turns
    .map((turn) => turn.firstTokenMs)
    .filter((ms): ms is number => ms !== null && ms > 0);
  const stats: Array<[string, string]> = [
    ["Duration", formatDuration(Number(row.duration ?? 0))],
    ["Messages", String(messages.length)],
    ["Caller messages", String(messages.filter((message) => message.role === "user").length)],
    ["Agent turns", String(turns.length)],
    ["Failed turns", String(turns.filter((turn) => turn.status === "failed").length)],
    ["Tool calls", String(turns.reduce((sum, turn) => sum + turn.toolCalls.length, 0))],
    [
      "Average first answer",
      firstTokens.length > 0
        ? `${Math.round(firstTokens.reduce((a, b) => a + b, 0) / firstTokens.length)} ms`
        : "—",
    ],
    ["Model", transcript.data.info.model ?? "—"],
  ];
  return <KeyValues entries={stats} />;
}

function KeyValues({ entries }: { entries: Array<[string, string]> }) {
  return (
    <Table withRowBorders={false} verticalSpacing={4}>
      <Table.Tbody>
        {entries.map(([key, value]) => (
          <Table.Tr key={key}>
            <Table.Th w="40%" fw={500}>
              {key}
            </Table.Th>
            <Table.Td style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function RowDialog({
  dialog,
  close,
  cellContext,
}: {
  dialog: Dialog;
  close: () => void;
  cellContext: (field: string, row: Row) => CellContext;
}) {
  if (!dialog) return null;
  const { row } = dialog;
  const fixed = LOG_FIXED_FIELDS as readonly string[];
  const title =
    dialog.kind === "details"
      ? "Call details"
      : dialog.kind === "stats"
        ? "Call stats"
        : dialog.kind === "data"
          ? "Collected data"
          : "JSON";
  return (
    <Modal opened onClose={close} title={title} size="lg" transitionProps={{ duration: 150 }}>
      {dialog.kind === "details" ? (
        <KeyValues
          entries={fixed
            .filter((field) => field in row)
            .map((field) => [fieldLabel(field), formatCell(field, row[field], cellContext(field, row))])}
        />
      ) : dialog.kind === "stats" ? (
        <CallStats row={row} />
      ) : dialog.kind === "data" ? (
        Object.keys(row).some((key) => !fixed.includes(key)) ? (
          <KeyValues
            entries={Object.keys(row)
              .filter((key) => !fixed.includes(key))
              .map((key) => [fieldLabel(key), formatCell(key, row[key], cellContext(key, row))])}
          />
        ) : (
          <Text c="dimmed">The agent collected no data on this call.</Text>
        )
      ) : (
        <Code block>{JSON.stringify(row, null, 2)}</Code>
      )}
    </Modal>
  );
}

/** The conversation logs screen (spec §2.2): the account's calls with chosen columns, filters and export. */
export function LogsPage() {
  const { state, set } = useLogScreenState();
  const overlays = useOverlays();
  const canInspectJSON = usePermission("canInspectJSON");
  const fields = useLogFields();
  const [dialog, setDialog] = useState<Dialog>(null);
  const available = useMemo(() => fields.data?.fields.map((field) => field.name) ?? [], [fields.data]);
  const labels = useMemo(
    () => Object.fromEntries((fields.data?.fields ?? []).map((field) => [field.name, field.label])),
    [fields.data],
  );
  const columns = useMemo(
    () => (state.fields.length > 0 ? state.fields : defaultColumns(available)),
    [state.fields, available],
  );
  // The rows carry the columns shown (the chosen ones, else the defaults), and so does an export.
  const view = useMemo(() => ({ ...state, fields: columns }), [state, columns]);
  // The rows also carry their agent, whose time zone their dates and times are shown in.
  const shown = useMemo(
    () => (columns.includes("agentId") ? view : { ...view, fields: [...columns, "agentId"] }),
    [view, columns],
  );
  const logs = useLogs(shown);
  const summary = describeFilters(state.filters, { labels });
  const page = state.page ?? 1;
  const pageSize = state.pageSize ?? PAGE_SIZES.logs;
  // A failed fetch empties the list and clears hasMore (spec §8).
  const rows: Row[] = logs.isError ? [] : (logs.data?.logs ?? []);
  const hasMore = logs.isError ? false : (logs.data?.pagination.hasMore ?? false);
  const total = logs.isError ? 0 : (logs.data?.totalCount ?? 0);
  const types = useMemo(
    () => Object.fromEntries((fields.data?.fields ?? []).map((field) => [field.name, field.type])),
    [fields.data],
  );
  const agentIds = useMemo(
    () =>
      [...new Set(rows.map((row) => row.agentId))].filter(
        (id): id is number => typeof id === "number" && id > 0,
      ),
    [rows],
  );
  const zones = useAgentTimeZones(agentIds);
  // Dates and times of a row in its agent's time zone (issue #23 item 6).
  const cellContext = (field: string, row: Row): CellContext => ({
    type: types[field],
    timeZone: typeof row.agentId === "number" ? zones[row.agentId] : undefined,
  });

  return (
    <Stack gap="md">
      <Group justify="space-between" align="end">
        <Title order={1}>Calls</Title>
        <ExportButtons state={view} total={total} />
      </Group>
      <Group gap="sm" align="end" wrap="wrap">
        <DateRangePicker value={state.dateFilter} onChange={(dateFilter) => set({ ...state, dateFilter })} />
        <Button
          variant="default"
          leftSection={<IconFilter size={16} />}
          onClick={() => overlays.open("logFilterBuilder")}
        >
          Filters{Object.keys(state.filters).length > 0 ? ` (${Object.keys(state.filters).length})` : ""}
        </Button>
        <Button
          variant="default"
          leftSection={<IconColumns size={16} />}
          onClick={() => overlays.open("editConvoColumns")}
        >
          Columns
        </Button>
      </Group>
      {summary ? (
        <Group gap="xs">
          <Text size="sm" aria-label="Filter summary">
            {summary}
          </Text>
          <Button size="compact-xs" variant="subtle" onClick={() => set({ ...state, filters: {} })}>
            Clear filters
          </Button>
        </Group>
      ) : null}
      {logs.isError ? (
        <Alert color="red" variant="light" role="alert" title="Failed to fetch logs">
          <Stack gap="xs">
            <Text size="sm">{String((logs.error as { body?: unknown }).body ?? "")}</Text>
            <Button size="xs" variant="white" color="red" w="fit-content" onClick={() => void logs.refetch()}>
              Try again
            </Button>
          </Stack>
        </Alert>
      ) : null}
      {logs.isPending ? (
        <LoadingState label="Loading calls…" />
      ) : rows.length === 0 && !logs.isError ? (
        <EmptyState>No calls in this date range{summary ? " match these filters" : ""}.</EmptyState>
      ) : rows.length > 0 ? (
        <ScrollArea>
          <Table striped highlightOnHover aria-label="Calls" miw={720}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((column) => (
                  <Table.Th key={column}>{fieldLabel(column, labels)}</Table.Th>
                ))}
                <Table.Th aria-label="Actions" />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={String(row.uuid)}>
                  {columns.map((column) => (
                    <Table.Td key={column}>
                      {formatCell(column, row[column], cellContext(column, row))}
                    </Table.Td>
                  ))}
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Button
                        size="compact-xs"
                        variant="light"
                        disabled={!row.roomId}
                        onClick={() =>
                          overlays.open("callTranscript", `${String(row.roomId)}/${String(row.uuid)}`)
                        }
                      >
                        Transcript
                      </Button>
                      <Menu position="bottom-end" withinPortal>
                        <Menu.Target>
                          <Button size="compact-xs" variant="subtle" aria-label="More about this call">
                            More
                          </Button>
                        </Menu.Target>
                        <Menu.Dropdown>
                          <Menu.Item onClick={() => setDialog({ kind: "details", row })}>
                            Call details
                          </Menu.Item>
                          <Menu.Item onClick={() => setDialog({ kind: "stats", row })}>Call stats</Menu.Item>
                          <Menu.Item onClick={() => setDialog({ kind: "data", row })}>
                            Collected data
                          </Menu.Item>
                          {canInspectJSON ? (
                            <Menu.Item onClick={() => setDialog({ kind: "json", row })}>View JSON</Menu.Item>
                          ) : null}
                        </Menu.Dropdown>
                      </Menu>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      ) : null}
      <Group justify="space-between">
        <Text size="sm" c="dimmed" aria-label="Call count">
          {total.toLocaleString()} {total === 1 ? "call" : "calls"}
        </Text>
        <Group gap="xs">
          <Select
            aria-label="Rows per page"
            w={110}
            data={["25", "50", "100", "250"]}
            value={String(pageSize)}
            allowDeselect={false}
            onChange={(value) => set({ ...state, pageSize: Number(value) })}
          />
          <Button
            variant="default"
            disabled={page <= 1}
            onClick={() => set({ ...state, page: page - 1 }, { keepPage: true })}
          >
            Previous
          </Button>
          <Text size="sm">Page {page}</Text>
          <Button
            variant="default"
            disabled={!hasMore}
            onClick={() => set({ ...state, page: page + 1 }, { keepPage: true })}
          >
            Next
          </Button>
        </Group>
      </Group>
      <RowDialog dialog={dialog} close={() => setDialog(null)} cellContext={cellContext} />
    </Stack>
  );
}

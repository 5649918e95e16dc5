import {
  Alert,
  Button,
  Group,
  NativeSelect,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from "@mantine/core";
import {
  describeFilters,
  isLogChannel,
  LOG_CHANNEL_LABELS,
  LOG_CHANNEL_TITLES,
  LOG_CHANNELS,
  type LogChannel,
  PAGE_SIZES,
} from "@switchboard/core";
import IconColumns from "@tabler/icons-react/dist/esm/icons/IconColumns.mjs";
import IconFilter from "@tabler/icons-react/dist/esm/icons/IconFilter.mjs";
import { useCallback, useDeferredValue, useMemo, useState } from "react";
import { EmptyState, LoadingState } from "../../components/query-state.tsx";
import { usePermission } from "../../lib/account-state.ts";
import { useRowsInBatches } from "../../lib/rows-in-batches.ts";
import { useTimeFormat } from "../../lib/use-time-format.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { LiveCallsButton } from "../voice/live-calls-button.tsx";
import { useLogFields, useLogs } from "./api.ts";
import { CallRow } from "./call-row.tsx";
import { DateRangePicker } from "./date-range-picker.tsx";
import { ExportButtons } from "./export-buttons.tsx";
import { type CellContext, fieldLabel } from "./log-format.ts";
import { defaultColumns, useLogScreenState } from "./log-screen-query.ts";
import { LogSearch } from "./log-search.tsx";
import { type Dialog, type Row, RowDialog } from "./row-dialog.tsx";

/** What one row of each channel is called (many: LOG_CHANNEL_LABELS). */
const ONE_ROW: Record<LogChannel, string> = { voice: "call", sms: "text", web: "web chat" };
const CHANNEL_CHOICES = LOG_CHANNELS.map((channel) => ({
  value: channel,
  label: LOG_CHANNEL_TITLES[channel],
}));

// About what a screen holds; more follow as the end of the table nears it.
const FIRST_ROWS = 12;
const NO_ROWS: Row[] = [];

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
  // The rows also carry their agent, whose time zone their dates and times are shown in, and their
  // recording (played in the call details).
  const shown = useMemo(() => {
    const extra = ["agentId", "recordingUrl"].filter((field) => !columns.includes(field));
    return extra.length === 0 ? view : { ...view, fields: [...columns, ...extra] };
  }, [view, columns]);
  // Default columns depend on the account's fields: ask for the rows once those are known, not twice
  // (issue #23 item 10).
  const logs = useLogs(shown, { enabled: state.fields.length > 0 || !fields.isPending });
  const summary = describeFilters(state.filters, { labels });
  // Calls by default; texts and web chats are conversations of their own channel (issue 32 item 2).
  const channel = state.channel ?? "voice";
  const one = ONE_ROW[channel];
  const many = LOG_CHANNEL_LABELS[channel];
  const page = state.page ?? 1;
  const pageSize = state.pageSize ?? PAGE_SIZES.logs;
  // A failed fetch empties the list and clears hasMore (spec §8).
  // The table (up to a page of rows, each with its buttons and menu) renders from a deferred copy of the
  // answer: React renders it in slices between other work instead of one long task that blocks input
  // (issue #23: total blocking time). Until that copy has the first answer the loading state stays.
  const data = useDeferredValue(logs.data);
  const pending = logs.isPending || (logs.data !== undefined && data === undefined);
  const rows: Row[] = logs.isError ? NO_ROWS : (data?.logs ?? NO_ROWS);
  // What a screen shows first, the rest as the user scrolls to it (up to 250 rows a page).
  const { rows: shownRows, endRef } = useRowsInBatches(rows, FIRST_ROWS);
  const hasMore = logs.isError ? false : (data?.pagination.hasMore ?? false);
  const total = logs.isError ? 0 : (data?.totalCount ?? 0);
  const types = useMemo(
    () => Object.fromEntries((fields.data?.fields ?? []).map((field) => [field.name, field.type])),
    [fields.data],
  );
  // Dates and times in the account's time zone, as everywhere in the app (issue 32 item 10).
  const { accountZone } = useTimeFormat();
  const cellContext = useCallback(
    (field: string, _row: Row): CellContext => ({ type: types[field], timeZone: accountZone }),
    [types, accountZone],
  );
  const openTranscript = useCallback(
    (row: Row) => overlays.open("callTranscript", `${String(row.roomId)}/${String(row.uuid)}`),
    [overlays],
  );
  const openDialog = useCallback(
    (kind: NonNullable<Dialog>["kind"], row: Row) => setDialog({ kind, row }),
    [],
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" align="end">
        <Title order={1}>Calls</Title>
        <Group gap="xs">
          <LiveCallsButton />
          <ExportButtons state={view} total={total} />
        </Group>
      </Group>
      <SegmentedControl
        aria-label="Show"
        w="fit-content"
        data={CHANNEL_CHOICES}
        value={channel}
        onChange={(next) => {
          if (!isLogChannel(next)) return;
          const { channel: _old, ...rest } = state;
          set(next === "voice" ? rest : { ...rest, channel: next });
        }}
      />
      <Group gap="sm" align="end" wrap="wrap">
        <LogSearch state={state} set={set} />
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
      {pending ? (
        <LoadingState label={`Loading ${many}…`} />
      ) : rows.length === 0 && !logs.isError ? (
        <EmptyState>
          No {many} in this date range{summary ? " match these filters" : ""}.
        </EmptyState>
      ) : rows.length > 0 ? (
        // A plain scrolling box (Mantine's ScrollArea measured its content and direction on every render);
        // its content does not widen the page.
        <div style={{ position: "relative", overflowX: "auto", contain: "inline-size" }}>
          <Table striped highlightOnHover aria-label="Calls" miw={720}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((column) => (
                  <Table.Th key={column}>{fieldLabel(column, labels)}</Table.Th>
                ))}
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shownRows.map((row) => (
                <CallRow
                  key={String(row.uuid)}
                  row={row}
                  columns={columns}
                  cellContext={cellContext}
                  canInspectJSON={canInspectJSON}
                  openTranscript={openTranscript}
                  openDialog={openDialog}
                />
              ))}
            </Table.Tbody>
          </Table>
          <div ref={endRef} />
        </div>
      ) : null}
      {/* Shown with the rows, not under the loading state: the table would push it down (layout shift). */}
      <Group justify="space-between" display={pending ? "none" : undefined}>
        <Text size="sm" c="dimmed" aria-label={channel === "voice" ? "Call count" : "Count"}>
          {total.toLocaleString()} {total === 1 ? one : many}
        </Text>
        <Group gap="xs">
          <NativeSelect
            aria-label="Rows per page"
            w={110}
            data={["25", "50", "100", "250"]}
            value={String(pageSize)}
            onChange={(event) => set({ ...state, pageSize: Number(event.currentTarget.value) })}
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

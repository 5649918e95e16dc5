import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
} from "@mantine/core";
import {
  describeFilters,
  enabledOperatorsOf,
  type FilterFieldType,
  type Filters,
  filterOperatorLabel,
  type LogScreenState,
  normalizeLogFilters,
} from "@switchboard/core";
import IconArrowDown from "@tabler/icons-react/dist/esm/icons/IconArrowDown.mjs";
import IconArrowUp from "@tabler/icons-react/dist/esm/icons/IconArrowUp.mjs";
import IconTrash from "@tabler/icons-react/dist/esm/icons/IconTrash.mjs";
import { useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { ErrorState, LoadingState } from "../../components/query-state.tsx";
import { errorMessage } from "../../lib/shell-api.ts";
import { useTimeFormat } from "../../lib/use-time-format.ts";
import type { OverlayName } from "../../overlays/overlay-names.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { searchWithoutOverlay } from "../../overlays/overlay-query.ts";
import { type LogField, useLogFields, useTranscript } from "./api.ts";
import { fieldLabel } from "./log-format.ts";
import { defaultColumns, searchWithLogState, useLogScreenState } from "./log-screen-query.ts";
import { TranscriptMessage } from "./transcript-message.tsx";

/** Applies a new screen state and closes the overlay in one history step. */
function useApplyAndClose(name: OverlayName) {
  const location = useLocation();
  const navigate = useNavigate();
  return (state: LogScreenState) => {
    const { page: _page, ...rest } = state;
    const historyState = (location.state ?? {}) as Record<string, unknown>;
    const { overlay: _overlay, ...kept } = historyState;
    navigate(
      {
        pathname: location.pathname,
        search: searchWithLogState(searchWithoutOverlay(location.search, name), rest),
        hash: location.hash,
      },
      { replace: true, state: kept },
    );
  };
}

export type FilterDraft = { key: number; field: string; op: string; value: string };

/** Drafts from the screen's filters (lists read as comma text). */
export function draftsOf(filters: Filters): FilterDraft[] {
  return Object.entries(filters).map(([field, entry], index) => ({
    key: index,
    field,
    op: entry.op,
    value: Array.isArray(entry.value) ? entry.value.join(", ") : String(entry.value),
  }));
}

/** Filters from drafts: a value with commas is a list (is any of); empty ones are dropped by core's rules. */
export function filtersOf(
  drafts: readonly FilterDraft[],
  types: Readonly<Record<string, FilterFieldType>>,
): Filters {
  const raw: Record<string, unknown> = {};
  for (const draft of drafts) {
    if (!draft.field) continue;
    const parts = draft.value
      .split(",")
      .map((part) => part.trim())
      .filter((part) => part !== "");
    const value = parts.length > 1 ? parts : (parts[0] ?? "");
    raw[draft.field] = { value, op: draft.op || enabledOperatorsOf(types[draft.field] ?? "string")[0] };
  }
  return normalizeLogFilters(raw, types);
}

/** The filter rows of the builder: field, the operator its type offers (spec §5.2), value. */
export function FilterRows({
  fields,
  drafts,
  onChange,
}: {
  fields: readonly LogField[];
  drafts: FilterDraft[];
  onChange: (drafts: FilterDraft[]) => void;
}) {
  const types = Object.fromEntries(fields.map((field) => [field.name, field.type]));
  const update = (key: number, patch: Partial<FilterDraft>) =>
    onChange(drafts.map((draft) => (draft.key === key ? { ...draft, ...patch } : draft)));
  return (
    <Stack gap="xs">
      {drafts.map((draft, index) => {
        const type = types[draft.field] ?? "string";
        const operators = enabledOperatorsOf(type);
        return (
          <Group key={draft.key} gap="xs" align="end" wrap="nowrap">
            <Select
              label={index === 0 ? "Field" : undefined}
              aria-label="Field"
              searchable
              w={200}
              data={fields.map((field) => ({ value: field.name, label: field.label }))}
              value={draft.field || null}
              onChange={(field) =>
                update(draft.key, {
                  field: field ?? "",
                  op: enabledOperatorsOf(types[field ?? ""] ?? "string")[0] ?? "is",
                })
              }
            />
            <Select
              label={index === 0 ? "Condition" : undefined}
              aria-label="Condition"
              w={150}
              data={operators.map((op) => ({ value: op, label: filterOperatorLabel(op) }))}
              value={operators.includes(draft.op as never) ? draft.op : (operators[0] ?? null)}
              allowDeselect={false}
              onChange={(op) => update(draft.key, { op: op ?? "" })}
            />
            <TextInput
              label={index === 0 ? "Value" : undefined}
              aria-label="Value"
              type={type === "date" ? "date" : "text"}
              inputMode={type === "integer" ? "numeric" : undefined}
              placeholder={type === "integer" ? "e.g. 60" : "e.g. inbound"}
              style={{ flex: 1 }}
              value={draft.value}
              onChange={(event) => update(draft.key, { value: event.currentTarget.value })}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              aria-label="Remove filter"
              onClick={() => onChange(drafts.filter((other) => other.key !== draft.key))}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        );
      })}
      <Button
        variant="light"
        w="fit-content"
        onClick={() =>
          onChange([
            ...drafts,
            { key: Math.max(0, ...drafts.map((d) => d.key)) + 1, field: "", op: "is", value: "" },
          ])
        }
      >
        Add filter
      </Button>
    </Stack>
  );
}

/** `?logFilterBuilder`: the filters of the logs screen, with the summary text they read as. */
export function LogFilterBuilderOverlay({ name, close }: OverlayComponentProps) {
  const { state } = useLogScreenState();
  const fields = useLogFields();
  const apply = useApplyAndClose(name);
  const [drafts, setDrafts] = useState<FilterDraft[]>(() => draftsOf(state.filters));
  if (fields.isPending) return <LoadingState />;
  if (fields.isError) return <ErrorState error={fields.error} onRetry={() => void fields.refetch()} />;
  const list = fields.data.fields;
  const types = Object.fromEntries(list.map((field) => [field.name, field.type]));
  const labels = Object.fromEntries(list.map((field) => [field.name, field.label]));
  const filters = filtersOf(drafts, types);
  const summary = describeFilters(filters, { labels });
  return (
    <Stack gap="md">
      <FilterRows fields={list} drafts={drafts} onChange={setDrafts} />
      <Paper withBorder p="sm">
        <Text size="sm" aria-label="Filter summary">
          {summary || "No filters: every call of the date range."}
        </Text>
      </Paper>
      <Group justify="flex-end">
        <Button variant="default" onClick={close}>
          Cancel
        </Button>
        <Button onClick={() => apply({ ...state, filters })}>Apply filters</Button>
      </Group>
    </Stack>
  );
}

/** `?editConvoColumns`: which fields the table shows, in order. */
export function EditConvoColumnsOverlay({ name, close }: OverlayComponentProps) {
  const { state } = useLogScreenState();
  const fields = useLogFields();
  const apply = useApplyAndClose(name);
  const [chosen, setChosen] = useState<string[] | null>(null);
  if (fields.isPending) return <LoadingState />;
  if (fields.isError) return <ErrorState error={fields.error} onRetry={() => void fields.refetch()} />;
  const list = fields.data.fields;
  const available = list.map((field) => field.name);
  const current = chosen ?? (state.fields.length > 0 ? state.fields : defaultColumns(available));
  const labels = Object.fromEntries(list.map((field) => [field.name, field.label]));
  const move = (index: number, by: number) => {
    const next = [...current];
    const [item] = next.splice(index, 1);
    if (item !== undefined) next.splice(index + by, 0, item);
    setChosen(next);
  };
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        Shown columns, in order:
      </Text>
      <Stack gap={4} aria-label="Shown columns">
        {current.map((field, index) => (
          <Group key={field} justify="space-between" wrap="nowrap">
            <Text size="sm">{fieldLabel(field, labels)}</Text>
            <Group gap={2} wrap="nowrap">
              <ActionIcon
                variant="subtle"
                aria-label={`Move ${fieldLabel(field, labels)} up`}
                disabled={index === 0}
                onClick={() => move(index, -1)}
              >
                <IconArrowUp size={14} />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                aria-label={`Move ${fieldLabel(field, labels)} down`}
                disabled={index === current.length - 1}
                onClick={() => move(index, 1)}
              >
                <IconArrowDown size={14} />
              </ActionIcon>
            </Group>
          </Group>
        ))}
      </Stack>
      <Text size="sm" fw={500}>
        Fields
      </Text>
      <Stack gap={6}>
        {list.map((field) => (
          <Checkbox
            key={field.name}
            label={
              <Group gap={6}>
                <span>{field.label}</span>
                {field.fixed ? null : (
                  <Badge size="xs" variant="light">
                    collected · {field.type}
                  </Badge>
                )}
              </Group>
            }
            checked={current.includes(field.name)}
            onChange={(event) =>
              setChosen(
                event.currentTarget.checked
                  ? [...current, field.name]
                  : current.filter((other) => other !== field.name),
              )
            }
          />
        ))}
      </Stack>
      <Group justify="flex-end">
        <Button variant="default" onClick={close}>
          Cancel
        </Button>
        <Button disabled={current.length === 0} onClick={() => apply({ ...state, fields: current })}>
          Show columns
        </Button>
      </Group>
    </Stack>
  );
}

/** `?callTranscript=<roomId>/<uuid>`: the conversation of one call, turn by turn. */
export function CallTranscriptOverlay({ value }: OverlayComponentProps) {
  const at = value.lastIndexOf("/");
  const roomId = at > 0 ? value.slice(0, at) : "";
  const uuid = at > 0 ? value.slice(at + 1) : "";
  const transcript = useTranscript(roomId, uuid);
  const { format } = useTimeFormat();
  if (!roomId || !uuid) return <Alert color="red">Failed to fetch conversation</Alert>;
  if (transcript.isPending) return <LoadingState label="Loading the transcript…" />;
  if (transcript.isError)
    return (
      <Alert color="red" role="alert">
        {errorMessage(transcript.error, "Failed to fetch conversation")}
      </Alert>
    );
  const { conversation, info } = transcript.data;
  return (
    <Stack gap="sm" aria-label="Transcript">
      <Group gap="xs">
        <Badge variant="light">{info.channel}</Badge>
        <Badge variant="light" color={info.status === "ended" ? "gray" : "teal"}>
          {info.status}
        </Badge>
        <Text size="sm" c="dimmed">
          {format(info.startedAt, "dateTime")}
        </Text>
      </Group>
      {conversation.length === 0 ? <Text c="dimmed">No messages in this conversation.</Text> : null}
      {conversation.map((message) => (
        <TranscriptMessage key={message.id} message={message} />
      ))}
    </Stack>
  );
}

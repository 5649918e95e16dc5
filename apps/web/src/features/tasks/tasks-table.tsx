import {
  Badge,
  Button,
  Group,
  Pagination,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  UnstyledButton,
} from "@mantine/core";
import { TASK_OUTCOMES, TASK_STATES, type TaskOutcome, type TaskState } from "@switchboard/api";
import { countOf, formatPhoneNumber } from "@switchboard/core";
import type { ReactNode } from "react";
import { EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { useTimeFormat } from "../../lib/use-time-format.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { TASKS_PAGE_SIZE, type Task, type TaskFilters, useTasks } from "./api.ts";
import { OUTCOME_LABELS, STATE_COLORS, STATE_LABELS } from "./task-format.ts";

const stateOptions = TASK_STATES.map((state) => ({ value: state, label: STATE_LABELS[state] }));
const outcomeOptions = TASK_OUTCOMES.map((outcome) => ({ value: outcome, label: OUTCOME_LABELS[outcome] }));

function TaskRow({ task }: { task: Task }) {
  const times = useTimeFormat();
  const overlays = useOverlays();
  const who = task.name || formatPhoneNumber(task.phoneNumber);
  return (
    <Table.Tr data-testid="task-row">
      <Table.Td>
        <UnstyledButton onClick={() => overlays.open("editTask", task.id)} data-testid="open-task">
          <Text size="sm" fw={500}>
            {who}
          </Text>
          {task.name ? (
            <Text size="xs" c="dimmed">
              {formatPhoneNumber(task.phoneNumber)}
            </Text>
          ) : null}
        </UnstyledButton>
      </Table.Td>
      <Table.Td visibleFrom="sm">
        <Text size="sm">{task.channel === "call" ? "Call" : "Text"}</Text>
        <Text size="xs" c="dimmed">
          {task.agentName ?? `Agent ${task.agentId}`}
        </Text>
      </Table.Td>
      <Table.Td>
        <Badge variant="light" color={STATE_COLORS[task.state]} data-testid="task-state">
          {STATE_LABELS[task.state]}
        </Badge>
      </Table.Td>
      <Table.Td data-testid="task-outcome">
        {task.outcome ? OUTCOME_LABELS[task.outcome] : <Text c="dimmed">—</Text>}
        {task.lastError && task.state === "failed" ? (
          <Text size="xs" c="red" lineClamp={2}>
            {task.lastError}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td visibleFrom="md">
        <Text size="sm">
          {times.format(task.completedAt ?? task.nextAttemptAt ?? task.createdAt, "dateTime")}
        </Text>
        <Text size="xs" c="dimmed">
          {task.attempts} of {countOf(task.maxAttempts, "attempt")}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}

/** The tasks, newest first, a page of ten at a time, filtered by state, outcome, list and search. */
export function TasksTable({
  filters,
  onChange,
  emptyAction,
}: {
  filters: TaskFilters;
  onChange: (patch: Partial<TaskFilters>) => void;
  emptyAction?: ReactNode;
}) {
  const tasks = useTasks(filters);
  const filtered = Boolean(filters.state || filters.outcome || filters.listId || filters.search.trim());
  const pages = tasks.data ? Math.max(1, Math.ceil(tasks.data.total / TASKS_PAGE_SIZE)) : 1;

  let body: ReactNode;
  if (tasks.isPending) body = <LoadingState label="Loading tasks…" />;
  else if (tasks.isError)
    body = (
      <ErrorState
        title="The tasks could not be loaded"
        error={tasks.error}
        onRetry={() => void tasks.refetch()}
      />
    );
  else if (tasks.data.tasks.length === 0)
    body = filtered ? (
      <EmptyState
        action={
          <Button
            variant="light"
            size="xs"
            onClick={() => onChange({ state: null, outcome: null, listId: null, search: "", page: 0 })}
          >
            Clear filters
          </Button>
        }
      >
        No tasks match these filters.
      </EmptyState>
    ) : (
      <EmptyState action={emptyAction}>
        No tasks yet. Upload a list of people, or add one task, and an agent calls or texts each of them.
      </EmptyState>
    );
  else
    body = (
      <Table.ScrollContainer minWidth={320}>
        <Table verticalSpacing="xs" highlightOnHover aria-label="Tasks" aria-busy={tasks.isFetching}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Person</Table.Th>
              <Table.Th visibleFrom="sm">Channel</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th>Outcome</Table.Th>
              <Table.Th visibleFrom="md">When</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tasks.data.tasks.map((task) => (
              <TaskRow key={task.id} task={task} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );

  return (
    <Stack gap="sm" component="section" aria-label="Task table">
      <Group gap="xs" align="flex-end" wrap="wrap">
        <TextInput
          label="Search"
          placeholder="Number, name or e-mail"
          value={filters.search}
          onChange={(event) => onChange({ search: event.currentTarget.value, page: 0 })}
          style={{ flex: "1 1 12rem" }}
        />
        <Select
          label="State"
          placeholder="Any state"
          data={stateOptions}
          value={filters.state}
          clearable
          onChange={(value) => onChange({ state: value as TaskState | null, page: 0 })}
          style={{ flex: "1 1 9rem" }}
        />
        <Select
          label="Outcome"
          placeholder="Any outcome"
          data={outcomeOptions}
          value={filters.outcome}
          clearable
          onChange={(value) => onChange({ outcome: value as TaskOutcome | null, page: 0 })}
          style={{ flex: "1 1 9rem" }}
        />
      </Group>
      {body}
      {tasks.data && tasks.data.total > TASKS_PAGE_SIZE ? (
        <Group justify="space-between" wrap="wrap">
          <Text size="sm" c="dimmed">
            {tasks.data.total} tasks
          </Text>
          <Pagination
            total={pages}
            value={filters.page + 1}
            onChange={(page) => onChange({ page: page - 1 })}
            size="sm"
            getControlProps={(control) => ({ "aria-label": `${control} page` })}
          />
        </Group>
      ) : null}
    </Stack>
  );
}

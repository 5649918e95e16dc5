import { Badge, Button, Group, Stack, Text, Title } from "@mantine/core";
import { countOf } from "@switchboard/core";
import { useState } from "react";
import { usePermission } from "../../lib/account-state.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { useInboxRealtime } from "../inbox/api.ts";
import { type TaskFilters, useTaskStats } from "./api.ts";
import { TaskLists } from "./task-lists.tsx";
import { TasksTable } from "./tasks-table.tsx";

const NO_FILTERS: TaskFilters = { state: null, outcome: null, listId: null, search: "", page: 0 };

/** Attempts today against the daily limit, and what runs now. */
function StatsLine() {
  const stats = useTaskStats();
  if (!stats.data) return null;
  const { attemptsToday, dailyLimit, running, answerRate } = stats.data.stats;
  return (
    <Text size="sm" c="dimmed" data-testid="task-stats">
      {running} running · {attemptsToday} of {countOf(dailyLimit, "attempt")} today
      {answerRate !== null ? ` · ${answerRate}% of calls answered` : ""}
    </Text>
  );
}

/**
 * Tasks: outbound calls and texts from uploaded lists or one at a time. Lists with live progress (the
 * realtime "tasks" event refreshes them), the tasks with filters and paging, and the overlays to upload a
 * list, add or open a task, and set the limits. An organisation's area (features/registry.ts): a partner or
 * reseller never reaches it.
 */
export function TasksPage() {
  const overlays = useOverlays();
  const canEdit = usePermission("canEditOrg");
  const live = useInboxRealtime();
  const [filters, setFilters] = useState<TaskFilters>(NO_FILTERS);
  const change = (patch: Partial<TaskFilters>) => setFilters((current) => ({ ...current, ...patch }));

  const upload = canEdit ? (
    <Button onClick={() => overlays.open("uploadTaskList")}>Upload list</Button>
  ) : null;
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs">
          <Title order={1}>Tasks</Title>
          <Badge variant="dot" color={live === "live" ? "teal" : "gray"}>
            {live === "live" ? "Live" : live === "connecting" ? "Connecting" : "Offline"}
          </Badge>
        </Group>
        <Group gap="xs">
          {upload}
          {canEdit ? (
            <Button variant="light" onClick={() => overlays.open("createTask")}>
              New task
            </Button>
          ) : null}
          <Button variant="default" onClick={() => overlays.open("taskSettings")}>
            Settings
          </Button>
        </Group>
      </Group>
      <StatsLine />
      <TaskLists selectedListId={filters.listId} onSelect={(listId) => change({ listId, page: 0 })} />
      <TasksTable filters={filters} onChange={change} emptyAction={upload} />
    </Stack>
  );
}

import { Badge, Button, Card, Group, Progress, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { countOf, pluralize } from "@switchboard/core";
import { confirm } from "../../components/confirm/confirm-store.ts";
import { ActionError, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { usePermission } from "../../lib/account-state.ts";
import { toast } from "../../lib/toast.ts";
import { useTimeFormat } from "../../lib/use-time-format.ts";
import { type TaskList, useChangeTaskList, useTaskLists } from "./api.ts";
import { LIST_STATE_LABELS, listActions, listProgress, outcomeSummary } from "./task-format.ts";

const ACTION_LABELS = { pause: "Pause", resume: "Resume", cancel: "Cancel list" } as const;
const ACTION_DONE = { pause: "paused", resume: "resumed", cancel: "cancelled" } as const;
/** The progress bar's parts: finished tasks by how they ended, then those running. */
const PROGRESS_PARTS = [
  { key: "completed", label: "completed", color: "teal" },
  { key: "failed", label: "failed", color: "red" },
  { key: "cancelled", label: "cancelled", color: "orange" },
  { key: "running", label: "running", color: "blue" },
] as const;

function ListCard({
  list,
  selected,
  onSelect,
}: {
  list: TaskList;
  selected: boolean;
  onSelect: (listId: number | null) => void;
}) {
  const times = useTimeFormat();
  const canEdit = usePermission("canEditOrg");
  const change = useChangeTaskList();
  const progress = listProgress(list.counts);
  const outcomes = outcomeSummary(list.counts);
  const run = async (action: "pause" | "resume" | "cancel") => {
    if (
      action === "cancel" &&
      !(await confirm({
        title: `Cancel ${list.name}?`,
        details: "Its tasks that have not run are cancelled. This cannot be undone.",
        confirmText: "Cancel list",
        cancelText: "Keep it",
        confirmColor: "red",
      }))
    )
      return;
    change.mutate(
      { listId: list.id, action },
      { onSuccess: () => toast.success(`${list.name} ${ACTION_DONE[action]}.`) },
    );
  };
  return (
    <Card withBorder padding="md" component="section" aria-label={`List ${list.name}`}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text fw={600} truncate>
              {list.name}
            </Text>
            <Text size="xs" c="dimmed">
              {list.channel === "call" ? "Calls" : "Texts"} by {list.agentName ?? `agent ${list.agentId}`} ·{" "}
              {times.format(list.createdAt, "dateTime")}
            </Text>
          </Stack>
          <Badge
            variant="light"
            color={list.state === "active" ? "teal" : list.state === "paused" ? "yellow" : "gray"}
            data-testid="list-state"
          >
            {LIST_STATE_LABELS[list.state]}
          </Badge>
        </Group>
        <Progress.Root size="lg">
          {PROGRESS_PARTS.map(({ key, label, color }) => (
            <Progress.Section
              key={key}
              value={progress.total ? (progress[key] / progress.total) * 100 : 0}
              color={color}
              aria-label={`${list.name}: ${label}`}
            />
          ))}
        </Progress.Root>
        <Text size="sm" data-testid="list-counts">
          {progress.done} of {progress.total} done · {progress.completed} completed · {progress.failed} failed
          · {progress.running} running · {progress.waiting} waiting
        </Text>
        {outcomes ? (
          <Text size="xs" c="dimmed" data-testid="list-outcomes">
            {outcomes}
          </Text>
        ) : null}
        {list.errorRows > 0 ? (
          <Text size="xs" c="dimmed">
            {list.errorRows} of {countOf(list.rows, "row")} {pluralize(list.errorRows, "was", "were")} left
            out (errors).
          </Text>
        ) : null}
        <Group gap="xs">
          <Button
            size="xs"
            variant={selected ? "filled" : "light"}
            onClick={() => onSelect(selected ? null : list.id)}
          >
            {selected ? "Show all tasks" : "Show its tasks"}
          </Button>
          {canEdit
            ? listActions(list.state, progress).map((action) => (
                <Button
                  key={action}
                  size="xs"
                  variant="default"
                  color={action === "cancel" ? "red" : undefined}
                  loading={change.isPending && change.variables?.action === action}
                  onClick={() => void run(action)}
                >
                  {ACTION_LABELS[action]}
                </Button>
              ))
            : null}
        </Group>
        <ActionError error={change.error} />
      </Stack>
    </Card>
  );
}

/** The uploaded lists with their live counts and progress; pause, resume and cancel. */
export function TaskLists({
  selectedListId,
  onSelect,
}: {
  selectedListId: number | null;
  onSelect: (listId: number | null) => void;
}) {
  const lists = useTaskLists();
  if (lists.isPending) return <LoadingState label="Loading lists…" />;
  if (lists.isError)
    return (
      <ErrorState
        title="The lists could not be loaded"
        error={lists.error}
        onRetry={() => void lists.refetch()}
      />
    );
  if (lists.data.lists.length === 0) return null;
  return (
    <Stack gap="xs" component="section" aria-label="Lists">
      <Title order={2} size="h4">
        Lists
      </Title>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
        {lists.data.lists.map((list) => (
          <ListCard key={list.id} list={list} selected={selectedListId === list.id} onSelect={onSelect} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

import { Button, Divider, Group, Stack } from "@mantine/core";
import type { TaskChannel } from "@switchboard/api";
import { useState } from "react";
import { confirm } from "../../components/confirm/confirm-store.ts";
import { ActionError, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { usePermission } from "../../lib/account-state.ts";
import { toast } from "../../lib/toast.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { type TaskDetail, useCreateTask, useDeleteTask, useEditTask, useTask } from "./api.ts";
import { TaskDetailView } from "./task-detail.tsx";
import { AgentSelect, ChannelControl } from "./task-fields.tsx";
import { TaskForm, type TaskFormOutput } from "./task-form.tsx";
import { EMPTY_TASK_FORM, formOf } from "./task-form-values.ts";
import { taskActions } from "./task-format.ts";

/** `?createTask`: one person for an agent to call or text, now or at a set time. */
export function CreateTaskOverlay({ close }: OverlayComponentProps) {
  const create = useCreateTask();
  const [agentId, setAgentId] = useState<number | null>(null);
  const [channel, setChannel] = useState<TaskChannel>("text");
  const submit = (values: TaskFormOutput) =>
    create.mutate(
      {
        ...(agentId !== null ? { agentId } : {}),
        channel,
        phoneNumber: values.phoneNumber,
        name: values.name || undefined,
        email: values.email || undefined,
        timeZone: values.timeZone || undefined,
        message: channel === "text" ? values.message || undefined : undefined,
        scheduledAt: values.scheduledAt ?? undefined,
        variables: values.variables,
      },
      {
        onSuccess: ({ task }) => {
          toast.success(`Task for ${task.name || task.phoneNumber} added.`);
          close();
        },
      },
    );
  return (
    <TaskForm
      initial={EMPTY_TASK_FORM}
      before={
        <>
          <AgentSelect value={agentId} onChange={setAgentId} />
          <ChannelControl value={channel} onChange={setChannel} />
        </>
      }
      showMessage={channel === "text"}
      submitLabel="Add task"
      pending={create.isPending}
      error={create.error}
      onSubmit={submit}
      onCancel={close}
    />
  );
}

/** Cancel, run again and delete, as the task's state allows. */
function TaskActions({
  task,
  onEdit,
  close,
}: {
  task: TaskDetail;
  onEdit: (() => void) | null;
  close: () => void;
}) {
  const edit = useEditTask(task.id);
  const remove = useDeleteTask();
  const actions = taskActions(task.state);
  const who = task.name || task.phoneNumber;
  const del = async () => {
    const ok = await confirm({
      title: `Delete the task for ${who}?`,
      details: "It will not run, and lists leave it out.",
      confirmText: "Delete",
      confirmColor: "red",
    });
    if (ok)
      remove.mutate(task.id, {
        onSuccess: () => {
          toast.success("Task deleted.");
          close();
        },
      });
  };
  return (
    <Stack gap="xs">
      <Group gap="xs">
        {onEdit && actions.edit ? (
          <Button size="xs" variant="light" onClick={onEdit}>
            Edit
          </Button>
        ) : null}
        {actions.cancel ? (
          <Button
            size="xs"
            variant="default"
            loading={edit.isPending}
            onClick={() =>
              edit.mutate({ state: "cancelled" }, { onSuccess: () => toast.success("Task cancelled.") })
            }
          >
            Cancel task
          </Button>
        ) : null}
        {actions.runAgain ? (
          <Button
            size="xs"
            variant="default"
            loading={edit.isPending}
            onClick={() =>
              edit.mutate({ state: "queued" }, { onSuccess: () => toast.success("Task queued again.") })
            }
          >
            Run again
          </Button>
        ) : null}
        {actions.remove ? (
          <Button
            size="xs"
            variant="subtle"
            color="red"
            loading={remove.isPending}
            onClick={() => void del()}
          >
            Delete
          </Button>
        ) : null}
      </Group>
      <ActionError error={edit.error ?? remove.error} />
    </Stack>
  );
}

function EditForm({ task, onDone }: { task: TaskDetail; onDone: () => void }) {
  const edit = useEditTask(task.id);
  const submit = (values: TaskFormOutput) =>
    edit.mutate(
      {
        phoneNumber: values.phoneNumber,
        name: values.name || null,
        email: values.email || null,
        timeZone: values.timeZone || null,
        ...(task.channel === "text" ? { message: values.message || null } : {}),
        scheduledAt: values.scheduledAt,
        variables: values.variables,
      },
      {
        onSuccess: () => {
          toast.success("Task saved.");
          onDone();
        },
      },
    );
  return (
    <TaskForm
      initial={formOf(task)}
      showMessage={task.channel === "text"}
      submitLabel="Save task"
      pending={edit.isPending}
      error={edit.error}
      onSubmit={submit}
      onCancel={onDone}
    />
  );
}

/**
 * `?editTask=<id>`: the task — its outcome, attempts and the conversation it produced — and, while it has
 * not run, its person, message and time to change; cancel, run again or delete it.
 */
export function EditTaskOverlay({ value, close }: OverlayComponentProps) {
  const task = useTask(value === "true" ? null : value);
  const canEdit = usePermission("canEditOrg");
  const [editing, setEditing] = useState(false);
  if (value === "true") return <ErrorState error={new Error("Task not found")} />;
  if (task.isPending) return <LoadingState label="Loading the task…" />;
  if (task.isError)
    return (
      <ErrorState
        title="The task could not be loaded"
        error={task.error}
        onRetry={() => void task.refetch()}
      />
    );
  const detail = task.data.task;
  if (editing && taskActions(detail.state).edit)
    return <EditForm key={detail.id} task={detail} onDone={() => setEditing(false)} />;
  return (
    <Stack gap="md">
      {canEdit ? <TaskActions task={detail} onEdit={() => setEditing(true)} close={close} /> : null}
      <Divider />
      <TaskDetailView task={detail} />
    </Stack>
  );
}

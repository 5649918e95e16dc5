import {
  changeTaskList,
  createTask,
  deleteTask,
  editTask,
  getTask,
  getTaskLimits,
  getTaskStats,
  listTaskLists,
  listTasks,
  type RouteBody,
  saveTaskLimits,
  type Task,
  type TaskDetail,
  type TaskLimits,
  type TaskList,
  type TaskOutcome,
  type TaskState,
} from "@switchboard/api";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAccountKey } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";

export type { Task, TaskDetail, TaskLimits, TaskList };

/** Every task query starts with this key; the realtime "tasks" event marks them all stale. */
export const TASKS_KEY = "tasks";

/** Tasks a page (call catalogue: limit 10, sort createdAt, order desc). */
export const TASKS_PAGE_SIZE = 10;

function useKey(...parts: (string | number | null | undefined)[]) {
  const [accountId, viewingAs] = useAccountKey();
  return [TASKS_KEY, accountId, viewingAs, ...parts] as const;
}

/** A failed task query is kept as the query's error state and logged (product spec, fetch failures). */
function logged<T>(what: string, run: () => Promise<T>): Promise<T> {
  return run().catch((error: unknown) => {
    if ((error as { name?: string }).name !== "AbortError") console.warn(`Failed to fetch ${what}`, error);
    throw error;
  });
}

export type TaskFilters = {
  state: TaskState | null;
  outcome: TaskOutcome | null;
  listId: number | null;
  search: string;
  page: number;
};

export function useTasks(filters: TaskFilters) {
  return useQuery({
    queryKey: useKey("list", JSON.stringify(filters)),
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      logged("tasks", () =>
        apiClient.call(listTasks, {
          query: {
            state: filters.state ?? undefined,
            outcome: filters.outcome ?? undefined,
            listId: filters.listId ?? undefined,
            search: filters.search.trim() || undefined,
            limit: TASKS_PAGE_SIZE,
            offset: filters.page * TASKS_PAGE_SIZE,
            sort: "createdAt",
            order: "desc",
          },
          signal,
        }),
      ),
  });
}

export function useTaskLists() {
  return useQuery({
    queryKey: useKey("lists"),
    queryFn: ({ signal }) =>
      logged("task lists", () => apiClient.call(listTaskLists, { query: { limit: 20 }, signal })),
  });
}

export function useTaskStats() {
  return useQuery({
    queryKey: useKey("stats"),
    queryFn: ({ signal }) => logged("task stats", () => apiClient.call(getTaskStats, { signal })),
  });
}

export function useTask(id: string | null) {
  return useQuery({
    queryKey: useKey("task", id),
    enabled: Boolean(id),
    queryFn: ({ signal }) =>
      logged("task", () => apiClient.call(getTask, { params: { id: id ?? "" }, signal })),
  });
}

export function useTaskLimits() {
  return useQuery({
    queryKey: useKey("limits"),
    queryFn: ({ signal }) => logged("task limits", () => apiClient.call(getTaskLimits, { signal })),
  });
}

function useInvalidateTasks() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: [TASKS_KEY] });
}

export function useCreateTask() {
  const invalidate = useInvalidateTasks();
  return useMutation({
    mutationFn: (body: RouteBody<typeof createTask>) => apiClient.call(createTask, { body }),
    onSuccess: invalidate,
  });
}

export function useEditTask(id: string) {
  const invalidate = useInvalidateTasks();
  return useMutation({
    mutationFn: (body: RouteBody<typeof editTask>) => apiClient.call(editTask, { params: { id }, body }),
    onSuccess: invalidate,
  });
}

export function useDeleteTask() {
  const invalidate = useInvalidateTasks();
  return useMutation({
    mutationFn: (id: string) => apiClient.call(deleteTask, { params: { id } }),
    onSuccess: invalidate,
  });
}

export function useChangeTaskList() {
  const invalidate = useInvalidateTasks();
  return useMutation({
    mutationFn: (input: { listId: number; action: "pause" | "resume" | "cancel" }) =>
      apiClient.call(changeTaskList, { params: { listId: input.listId }, body: { action: input.action } }),
    onSuccess: invalidate,
  });
}

export function useSaveTaskLimits() {
  const invalidate = useInvalidateTasks();
  return useMutation({
    mutationFn: (body: RouteBody<typeof saveTaskLimits>) => apiClient.call(saveTaskLimits, { body }),
    onSuccess: invalidate,
  });
}

export function useInvalidateAfterUpload() {
  return useInvalidateTasks();
}

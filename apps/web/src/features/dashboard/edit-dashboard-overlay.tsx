import { ActionIcon, Button, Group, Stack, Text } from "@mantine/core";
import IconArrowDown from "@tabler/icons-react/dist/esm/icons/IconArrowDown.mjs";
import IconArrowUp from "@tabler/icons-react/dist/esm/icons/IconArrowUp.mjs";
import IconPencil from "@tabler/icons-react/dist/esm/icons/IconPencil.mjs";
import IconTrash from "@tabler/icons-react/dist/esm/icons/IconTrash.mjs";
import { ActionError, EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { usePermission } from "../../lib/account-state.ts";
import { toast } from "../../lib/toast.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { useSaveMetrics } from "./api.ts";
import { discardDraft } from "./dashboard-draft.ts";
import { useEditedMetrics } from "./edited-metrics.ts";

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

import { Button, Group, Popover, ScrollArea, Stack, Text, UnstyledButton } from "@mantine/core";
import type { AppNotification } from "@switchboard/api";
import { ErrorState, LoadingState } from "../../components/query-state.tsx";
import { type TimeFormat, useTimeFormat } from "../../lib/use-time-format.ts";
import { BellButton, type NotificationList } from "./bell-button.tsx";

function when(ms: number, times: TimeFormat): string {
  const minutes = Math.round((Date.now() - ms) / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return times.format(ms, "date");
}

/**
 * The bell with its list of notifications in a popover: a chunk of its own (with the positioning library
 * it needs), loaded when the pointer first reaches the bell or it is first pressed.
 */
export function NotificationPopover({
  opened,
  setOpened,
  unread,
  list,
  toggle,
  clear,
  open,
}: {
  opened: boolean;
  setOpened: (opened: boolean) => void;
  unread: number;
  list: NotificationList;
  toggle: () => void;
  clear: (body: { clear?: number; clearAll?: boolean }) => void;
  open: (item: AppNotification) => void;
}) {
  const times = useTimeFormat();
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" width={340} shadow="md" withinPortal>
      <Popover.Target>
        <BellButton unread={unread} expanded={opened} onClick={toggle} />
      </Popover.Target>
      <Popover.Dropdown aria-label="Notifications" role="dialog">
        <Group justify="space-between" mb="xs">
          <Text fw={600}>Notifications</Text>
          {unread > 0 ? (
            <Button size="compact-xs" variant="subtle" onClick={() => clear({ clearAll: true })}>
              Clear all
            </Button>
          ) : null}
        </Group>
        {list.isPending ? (
          <LoadingState />
        ) : list.isError ? (
          <ErrorState error={list.error} onRetry={() => void list.refetch()} />
        ) : list.data.notifications.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nothing new. New messages, missed calls and failing webhooks show here.
          </Text>
        ) : (
          <ScrollArea.Autosize mah={360}>
            <Stack gap={4} component="ul" style={{ listStyle: "none", margin: 0, padding: 0 }}>
              {list.data.notifications.map((item) => (
                <Group key={item.id} component="li" wrap="nowrap" gap="xs" align="flex-start">
                  <UnstyledButton onClick={() => open(item)} style={{ flex: 1, minWidth: 0 }} p={4}>
                    <Text size="sm" fw={600}>
                      {item.title}
                      {item.count > 1 ? ` (${item.count})` : ""}
                    </Text>
                    {item.body ? (
                      <Text size="xs" c="dimmed" lineClamp={2}>
                        {item.body}
                      </Text>
                    ) : null}
                    <Text size="xs" c="dimmed">
                      {when(item.updatedAt, times)}
                    </Text>
                  </UnstyledButton>
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    aria-label={`Clear: ${item.title}`}
                    onClick={() => clear({ clear: item.id })}
                  >
                    Clear
                  </Button>
                </Group>
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}

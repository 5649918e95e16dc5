import {
  ActionIcon,
  Button,
  Group,
  Indicator,
  Popover,
  ScrollArea,
  Stack,
  Text,
  UnstyledButton,
} from "@mantine/core";
import { type AppNotification, clearNotifications, listNotifications } from "@switchboard/api";
import IconBell from "@tabler/icons-react/dist/esm/icons/IconBell.mjs";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { useAccountKey, useAccountState } from "../../app/account-state.ts";
import { ErrorState, LoadingState } from "../../components/query-state.tsx";
import { apiClient } from "../../lib/api-client.ts";
import { getTargetAccountId, readToken } from "../../lib/session.ts";
import { connectRealtime } from "../inbox/realtime.ts";

const KEY = "notifications";

function when(ms: number): string {
  const minutes = Math.round((Date.now() - ms) / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return new Date(ms).toLocaleDateString();
}

/** The header's bell: the unread count, live over the realtime WebSocket, and the list to open or clear. */
export function NotificationBell() {
  const { view } = useAccountState();
  const [accountId, viewingAs] = useAccountKey();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [opened, setOpened] = useState(false);
  const key = [KEY, accountId, viewingAs] as const;
  const inOrganization = view.account.accountType === "organization" || view.account.accountType === "agent";
  // A super admin on an account above organisations reads the platform's own: support requests.
  const enabled = view.permissions.canViewOrg && (inOrganization || view.user.superAdmin);
  const list = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => apiClient.call(listNotifications, { query: { limit: 30 }, signal }),
    enabled,
  });
  const clear = useMutation({
    mutationFn: (body: { clear?: number; clearAll?: boolean }) =>
      apiClient.call(clearNotifications, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [KEY] }),
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new account or viewing-as needs a new connection.
  useEffect(() => {
    // Live updates come per organisation; the platform's list is read when the bell mounts or opens.
    if (!enabled || !inOrganization) return;
    const connection = connectRealtime({
      token: readToken,
      targetAccountId: () => getTargetAccountId() ?? accountId,
      onEvent: (event) => {
        if (event.type === "notification") void queryClient.invalidateQueries({ queryKey: [KEY] });
      },
      onResync: () => void queryClient.invalidateQueries({ queryKey: [KEY] }),
    });
    return () => connection.close();
  }, [enabled, inOrganization, accountId, viewingAs, queryClient]);

  if (!enabled) return null;
  const unread = list.data?.unread ?? 0;
  const open = (item: AppNotification) => {
    setOpened(false);
    clear.mutate({ clear: item.id });
    if (item.link) void navigate(item.link);
  };
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" width={340} shadow="md" withinPortal>
      {/* The target is the button itself: its popup attributes belong on a button, not the indicator's div. */}
      <Indicator label={unread > 99 ? "99+" : unread} size={16} disabled={unread === 0} offset={4}>
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            size="lg"
            aria-label={unread > 0 ? `Notifications: ${unread} unread` : "Notifications"}
            onClick={() => {
              if (!opened && !inOrganization) void list.refetch();
              setOpened((o) => !o);
            }}
            data-testid="notification-bell"
          >
            <IconBell size={20} />
          </ActionIcon>
        </Popover.Target>
      </Indicator>
      <Popover.Dropdown aria-label="Notifications" role="dialog">
        <Group justify="space-between" mb="xs">
          <Text fw={600}>Notifications</Text>
          {unread > 0 ? (
            <Button size="compact-xs" variant="subtle" onClick={() => clear.mutate({ clearAll: true })}>
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
                      {when(item.updatedAt)}
                    </Text>
                  </UnstyledButton>
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    aria-label={`Clear: ${item.title}`}
                    onClick={() => clear.mutate({ clear: item.id })}
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

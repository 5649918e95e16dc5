import { ActionIcon, Indicator } from "@mantine/core";
import {
  type AppNotification,
  clearNotifications,
  listNotifications,
  type RouteResponse,
} from "@switchboard/api";
import IconBell from "@tabler/icons-react/dist/esm/icons/IconBell.mjs";
import { type UseQueryResult, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { forwardRef, lazy, Suspense, useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { useAccountKey, useAccountState } from "../../app/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";
import { getTargetAccountId, readToken } from "../../lib/session.ts";
import { connectRealtime } from "../inbox/realtime.ts";

const KEY = "notifications";

export type NotificationList = UseQueryResult<RouteResponse<typeof listNotifications>>;

/** The bell button with its unread count (the popover's target once its chunk has loaded). */
export const BellButton = forwardRef<
  HTMLButtonElement,
  { unread: number; expanded?: boolean; onClick: () => void; onPointerEnter?: () => void }
>(function BellButton({ unread, expanded, ...props }, ref) {
  return (
    // The target is the button itself: its popup attributes belong on a button, not the indicator's div.
    <Indicator label={unread > 99 ? "99+" : unread} size={16} disabled={unread === 0} offset={4}>
      <ActionIcon
        ref={ref}
        variant="subtle"
        size="lg"
        aria-label={unread > 0 ? `Notifications: ${unread} unread` : "Notifications"}
        aria-haspopup="dialog"
        aria-expanded={expanded ?? false}
        data-testid="notification-bell"
        {...props}
      >
        <IconBell size={20} />
      </ActionIcon>
    </Indicator>
  );
});

const loadPopover = () => import("./notification-popover.tsx");
const LazyNotificationPopover = lazy(async () => ({ default: (await loadPopover()).NotificationPopover }));

/** The header's bell: the unread count, live over the realtime WebSocket, and the list to open or clear. */
export function NotificationBell() {
  const { view } = useAccountState();
  const [accountId, viewingAs] = useAccountKey();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [opened, setOpened] = useState(false);
  const [wanted, setWanted] = useState(false);
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
  const toggle = () => {
    if (!opened && !inOrganization) void list.refetch();
    setOpened(!opened);
  };
  if (!wanted) {
    return (
      <BellButton
        unread={unread}
        onPointerEnter={() => void loadPopover()}
        onClick={() => {
          setWanted(true);
          toggle();
        }}
      />
    );
  }
  return (
    <Suspense fallback={<BellButton unread={unread} expanded={opened} onClick={toggle} />}>
      <LazyNotificationPopover
        opened={opened}
        setOpened={setOpened}
        unread={unread}
        list={list}
        toggle={toggle}
        clear={(body) => clear.mutate(body)}
        open={open}
      />
    </Suspense>
  );
}

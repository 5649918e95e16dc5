import { type AppNotification, clearNotifications, listNotifications } from "@switchboard/api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { useAccountKey, useAccountState } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";
import { getTargetAccountId, readToken } from "../../lib/session.ts";
import { connectRealtime } from "../inbox/realtime.ts";
import { BellButton } from "./bell-button.tsx";

const KEY = "notifications";

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

import { ActionIcon, Indicator } from "@mantine/core";
import type { listNotifications, RouteResponse } from "@switchboard/api";
import IconBell from "@tabler/icons-react/dist/esm/icons/IconBell.mjs";
import type { UseQueryResult } from "@tanstack/react-query";
import { forwardRef } from "react";

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

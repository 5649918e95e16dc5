import type { NotificationData } from "@mantine/notifications";
import { notifications } from "@mantine/notifications";
import { TOAST_AUTO_CLOSE_MS } from "@switchboard/core";
import type { ReactNode } from "react";

export type ToastKind = "success" | "info" | "error";

const ERROR_STYLES: NotificationData["styles"] = {
  root: { backgroundColor: "var(--mantine-color-red-filled)" },
  description: { color: "var(--mantine-color-white)" },
};

/** The toast as shown: one at a time, bottom centre, no close button, gone after 1000 ms (spec §2.2). */
export function toastData(kind: ToastKind, message: ReactNode): NotificationData {
  return {
    message,
    color: kind === "success" ? "teal" : kind === "error" ? "red" : "blue",
    autoClose: TOAST_AUTO_CLOSE_MS,
    withCloseButton: false,
    position: "bottom-center",
    "data-toast": kind,
    ...(kind === "error" ? { styles: ERROR_STYLES } : {}),
  };
}

function show(kind: ToastKind, message: ReactNode): string {
  // One at a time even before the lazily mounted toast area has set the store's limit: the newest replaces.
  notifications.clean();
  return notifications.show(toastData(kind, message));
}

export const toast = {
  success: (message: ReactNode) => show("success", message),
  info: (message: ReactNode) => show("info", message),
  error: (message: ReactNode) => show("error", message),
};

import { Notifications } from "@mantine/notifications";
import { TOAST_AUTO_CLOSE_MS, TOAST_LIMIT } from "@switchboard/core";

/** The single toast area (spec §2.2): bottom centre, one at a time. Loaded on the first toast. */
export function ToastArea() {
  return <Notifications position="bottom-center" limit={TOAST_LIMIT} autoClose={TOAST_AUTO_CLOSE_MS} />;
}

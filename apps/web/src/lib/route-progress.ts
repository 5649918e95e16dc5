import { nprogress } from "@mantine/nprogress";

let running = false;

/** Starts the top progress bar once per route change. */
export function startRouteProgress(): void {
  if (running) return;
  running = true;
  nprogress.start();
}

/** Completes the bar when the route change has finished or failed; does nothing if none is running. */
export function completeRouteProgress(): void {
  if (!running) return;
  running = false;
  nprogress.complete();
}

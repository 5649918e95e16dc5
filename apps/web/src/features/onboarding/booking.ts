import type { NativeBridge } from "../../lib/logout.ts";
import { encodeNativeCommand } from "../../lib/native-bridge.ts";

/**
 * The expert-call booking page (onboarding step SCHEDULE_CALL). A white-label host sends its users to its own
 * support page; the main product to its booking page (VITE_EXPERT_BOOKING_URL at build time overrides it).
 */
export const EXPERT_BOOKING_URL: string =
  (import.meta.env.VITE_EXPERT_BOOKING_URL as string | undefined) || "https://switchboard.app/book-an-expert";

export function bookingUrl(host: { isMainHost: boolean; supportUrl?: string | undefined }): string {
  const support = host.supportUrl?.trim();
  return !host.isMainHost && support ? support : EXPERT_BOOKING_URL;
}

let requestCounter = 0;

/** The native app's openUrl command: the target URL and a request id (product spec §5). */
export function openUrlCommand(url: string, requestId = `openUrl-${Date.now()}-${++requestCounter}`): string {
  return encodeNativeCommand({ command: "openUrl", url, requestId });
}

/** Opens the booking page: a new tab, or the in-app URL opener inside the mobile app. */
export function openBookingPage(
  url: string,
  target: "newTab" | "inAppUrlOpener",
  options: { bridge?: NativeBridge | undefined; open?: (url: string) => void } = {},
): void {
  const bridge = "bridge" in options ? options.bridge : window.ReactNativeWebView;
  if (target === "inAppUrlOpener" && bridge) {
    bridge.postMessage(openUrlCommand(url));
    return;
  }
  const open = options.open ?? ((href: string) => window.open(href, "_blank", "noopener,noreferrer"));
  open(url);
}

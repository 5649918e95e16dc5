import type { NativeBridge } from "./logout.ts";

/**
 * The typed command channel to the native mobile app (spec §2.2, §5): each command is one JSON message
 * `{ command, ...fields }` posted to `window.ReactNativeWebView`. Commands that expect an answer carry a
 * `requestId`; the native app answers by calling `window.SwitchboardBridge.reply(requestId, data)`.
 * Outside the app there is no bridge: a command is logged and dropped. The README lists the contract.
 */
export type NativeCommand =
  | { command: "logout" }
  | { command: "openUrl"; url: string; requestId: string }
  | { command: "searchContact"; value: string; requestId: string }
  | { command: "syncContacts"; path: "/api/v1/mobileContacts"; requestId: string }
  | { command: "registerPush"; requestId: string }
  | { command: "checkIn"; kind: string };

let counter = 0;
/** A fresh request id: `<command>-<time>-<n>`. */
export function newRequestId(command: string): string {
  counter += 1;
  return `${command}-${Date.now()}-${counter}`;
}

/** The JSON text of a command, refusing one that lacks a field the native app needs. */
export function encodeNativeCommand(command: NativeCommand): string {
  if (command.command === "openUrl" && (!command.url || !command.requestId))
    throw new Error("openUrl needs url and requestId");
  if (command.command === "searchContact" && (!command.value || !command.requestId))
    throw new Error("searchContact needs value and requestId");
  return JSON.stringify(command);
}

function currentBridge(): NativeBridge | undefined {
  return typeof window === "undefined" ? undefined : window.ReactNativeWebView;
}

/** Sends a command to the native app; false (and a log line) when the page is not inside the app. */
export function sendNativeCommand(
  command: NativeCommand,
  bridge: NativeBridge | undefined = currentBridge(),
): boolean {
  const message = encodeNativeCommand(command);
  if (!bridge) {
    console.info(`[native bridge] not in the mobile app, dropped: ${message}`);
    return false;
  }
  bridge.postMessage(message);
  return true;
}

const pending = new Map<string, (data: unknown) => void>();

/**
 * Sends a command that expects an answer and resolves with it (null when there is no app, or after
 * `timeoutMs` without one).
 */
export function requestNative(
  command: Extract<NativeCommand, { requestId: string }>,
  options: { bridge?: NativeBridge | undefined; timeoutMs?: number } = {},
): Promise<unknown> {
  const bridge = "bridge" in options ? options.bridge : currentBridge();
  return new Promise((resolve) => {
    if (!sendNativeCommand(command, bridge)) return resolve(null);
    const timer = setTimeout(() => {
      pending.delete(command.requestId);
      resolve(null);
    }, options.timeoutMs ?? 30_000);
    pending.set(command.requestId, (data) => {
      clearTimeout(timer);
      pending.delete(command.requestId);
      resolve(data);
    });
  });
}

/** What the native app calls with its answer to a request. */
export function receiveNativeReply(requestId: string, data: unknown): boolean {
  const resolve = pending.get(requestId);
  if (!resolve) return false;
  resolve(data);
  return true;
}

declare global {
  interface Window {
    SwitchboardBridge?: { reply: (requestId: string, data: unknown) => boolean };
  }
}

if (typeof window !== "undefined") window.SwitchboardBridge = { reply: receiveNativeReply };

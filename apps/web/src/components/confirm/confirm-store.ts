import type { MantineColor } from "@mantine/core";
import type { ReactNode } from "react";
import { useSyncExternalStore } from "react";

export type ConfirmOptions = {
  icon?: ReactNode;
  title: ReactNode;
  details?: ReactNode;
  /** @default "Okay" */
  confirmText?: string;
  /** @default "Cancel" */
  cancelText?: string;
  confirmColor?: MantineColor;
  cancelColor?: MantineColor;
  /** Runs when the user confirms; the confirm button shows a loading state until it settles. */
  onConfirm?: () => Promise<void> | void;
  /** Shows a close control (closing counts as cancel). */
  withCloseButton?: boolean;
  /** Shows a help button that opens this URL in a new tab. */
  helpUrl?: string;
  /** Shows a help button that runs this. */
  onHelp?: () => void;
};

export const CONFIRM_DEFAULTS = { confirmText: "Okay", cancelText: "Cancel" } as const;

export type ConfirmState = {
  id: number;
  options: ConfirmOptions;
  /** False while the dialog plays its exit transition. */
  opened: boolean;
  loading: boolean;
  /** Message of the last failed onConfirm; the dialog stays open so the user can retry or cancel. */
  error: string | null;
};

type Pending = { state: ConfirmState; resolve: (confirmed: boolean) => void };

let pending: Pending | null = null;
let snapshot: ConfirmState | null = null;
let nextId = 1;
const listeners = new Set<() => void>();

function publish(state: ConfirmState | null) {
  snapshot = state;
  for (const listener of listeners) listener();
}

function update(id: number, patch: Partial<ConfirmState>) {
  if (!pending || pending.state.id !== id) return;
  pending.state = { ...pending.state, ...patch };
  publish(pending.state);
}

function settle(id: number, confirmed: boolean) {
  if (!pending || pending.state.id !== id) return;
  const { resolve } = pending;
  pending.state = { ...pending.state, opened: false, loading: false };
  publish(pending.state);
  resolve(confirmed);
}

/**
 * Asks the user to confirm (spec §2.2). Resolves true once confirmed (after onConfirm has finished), false
 * when cancelled or replaced by another confirm. Callable from anywhere; the ConfirmHost shows it.
 */
export function confirm(options: ConfirmOptions): Promise<boolean> {
  if (pending?.state.opened) settle(pending.state.id, false);
  return new Promise<boolean>((resolve) => {
    const state: ConfirmState = { id: nextId++, options, opened: true, loading: false, error: null };
    pending = { state, resolve };
    publish(state);
  });
}

/** The user pressed the confirm button. */
export async function acceptConfirm(id: number): Promise<void> {
  if (!pending || pending.state.id !== id || !pending.state.opened || pending.state.loading) return;
  const { onConfirm } = pending.state.options;
  if (!onConfirm) {
    settle(id, true);
    return;
  }
  update(id, { loading: true, error: null });
  try {
    await onConfirm();
    settle(id, true);
  } catch (error) {
    update(id, { loading: false, error: error instanceof Error ? error.message : String(error) });
  }
}

/** The user pressed cancel, the close control, Escape or the backdrop. Ignored while onConfirm runs. */
export function cancelConfirm(id: number): void {
  if (!pending || pending.state.id !== id || pending.state.loading) return;
  settle(id, false);
}

/** Forgets a closed dialog once its exit transition has ended. */
export function clearConfirm(id: number): void {
  if (!pending || pending.state.id !== id || pending.state.opened) return;
  pending = null;
  publish(null);
}

export function subscribeConfirm(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function getConfirmState(): ConfirmState | null {
  return snapshot;
}

export function useConfirmState(): ConfirmState | null {
  return useSyncExternalStore(subscribeConfirm, getConfirmState, getConfirmState);
}

/** Test helper: drops any dialog without resolving it. */
export function resetConfirmStore(): void {
  pending = null;
  publish(null);
}

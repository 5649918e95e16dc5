import { type ComponentType, type LazyExoticComponent, lazy } from "react";
import type { OverlayName } from "./overlay-names.ts";

/** Props every overlay component receives from the OverlayHost. */
export type OverlayComponentProps = {
  name: OverlayName;
  /** The query value: "true" when opened without one. */
  value: string;
  close: () => void;
};

export type OverlayDefinition = {
  /** Title of the modal or drawer (its accessible name). */
  title: string;
  component: LazyExoticComponent<ComponentType<OverlayComponentProps>>;
  /** Modal (default) or a drawer from the right. */
  presentation?: "modal" | "drawer";
  /** Mantine size of the modal or drawer. */
  size?: "xs" | "sm" | "md" | "lg" | "xl" | (string & {});
};

/**
 * Wraps a named export in React.lazy, so every overlay is a chunk of its own:
 * `lazyOverlay(() => import("./help-overlay.tsx"), "HelpOverlay")`.
 */
export function lazyOverlay<
  M extends Record<K, ComponentType<OverlayComponentProps>>,
  K extends keyof M & string,
>(load: () => Promise<M>, exportName: K): LazyExoticComponent<ComponentType<OverlayComponentProps>> {
  return lazy(async () => ({ default: (await load())[exportName] }));
}

/**
 * Overlay name -> lazy component. To add an overlay, add one entry here that imports its module lazily
 * (usually from src/features/<feature>/); open it with useOverlays().open(name). Names without an entry
 * render an honest "not built yet" screen.
 */
export const overlayRegistry: Partial<Record<OverlayName, OverlayDefinition>> = {
  help: {
    title: "Help",
    component: lazyOverlay(() => import("./help-overlay.tsx"), "HelpOverlay"),
  },
  info: {
    title: "About Switchboard",
    component: lazyOverlay(() => import("./info-overlay.tsx"), "InfoOverlay"),
  },
  debug: {
    title: "Debug",
    presentation: "drawer",
    size: "lg",
    component: lazyOverlay(() => import("./debug-overlay.tsx"), "DebugOverlay"),
  },
};

export function getOverlayDefinition(name: OverlayName): OverlayDefinition | undefined {
  return overlayRegistry[name];
}

/** "docsPage" -> "Docs page". */
export function humaniseOverlayName(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

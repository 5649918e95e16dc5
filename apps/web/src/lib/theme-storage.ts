import type { MantineColorScheme, MantineColorSchemeManager } from "@mantine/core";
import { LOCAL_STORAGE_KEYS } from "@switchboard/core";

export type Theme = "light" | "dark";

export const DEFAULT_THEME: Theme = "light";

type ThemeStore = Pick<Storage, "getItem" | "setItem" | "removeItem">;

function defaultStore(): ThemeStore | undefined {
  try {
    return typeof window === "undefined" ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

/** The saved theme, or null when none (or something else) is saved under localStorage `theme`. */
export function readStoredTheme(store: ThemeStore | undefined = defaultStore()): Theme | null {
  try {
    const value = store?.getItem(LOCAL_STORAGE_KEYS.theme);
    return value === "light" || value === "dark" ? value : null;
  } catch {
    return null;
  }
}

/**
 * Mantine colour-scheme manager over localStorage `theme` ("light" | "dark"). index.html applies the same
 * value before the first paint; Mantine reads it here before its first render, so a reload never flashes.
 */
export function themeColorSchemeManager(
  store: ThemeStore | undefined = defaultStore(),
): MantineColorSchemeManager {
  let listener: ((event: StorageEvent) => void) | null = null;
  return {
    get: (defaultValue: MantineColorScheme) => readStoredTheme(store) ?? defaultValue,
    set: (value: MantineColorScheme) => {
      if (value !== "light" && value !== "dark") return;
      try {
        store?.setItem(LOCAL_STORAGE_KEYS.theme, value);
      } catch {
        // Private mode or full storage: the theme still applies for this page.
      }
    },
    subscribe: (onUpdate) => {
      if (typeof window === "undefined") return;
      listener = (event) => {
        if (
          event.key === LOCAL_STORAGE_KEYS.theme &&
          (event.newValue === "light" || event.newValue === "dark")
        ) {
          onUpdate(event.newValue);
        }
      };
      window.addEventListener("storage", listener);
    },
    unsubscribe: () => {
      if (listener) window.removeEventListener("storage", listener);
      listener = null;
    },
    clear: () => {
      try {
        store?.removeItem(LOCAL_STORAGE_KEYS.theme);
      } catch {
        // Nothing to clear.
      }
    },
  };
}

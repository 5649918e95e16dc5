import { createContext, type ReactNode, useContext, useMemo } from "react";
import { useLocation, useNavigate } from "react-router";
import { OVERLAY_NAMES, type OverlayName } from "./overlay-names.ts";
import {
  type OpenOverlay,
  openOverlaysOf,
  searchWithOverlay,
  searchWithoutOverlay,
  searchWithSwitchedOverlay,
} from "./overlay-query.ts";

export type { OpenOverlay } from "./overlay-query.ts";

const ALL_OVERLAYS: ReadonlySet<OverlayName> = new Set(OVERLAY_NAMES);

const OverlayScopeContext = createContext<ReadonlySet<OverlayName>>(ALL_OVERLAYS);

/**
 * Replaces the allowed overlay set for everything inside it by a restricted list (spec §2.1). Names outside
 * the list are ignored by useOverlays() and not rendered by the OverlayHost inside it.
 */
export function OverlayScope({
  allowed,
  children,
}: {
  allowed: readonly OverlayName[];
  children: ReactNode;
}) {
  const key = allowed.join(",");
  // biome-ignore lint/correctness/useExhaustiveDependencies: the joined key stands for the list's contents.
  const value = useMemo<ReadonlySet<OverlayName>>(
    () => new Set(allowed.filter((name) => ALL_OVERLAYS.has(name))),
    [key],
  );
  return <OverlayScopeContext.Provider value={value}>{children}</OverlayScopeContext.Provider>;
}

export function useOverlayScope(): ReadonlySet<OverlayName> {
  return useContext(OverlayScopeContext);
}

/** History state written with an overlay's own entry, so closing it can step back instead of piling up. */
type OverlayHistoryState = { overlay?: OverlayName } & Record<string, unknown>;

function historyStateOf(state: unknown): OverlayHistoryState | null {
  return typeof state === "object" && state !== null ? (state as OverlayHistoryState) : null;
}

export type Overlays = {
  /** Opens an overlay (query key set to "true" or `value`) in a new history entry: browser Back closes it. */
  open: (name: OverlayName, value?: string) => void;
  /** Closes an overlay (query key removed). */
  close: (name: OverlayName) => void;
  /** Replaces `from` by `to` in one history entry. */
  switch: (from: OverlayName, to: OverlayName, value?: string) => void;
  isOpen: (name: OverlayName) => boolean;
  /** The overlay's query value ("true" when opened without one), or null when closed or not allowed. */
  value: (name: OverlayName) => string | null;
  /** The open overlays allowed in this scope, in query order. */
  openOverlays: OpenOverlay[];
};

/**
 * Overlays live in the query string (spec §2.1): `?help=true` shows the help overlay. Names outside the
 * allowed set (see OverlayScope) are ignored.
 */
export function useOverlays(): Overlays {
  const location = useLocation();
  const navigate = useNavigate();
  const allowed = useOverlayScope();

  return useMemo<Overlays>(() => {
    const { pathname, search, hash } = location;
    const openOverlays = openOverlaysOf(search, allowed);
    const openValues = new Map(openOverlays.map((overlay) => [overlay.name, overlay.value]));
    const historyState = historyStateOf(location.state);
    const to = (nextSearch: string) => ({ pathname, search: nextSearch, hash });

    const open = (name: OverlayName, value = "true") => {
      if (!allowed.has(name) || openValues.get(name) === value) return;
      navigate(to(searchWithOverlay(search, name, value)), { state: { overlay: name } });
    };

    const close = (name: OverlayName) => {
      if (!allowed.has(name) || !openValues.has(name)) return;
      // The entry was pushed by open(): going back removes the key and leaves no dead entry behind.
      if (historyState?.overlay === name && location.key !== "default") {
        navigate(-1);
        return;
      }
      navigate(to(searchWithoutOverlay(search, name)), { replace: true, state: historyState });
    };

    const switchOverlay = (from: OverlayName, toName: OverlayName, value = "true") => {
      if (!allowed.has(toName)) return;
      if (!allowed.has(from) || !openValues.has(from)) {
        open(toName, value);
        return;
      }
      const state = historyState?.overlay === from ? { ...historyState, overlay: toName } : historyState;
      navigate(to(searchWithSwitchedOverlay(search, from, toName, value)), { replace: true, state });
    };

    return {
      open,
      close,
      switch: switchOverlay,
      isOpen: (name) => openValues.has(name),
      value: (name) => openValues.get(name) ?? null,
      openOverlays,
    };
  }, [location, navigate, allowed]);
}

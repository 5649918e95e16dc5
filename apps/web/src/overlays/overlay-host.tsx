import { Alert, Button } from "@mantine/core";
import { Suspense, useState } from "react";
import { ErrorBoundary } from "../components/error-boundary.tsx";
import { retryableLazy } from "../lib/retryable-lazy.ts";
import type { Rendered } from "./overlay-frame.tsx";
import type { OverlayName } from "./overlay-names.ts";
import { type OpenOverlay, useOverlays } from "./use-overlays.tsx";

// The dialogs' code (modal, drawer, focus trap, scroll lock) is not needed until one opens: a signed-in
// page loads without it (issue #23).
const LazyOverlayFrame = retryableLazy(async () => (await import("./overlay-frame.tsx")).OverlayFrame);

/** What shows when the dialogs' code could not be loaded (a dropped connection). */
function FrameLoadError({ retry }: { retry: () => void }) {
  return (
    <Alert
      role="alert"
      color="red"
      title="This screen could not be loaded"
      style={{ position: "fixed", insetInline: 16, bottom: 16, zIndex: 300 }}
    >
      Check your connection and try again.{" "}
      <Button size="compact-sm" variant="white" color="red" onClick={retry}>
        Try again
      </Button>
    </Alert>
  );
}

/** Keeps a just-closed overlay mounted (closed) until its exit transition ends. */
function useRenderedOverlays(open: OpenOverlay[]): [Rendered[], (name: OverlayName) => void] {
  const openKey = open.map((overlay) => `${overlay.name}=${overlay.value}`).join("&");
  const [tracked, setTracked] = useState<{ key: string; open: OpenOverlay[]; closing: OpenOverlay[] }>({
    key: openKey,
    open,
    closing: [],
  });
  if (tracked.key !== openKey) {
    const stillOpen = new Set(open.map((overlay) => overlay.name));
    const closing = [
      ...tracked.closing.filter((overlay) => !stillOpen.has(overlay.name)),
      ...tracked.open.filter((overlay) => !stillOpen.has(overlay.name)),
    ];
    setTracked({ key: openKey, open, closing });
  }
  const rendered: Rendered[] = [
    ...open.map((overlay) => ({ ...overlay, opened: true })),
    ...tracked.closing
      .filter((overlay) => !open.some((o) => o.name === overlay.name))
      .map((overlay) => ({ ...overlay, opened: false })),
  ];
  const forget = (name: OverlayName) => {
    setTracked((current) => ({
      ...current,
      closing: current.closing.filter((overlay) => overlay.name !== name),
    }));
  };
  return [rendered, forget];
}

/** Renders every open overlay of the current scope over the page (spec §2.1). */
export function OverlayHost() {
  const overlays = useOverlays();
  const [rendered, forget] = useRenderedOverlays(overlays.openOverlays);
  return rendered.map((overlay) => (
    <ErrorBoundary
      key={overlay.name}
      fallback={(_error, reset) => (
        <FrameLoadError
          retry={() => {
            LazyOverlayFrame.retry();
            reset();
          }}
        />
      )}
    >
      <Suspense fallback={null}>
        <LazyOverlayFrame
          overlay={overlay}
          onClose={() => overlays.close(overlay.name)}
          onExited={() => forget(overlay.name)}
        />
      </Suspense>
    </ErrorBoundary>
  ));
}

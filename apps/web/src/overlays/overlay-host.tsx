import { Button, Center, Drawer, Loader, Modal, Stack, Text } from "@mantine/core";
import { DIALOG_TRANSITION_MS } from "@switchboard/core";
import { type ReactNode, Suspense, useState } from "react";
import { ErrorBoundary } from "../components/error-boundary.tsx";
import type { OverlayName } from "./overlay-names.ts";
import { getOverlayDefinition, humaniseOverlayName } from "./registry.ts";
import { type OpenOverlay, useOverlays } from "./use-overlays.tsx";

type Rendered = OpenOverlay & { opened: boolean };

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

function OverlayLoading() {
  return (
    <Center py="xl">
      {/* A span may not carry a label of its own: the status role names what is happening. */}
      <Loader size="sm" role="status" aria-label="Loading" />
    </Center>
  );
}

function OverlayLoadError({ retry }: { retry: () => void }) {
  return (
    <Stack gap="sm">
      <Text>This screen could not be loaded. Check your connection and try again.</Text>
      <Button variant="light" onClick={retry} w="fit-content">
        Try again
      </Button>
    </Stack>
  );
}

function NotBuiltOverlay({ title }: { title: string }) {
  return <Text>The “{title}” screen is not built yet.</Text>;
}

function OverlayFrame({
  overlay,
  onClose,
  onExited,
}: {
  overlay: Rendered;
  onClose: () => void;
  onExited: () => void;
}) {
  const definition = getOverlayDefinition(overlay.name);
  const title = definition?.title ?? humaniseOverlayName(overlay.name);
  let content: ReactNode = <NotBuiltOverlay title={title} />;
  if (definition) {
    const Content = definition.component;
    content = (
      <ErrorBoundary fallback={(_error, reset) => <OverlayLoadError retry={reset} />}>
        <Suspense fallback={<OverlayLoading />}>
          <Content name={overlay.name} value={overlay.value} close={onClose} />
        </Suspense>
      </ErrorBoundary>
    );
  }
  const shared = {
    opened: overlay.opened,
    onClose,
    onExitTransitionEnd: onExited,
    title,
    closeButtonProps: { "aria-label": "Close" },
    transitionProps: { duration: DIALOG_TRANSITION_MS },
    "data-overlay": overlay.name,
  };
  if (definition?.presentation === "drawer") {
    return (
      <Drawer position="right" size={definition.size ?? "md"} {...shared}>
        {content}
      </Drawer>
    );
  }
  return (
    <Modal centered size={definition?.size ?? "md"} {...shared}>
      {content}
    </Modal>
  );
}

/** Renders every open overlay of the current scope over the page (spec §2.1). */
export function OverlayHost() {
  const overlays = useOverlays();
  const [rendered, forget] = useRenderedOverlays(overlays.openOverlays);
  return rendered.map((overlay) => (
    <OverlayFrame
      key={overlay.name}
      overlay={overlay}
      onClose={() => overlays.close(overlay.name)}
      onExited={() => forget(overlay.name)}
    />
  ));
}

import { Button, Center, Drawer, Loader, Modal, Stack, Text } from "@mantine/core";
import { DIALOG_TRANSITION_MS } from "@switchboard/core";
import { type ReactNode, Suspense } from "react";
import { ErrorBoundary } from "../components/error-boundary.tsx";
import { getOverlayDefinition, humaniseOverlayName } from "./registry.ts";
import type { OpenOverlay } from "./use-overlays.tsx";

export type Rendered = OpenOverlay & { opened: boolean };

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

/**
 * An overlay's modal or drawer around its content: a chunk of its own (the dialog, focus trap and scroll
 * lock), loaded when the first overlay opens.
 */
export function OverlayFrame({
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
  // Every allowed name has a screen (registry.test.ts); nothing else reaches here.
  let content: ReactNode = null;
  if (definition) {
    const Content = definition.component;
    content = (
      <ErrorBoundary
        fallback={(_error, reset) => (
          <OverlayLoadError
            retry={() => {
              Content.retry();
              reset();
            }}
          />
        )}
      >
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

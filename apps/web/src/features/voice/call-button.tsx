import { Button, type ButtonProps, Modal } from "@mantine/core";
import { lazy, Suspense, useState } from "react";
import { LoadingState } from "../../components/query-state.tsx";

// The panel (audio worklets, the call's socket) is a chunk of its own, fetched when the button is pressed.
const CallPanel = lazy(async () => ({ default: (await import("./call-panel.tsx")).CallPanel }));

/**
 * "Call": opens a browser test call with the agent (its draft by default) over the current screen.
 * Small on purpose: it sits beside the Test buttons of the agent editor and onboarding.
 */
export function CallButton({
  agentId,
  stage,
  ...props
}: { agentId: number; stage?: "staging" | "production" } & ButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="default" {...props} onClick={() => setOpen(true)}>
        Call
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title="Test call" size="lg">
        {open ? (
          <Suspense fallback={<LoadingState label="Preparing the call…" />}>
            <CallPanel agentId={agentId} stage={stage} />
          </Suspense>
        ) : null}
      </Modal>
    </>
  );
}

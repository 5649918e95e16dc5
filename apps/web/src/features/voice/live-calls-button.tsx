import { Badge, Button, VisuallyHidden } from "@mantine/core";
import { useAccountState } from "../../lib/account-state.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { useInboxRealtime } from "../inbox/api.ts";
import { useLiveCalls } from "./live-calls-api.ts";

/**
 * "Live calls" with how many are in progress, kept current by the realtime WebSocket; opens `?calling`.
 * Only where an organisation (or an agent) is in view: calls belong to one.
 */
export function LiveCallsButton() {
  const { view } = useAccountState();
  const type = view.account.accountType;
  if (type !== "organization" && type !== "agent") return null;
  return <OrganizationLiveCallsButton />;
}

function OrganizationLiveCallsButton() {
  useInboxRealtime();
  const calls = useLiveCalls();
  const overlays = useOverlays();
  const count = calls.data?.length ?? 0;
  return (
    <Button
      variant={count > 0 ? "light" : "default"}
      color={count > 0 ? "red" : undefined}
      onClick={() => overlays.open("calling")}
      // The name read out starts with what is seen ("Live calls 2"), as WCAG 2.5.3 asks: a voice-control user
      // says what they see.
      rightSection={
        count > 0 ? (
          <Badge size="sm" color="red" variant="filled">
            {count}
            <VisuallyHidden> in progress</VisuallyHidden>
          </Badge>
        ) : null
      }
    >
      Live calls
    </Button>
  );
}

import { Badge, Button } from "@mantine/core";
import { useAccountState } from "../../app/account-state.ts";
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
      rightSection={
        count > 0 ? (
          <Badge size="sm" color="red" variant="filled" aria-hidden>
            {count}
          </Badge>
        ) : null
      }
      aria-label={count > 0 ? `Live calls (${count} in progress)` : "Live calls"}
    >
      Live calls
    </Button>
  );
}

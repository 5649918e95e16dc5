import { ActionIcon } from "@mantine/core";
import IconHelpCircle from "@tabler/icons-react/dist/esm/icons/IconHelpCircle.mjs";
import { resolveHelpAction } from "../lib/help-action.ts";
import { useHostProfile } from "../lib/host-profile.ts";
import { useOverlays } from "../overlays/use-overlays.tsx";

/**
 * The help button (spec §2.2): a white-label host's support URL in a new tab; in the main product the help
 * overlay (docsPage when `docsPage` is given); otherwise the support form.
 */
export function HelpButton({ docsPage }: { docsPage?: string }) {
  const host = useHostProfile();
  const overlays = useOverlays();
  const onClick = () => {
    const action = resolveHelpAction(host, docsPage);
    if (action.kind === "url") {
      window.open(action.url, "_blank", "noopener,noreferrer");
    } else if (action.name === "help") {
      overlays.open("help");
    } else {
      overlays.open(action.name, action.value);
    }
  };
  return (
    <ActionIcon variant="default" size="lg" aria-label="Help" title="Help" onClick={onClick}>
      <IconHelpCircle size={18} stroke={1.6} />
    </ActionIcon>
  );
}

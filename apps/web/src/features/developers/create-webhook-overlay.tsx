import { Stack, Text } from "@mantine/core";
import { useState } from "react";
import { usePermission } from "../../lib/account-state.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { ShownOnce } from "./shown-once.tsx";
import { NewWebhookForm } from "./webhooks-card.tsx";

/** `?createWebhook`: the Developers page's add-a-webhook form in a window; its secret is shown once. */
export function CreateWebhookOverlay({ close }: OverlayComponentProps) {
  const canEdit = usePermission("canEditOrg");
  const [secret, setSecret] = useState<string | null>(null);
  if (!canEdit) return <Text c="dimmed">Only the organisation's owner and admins can add webhooks.</Text>;
  if (secret) return <ShownOnce title="Signing secret" value={secret} onDone={close} />;
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Switchboard posts your organisation's events to this address, signed with a secret you see next.
      </Text>
      <NewWebhookForm onSecret={setSecret} />
    </Stack>
  );
}

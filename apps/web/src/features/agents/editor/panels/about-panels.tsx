import { Anchor, Button, Code, CopyButton, Group, Stack, Switch, Text } from "@mantine/core";
import { useOverlays } from "../../../../overlays/use-overlays.tsx";
import type { PanelProps } from "../panels.ts";

function CopyValue({ value, label }: { value: string; label: string }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Code>{value}</Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button size="xs" variant="light" onClick={copy} aria-label={`Copy ${label}`}>
            {copied ? "Copied" : "Copy"}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

/** Where to reach the agent: the test chat, its page in the app, its live rules for developers. */
export function LinksPanel({ agentId }: PanelProps) {
  const overlays = useOverlays();
  const page = `${window.location.origin}/app/agent/${agentId}`;
  return (
    <Stack gap="sm">
      <Button variant="light" w="fit-content" onClick={() => overlays.open("testAgent", String(agentId))}>
        Test this agent
      </Button>
      <Text size="sm">The agent’s own page in Switchboard:</Text>
      <Anchor href={page} size="sm">
        {page}
      </Anchor>
      <Text size="sm">The rules callers get, for developers (with your API token):</Text>
      <CopyValue value={`/api/v2/agentEventRules/default?agentId=${agentId}`} label="the rules address" />
    </Stack>
  );
}

export function CampaignIdPanel({ agentId, state }: PanelProps) {
  return (
    <Stack gap="sm">
      <Text size="sm">
        The campaign id names this agent’s configuration in API calls (as agentId) and in conversation logs.
      </Text>
      <CopyValue value={String(agentId)} label="the campaign id" />
      <Text size="sm" c="dimmed">
        Draft revision {state.staging.revision}
        {state.production ? `, live revision ${state.production.revision}` : ""}.
      </Text>
    </Stack>
  );
}

export function AdvancedPanel({ editor, state }: PanelProps) {
  return (
    <Stack gap="md">
      <Switch
        label="Confirm transfers"
        description="Ask the caller before transferring the call."
        checked={state.draft.confirmTransfers}
        onChange={(event) => editor.edit({ confirmTransfers: event.currentTarget.checked })}
      />
      <Stack gap={4}>
        <Text fw={600} size="sm">
          The whole draft configuration
        </Text>
        <Code block>{JSON.stringify(state.draft, null, 2)}</Code>
      </Stack>
    </Stack>
  );
}

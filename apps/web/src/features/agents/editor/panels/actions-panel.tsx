import {
  Badge,
  Button,
  Card,
  CloseButton,
  Group,
  Select,
  Stack,
  Switch,
  Text,
  Title,
  VisuallyHidden,
} from "@mantine/core";
import type { AgentFunction, CampaignFields } from "@switchboard/api";
import { useState } from "react";
import { ErrorState, LoadingState } from "../../../../components/query-state.tsx";
import { useOverlays } from "../../../../overlays/use-overlays.tsx";
import { useApps } from "../../../apps/api.ts";
import { useAgentFunctions } from "../../api.ts";
import type { PanelProps } from "../panels.ts";

/** The action names the built-in apps act on (an action named schedule implies a calendar). */
const ACTION_NAMES = ["schedule", "transfer", "endCall", "sendSms", "collectData", "webhook"];

/** Turns one function of an app on or off; the app joins the campaign with its first function. */
export function toggleFunction(
  draft: Pick<CampaignFields, "apps" | "enabledFunctions">,
  fn: Pick<AgentFunction, "appId" | "version" | "key" | "name">,
  on: boolean,
): Pick<CampaignFields, "apps" | "enabledFunctions"> {
  const current = draft.enabledFunctions[fn.key] ?? [];
  const names = on ? [...new Set([...current, fn.name])] : current.filter((name) => name !== fn.name);
  const enabledFunctions = { ...draft.enabledFunctions, [fn.key]: names };
  if (names.length === 0) delete enabledFunctions[fn.key];
  const hasApp = draft.apps.some((app) => app.appId === fn.appId && app.version === fn.version);
  const apps =
    on && !hasApp
      ? [...draft.apps, { appId: fn.appId, version: fn.version }]
      : !on && names.length === 0
        ? draft.apps.filter((app) => !(app.appId === fn.appId && app.version === fn.version))
        : draft.apps;
  return { apps, enabledFunctions };
}

function groupByApp(functions: AgentFunction[]): [string, AgentFunction[]][] {
  const groups = new Map<string, AgentFunction[]>();
  for (const fn of functions) groups.set(fn.key, [...(groups.get(fn.key) ?? []), fn]);
  return [...groups.entries()];
}

/** The apps of the catalogue the organisation has not installed, each opening `?install`. */
function MoreApps() {
  const apps = useApps();
  const overlays = useOverlays();
  const available = (apps.data ?? []).filter((app) => !app.installed);
  if (apps.isPending) return <LoadingState label="Loading the apps…" />;
  if (apps.isError) return <ErrorState error={apps.error} onRetry={() => void apps.refetch()} />;
  if (available.length === 0) return null;
  return (
    <Stack gap="xs">
      <Title order={5}>More apps</Title>
      {available.map((app) => (
        <Group key={`${app.appId}@${app.appVersion}`} justify="space-between" wrap="nowrap">
          <div>
            <Text fw={500}>{app.name}</Text>
            <Text size="sm" c="dimmed">
              {app.description}
            </Text>
          </div>
          <Button
            variant="light"
            style={{ flexShrink: 0 }}
            onClick={() => overlays.open("install", `${app.appId}@${app.appVersion}`)}
          >
            Install<VisuallyHidden> {app.name}</VisuallyHidden>
          </Button>
        </Group>
      ))}
    </Stack>
  );
}

/** The functions of the organisation's installed apps the agent may call, and its actions. */
export function ActionsPanel({ agentId, editor, state }: PanelProps) {
  const functions = useAgentFunctions(agentId);
  const [adding, setAdding] = useState<string | null>(null);
  const { draft } = state;
  const enabled = (fn: AgentFunction) => (draft.enabledFunctions[fn.key] ?? []).includes(fn.name);
  return (
    <Stack gap="md">
      <Title order={4}>Functions</Title>
      {functions.isPending ? <LoadingState label="Loading the apps’ functions…" /> : null}
      {functions.isError ? (
        <ErrorState error={functions.error} onRetry={() => void functions.refetch()} />
      ) : null}
      {functions.data && functions.data.functions.length === 0 ? (
        <Text c="dimmed">No apps are installed for this organization yet: install one below.</Text>
      ) : null}
      {groupByApp(functions.data?.functions ?? []).map(([key, items]) => (
        <Card key={key} withBorder padding="sm">
          <Text fw={600} mb="xs">
            {key}
          </Text>
          <Stack gap="xs">
            {items.map((fn) => (
              <Switch
                key={fn.name}
                label={fn.name}
                description={fn.description}
                checked={enabled(fn)}
                onChange={(event) => editor.edit(toggleFunction(draft, fn, event.currentTarget.checked))}
              />
            ))}
          </Stack>
        </Card>
      ))}
      <MoreApps />
      <Title order={4}>Actions</Title>
      {draft.actions.length === 0 ? <Text c="dimmed">No actions yet.</Text> : null}
      <Group gap="xs">
        {draft.actions.map((action, index) => (
          <Badge
            // biome-ignore lint/suspicious/noArrayIndexKey: actions have no id; two may share a name
            key={`${action.name}-${index}`}
            size="lg"
            variant="light"
            rightSection={
              <CloseButton
                size="xs"
                aria-label={`Remove the action ${action.name}`}
                onClick={() => editor.edit({ actions: draft.actions.filter((_, i) => i !== index) })}
              />
            }
          >
            {action.name}
          </Badge>
        ))}
      </Group>
      <Group align="flex-end" gap="xs">
        <Select
          label="Add an action"
          placeholder="Choose"
          data={ACTION_NAMES}
          value={adding}
          onChange={setAdding}
        />
        <Button
          variant="light"
          disabled={!adding}
          onClick={() => {
            if (!adding) return;
            editor.edit({ actions: [...draft.actions, { name: adding }] });
            setAdding(null);
          }}
        >
          Add
        </Button>
      </Group>
    </Stack>
  );
}

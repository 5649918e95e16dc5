import { Badge, Button, Group, Stack, Text } from "@mantine/core";
import type { Account } from "@switchboard/api";
import { formatPhoneNumber } from "@switchboard/core";
import { useNavigate } from "react-router";
import { ConfirmPanel } from "../../../components/confirm/confirm-panel.tsx";
import { ActionError } from "../../../components/query-state.tsx";
import { accountAppPath } from "../../../lib/account-path.ts";
import { useAccountState, usePermission } from "../../../lib/account-state.ts";
import { toast } from "../../../lib/toast.ts";
import type { OverlayComponentProps } from "../../../overlays/overlay-props.ts";
import { useOverlays } from "../../../overlays/use-overlays.tsx";
import { AccountSummary } from "../../accounts/account-summary.tsx";
import { useDeleteAgentAccount, useSetAccountEnabled } from "../../accounts/api.ts";
import { WithOverlayAccount } from "../../accounts/overlays/overlay-account.tsx";
import { useCampaigns } from "../api.ts";
import { AgentSettingsForm } from "./agent-settings-form.tsx";

function LiveStatus({ agentId }: { agentId: number }) {
  const campaigns = useCampaigns(agentId);
  if (!campaigns.data) return <Text size="sm">…</Text>;
  const { staging, production } = campaigns.data;
  if (!production) return <Badge color="gray">Not published yet</Badge>;
  return staging.published ? (
    <Badge color="teal">Published</Badge>
  ) : (
    <Badge color="yellow">Unpublished changes</Badge>
  );
}

/** `?agentInfo=<agentId>`: who the agent is and how it stands. */
export function AgentInfoOverlay({ name, value }: OverlayComponentProps) {
  const overlays = useOverlays();
  return (
    <WithOverlayAccount name={name} value={value}>
      {(agent) => (
        <Stack gap="md">
          <AccountSummary
            account={agent}
            extra={[
              [
                "Agent number",
                agent.switchboardPhoneNumber ? formatPhoneNumber(agent.switchboardPhoneNumber) : "None yet",
              ],
              ["Status", <LiveStatus key="status" agentId={agent.id} />],
            ]}
          />
          <Group gap="xs">
            <Button onClick={() => overlays.switch("agentInfo", "editAgent", String(agent.id))}>
              Edit agent
            </Button>
            <Button
              variant="default"
              onClick={() => overlays.switch("agentInfo", "testAgent", String(agent.id))}
            >
              Test
            </Button>
            <Button
              variant="default"
              onClick={() => overlays.switch("agentInfo", "agentSettings", String(agent.id))}
            >
              Settings
            </Button>
          </Group>
        </Stack>
      )}
    </WithOverlayAccount>
  );
}

/** `?agentSettings=<agentId>`: the agent account's own fields. */
export function AgentSettingsOverlay({ name, value, close }: OverlayComponentProps) {
  return (
    <WithOverlayAccount name={name} value={value}>
      {(agent) => <AgentSettingsForm agentId={agent.id} onSaved={close} />}
    </WithOverlayAccount>
  );
}

function AdminActions({ agent }: { agent: Account }) {
  const navigate = useNavigate();
  const { viewingAs } = useAccountState();
  const canTakeOver = usePermission("canTakeoverAgent");
  const setEnabled = useSetAccountEnabled();
  const overlays = useOverlays();
  const superAdmin = viewingAs === "superAdmin";
  return (
    <Stack gap="sm">
      <Group gap="xs">
        {canTakeOver ? (
          <Button
            // In the overlay's place in the history: closing first would go back a step after this.
            onClick={() => navigate(accountAppPath("agent", agent.id, "dashboard"), { replace: true })}
          >
            Take over the agent account
          </Button>
        ) : null}
        <Button
          variant="default"
          onClick={() => overlays.switch("agentAdmin", "editAgent", String(agent.id))}
        >
          Edit agent
        </Button>
        {superAdmin ? (
          <Button
            variant="default"
            color={agent.disabled ? "teal" : "red"}
            loading={setEnabled.isPending}
            onClick={() =>
              setEnabled.mutate(
                { username: agent.username, enabled: agent.disabled },
                { onSuccess: () => toast.success(agent.disabled ? "Agent enabled." : "Agent disabled.") },
              )
            }
          >
            {agent.disabled ? "Enable" : "Disable"}
          </Button>
        ) : null}
        <Button
          variant="subtle"
          color="red"
          onClick={() => overlays.switch("agentAdmin", "deleteAgent", String(agent.id))}
        >
          Delete
        </Button>
      </Group>
      <ActionError error={setEnabled.error} />
    </Stack>
  );
}

/** `?agentAdmin=<agentId>`: take over, enable or disable (super admin), delete. */
export function AgentAdminOverlay({ name, value }: OverlayComponentProps) {
  return (
    <WithOverlayAccount name={name} value={value}>
      {(agent) => (
        <Stack gap="md">
          <AccountSummary account={agent} />
          <AdminActions agent={agent} />
        </Stack>
      )}
    </WithOverlayAccount>
  );
}

/** `?deleteAgent=<agentId>`: delete an agent account of the organisation in view, after a confirmation. */
export function DeleteAgentOverlay({ name, value, close }: OverlayComponentProps) {
  const { view } = useAccountState();
  const remove = useDeleteAgentAccount();
  return (
    <WithOverlayAccount name={name} value={value}>
      {(agent) => (
        <ConfirmPanel
          confirmLabel="Delete agent"
          action={remove}
          onCancel={close}
          onConfirm={() =>
            remove.mutate(
              { organizationId: agent.organizationId ?? view.account.id, agentAccountId: agent.id },
              {
                onSuccess: () => {
                  toast.success(`${agent.displayName} deleted.`);
                  close();
                },
              },
            )
          }
        >
          Delete <b>{agent.displayName}</b>? Calls and messages to it stop being answered. Its conversations
          and logs stay.
        </ConfirmPanel>
      )}
    </WithOverlayAccount>
  );
}

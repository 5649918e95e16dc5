import { Alert, SegmentedControl, Select, Stack, Text, TextInput } from "@mantine/core";
import type { TaskChannel } from "@switchboard/api";
import { formatPhoneNumber } from "@switchboard/core";
import { useEffect } from "react";
import { useLoadedAccount } from "../../lib/account-state.ts";
import { useOrganizationAgents } from "../agents/api.ts";

type AgentSelectProps = { value: number | null; onChange: (agentId: number | null) => void };

function NoNumberWarning() {
  return (
    <Alert color="yellow" variant="light" p="xs">
      <Text size="sm">
        This agent has no phone number to call or text from: its tasks will fail. Give it a number under
        Numbers first.
      </Text>
    </Alert>
  );
}

/** On an agent account in view, its tasks are its own: the agent is the account. */
function OwnAgent({ value, onChange }: AgentSelectProps) {
  const account = useLoadedAccount();
  useEffect(() => {
    if (value !== account.id) onChange(account.id);
  }, [value, account.id, onChange]);
  const name = (account.details as Record<string, unknown>).agentName;
  return (
    <Stack gap={4}>
      <TextInput label="Agent" value={typeof name === "string" ? name : account.displayName} readOnly />
      {account.switchboardPhoneNumber ? null : <NoNumberWarning />}
    </Stack>
  );
}

/** The agent of a task or list: chosen among the organisation's agents, or the agent account in view. */
export function AgentSelect(props: AgentSelectProps) {
  const account = useLoadedAccount();
  return account.accountType === "agent" ? <OwnAgent {...props} /> : <OrganizationAgentSelect {...props} />;
}

/** The organisation's agents to run tasks with; the first one with a number is chosen for you. */
function OrganizationAgentSelect({ value, onChange }: AgentSelectProps) {
  const agents = useOrganizationAgents();
  const accounts = agents.data?.accounts ?? [];
  const options = accounts.map((agent) => {
    const name = agent.agentName ?? agent.accountName ?? `Agent ${agent.id}`;
    const number = agent.switchboardPhoneNumber;
    return {
      value: String(agent.id),
      label: number ? `${name} · ${formatPhoneNumber(number)}` : `${name} (no phone number)`,
    };
  });
  const first = accounts.find((agent) => agent.switchboardPhoneNumber) ?? accounts[0];
  useEffect(() => {
    if (value === null && first) onChange(first.id);
  }, [value, first, onChange]);
  const chosen = accounts.find((agent) => agent.id === value);
  return (
    <Stack gap={4}>
      <Select
        label="Agent"
        placeholder={agents.isPending ? "Loading agents…" : "Choose an agent"}
        data={options}
        value={value === null ? null : String(value)}
        onChange={(next) => onChange(next ? Number(next) : null)}
        allowDeselect={false}
        required
        error={agents.isError ? "The agents could not be loaded." : undefined}
      />
      {chosen && !chosen.switchboardPhoneNumber ? <NoNumberWarning /> : null}
    </Stack>
  );
}

/** Call or text. */
export function ChannelControl({
  value,
  onChange,
}: {
  value: TaskChannel;
  onChange: (channel: TaskChannel) => void;
}) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id="task-channel-label">
        Channel
      </Text>
      <SegmentedControl
        aria-labelledby="task-channel-label"
        value={value}
        onChange={(next) => onChange(next as TaskChannel)}
        data={[
          { value: "text", label: "Text" },
          { value: "call", label: "Call" },
        ]}
      />
    </Stack>
  );
}

import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import type { PhoneNumber } from "@switchboard/api";
import { formatPhoneNumber } from "@switchboard/core";
import { type FormEvent, useState } from "react";
import { ConfirmButton } from "../../components/confirm/confirm-button.tsx";
import { ActionError, EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { useLoadedAccount, usePermission } from "../../lib/account-state.ts";
import { errorMessage } from "../../lib/shell-api.ts";
import { toast } from "../../lib/toast.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { useOrganizationAgents } from "../agents/api.ts";
import {
  useOutboundCall,
  usePhoneNumbers,
  usePlaceOutboundCall,
  useReleaseNumber,
  useSpeechStatus,
} from "./api.ts";
import { NumberBilling } from "./number-billing.tsx";

const OUTCOME_LABEL: Record<string, string> = {
  answered: "Answered",
  voicemail: "Voicemail (message left)",
  no_answer: "No answer",
  busy: "Busy",
  failed: "Failed",
};

export function kindLabel(number: PhoneNumber): string {
  if (number.kind === "marketplace")
    return number.provider === "sandbox" ? "Sandbox carrier" : number.provider;
  return number.byoMethod === "sip" ? "Your SIP trunk" : "Forwarded from your line";
}

function NumbersTable({ numbers }: { numbers: PhoneNumber[] }) {
  const overlays = useOverlays();
  const release = useReleaseNumber();
  const canSelect = usePermission("canSelectNumber");
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table verticalSpacing="xs" aria-label="Your phone numbers">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Number</Table.Th>
            <Table.Th>Agent</Table.Th>
            <Table.Th>Where</Table.Th>
            <Table.Th>Connected by</Table.Th>
            <Table.Th>Monthly</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {numbers.map((n) => (
            <Table.Tr key={n.id} data-number={n.number}>
              <Table.Td>
                <Text fw={500}>{formatPhoneNumber(n.number)}</Text>
              </Table.Td>
              <Table.Td>{n.agentName ?? <Text c="dimmed">No agent</Text>}</Table.Td>
              <Table.Td>{[n.locality, n.region].filter(Boolean).join(", ") || n.country}</Table.Td>
              <Table.Td>
                <Group gap={4}>
                  <Text size="sm">{kindLabel(n)}</Text>
                  {n.byoMethod === "forwarding" ? (
                    <Badge size="xs" color={n.forwardingVerifiedAt ? "green" : "yellow"} variant="light">
                      {n.forwardingVerifiedAt ? "Forwarding verified" : "Forwarding not verified"}
                    </Badge>
                  ) : null}
                </Group>
              </Table.Td>
              <Table.Td>
                <NumberBilling number={n} />
              </Table.Td>
              <Table.Td>
                <Group gap={4} justify="flex-end" wrap="nowrap">
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    onClick={() => overlays.open("number", n.number)}
                  >
                    Details
                  </Button>
                  {canSelect ? (
                    <ConfirmButton
                      color="red"
                      title={`Release ${formatPhoneNumber(n.number)}?`}
                      details={
                        n.kind === "marketplace"
                          ? "The number goes back to the carrier: callers and texters can no longer reach your agent on it, and you may not get it back."
                          : "Switchboard forgets this number; it stays yours at your carrier. Turn forwarding off there."
                      }
                      confirmText="Release"
                      confirmColor="red"
                      onConfirm={async () => {
                        try {
                          await release.mutateAsync(n.number);
                          toast.success(`${formatPhoneNumber(n.number)} released.`);
                        } catch (error) {
                          toast.error(errorMessage(error));
                        }
                      }}
                    >
                      Release
                    </ConfirmButton>
                  ) : null}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The agent calls a number (the sandbox carrier's simulated callee, or your trunk when you have one). */
function OutboundCallCard() {
  const agents = useOrganizationAgents();
  const [agentId, setAgentId] = useState<string | null>(null);
  const [to, setTo] = useState("");
  const [callId, setCallId] = useState<string | null>(null);
  const place = usePlaceOutboundCall();
  const call = useOutboundCall(callId);
  const list = agents.data?.accounts ?? [];
  const chosen = agentId ?? (list[0] ? String(list[0].id) : null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!chosen || !to.trim()) return;
    place.mutate(
      { agentId: Number(chosen), to: to.trim() },
      { onSuccess: (answer) => setCallId(answer.call.callId) },
    );
  };
  const current = call.data?.call;
  return (
    <Card withBorder padding="lg" aria-label="Outbound call">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4">
            Outbound call
          </Title>
          <Text size="sm" c="dimmed">
            Have an agent call a number now. On the sandbox carrier the callee is simulated: it answers as a
            person unless you set it up as voicemail, busy or no answer under Developers.
          </Text>
        </div>
        {agents.isError ? <ErrorState error={agents.error} onRetry={() => void agents.refetch()} /> : null}
        <form onSubmit={submit}>
          <Group align="flex-end" gap="xs">
            <Select
              label="Agent"
              data={list.map((a) => ({
                value: String(a.id),
                label: a.agentName ?? a.accountName ?? a.username,
              }))}
              value={chosen}
              onChange={setAgentId}
              allowDeselect={false}
              placeholder={agents.isPending ? "Loading…" : "No agents"}
              w={220}
            />
            <TextInput
              label="Number to call"
              placeholder="+15035550199"
              value={to}
              onChange={(e) => setTo(e.currentTarget.value)}
              w={200}
            />
            <Button type="submit" loading={place.isPending} disabled={!chosen || !to.trim()}>
              Call this number
            </Button>
          </Group>
        </form>
        {place.isError ? <ActionError error={place.error} /> : null}
        {current ? (
          <Alert
            color={current.status === "completed" ? (current.outcome === "failed" ? "red" : "green") : "blue"}
            data-testid="outbound-call-status"
          >
            {current.status === "completed"
              ? `${OUTCOME_LABEL[current.outcome ?? "failed"]}${
                  current.answeredBy
                    ? ` · answered by a ${current.answeredBy === "person" ? "person" : "machine"}`
                    : ""
                }${current.amdDecisionMs !== null ? ` (decided in ${(current.amdDecisionMs / 1000).toFixed(1)} s)` : ""}${
                  current.durationSeconds ? ` · ${current.durationSeconds} s` : ""
                }${current.error ? ` · ${current.error}` : ""}`
              : current.status === "in-progress"
                ? `On the call with ${formatPhoneNumber(current.to)}…`
                : `Calling ${formatPhoneNumber(current.to)}…`}
          </Alert>
        ) : null}
      </Stack>
    </Card>
  );
}

export function NumbersPage() {
  const numbers = usePhoneNumbers();
  const speech = useSpeechStatus();
  const overlays = useOverlays();
  const account = useLoadedAccount();
  const canSelect = usePermission("canSelectNumber");
  const canEdit = usePermission("canEditOrg");
  const agentValue = account.accountType === "agent" ? String(account.id) : undefined;
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>Numbers</Title>
          <Text c="dimmed">
            Phone numbers your agents answer and text from: buy one from the marketplace or bring your own.
          </Text>
        </div>
        {canSelect ? (
          <Group gap="xs">
            <Button variant="default" onClick={() => overlays.open("addCustomNumber", agentValue)}>
              Bring your own number
            </Button>
            <Button onClick={() => overlays.open("selectNumber", agentValue)}>Get a number</Button>
          </Group>
        ) : null}
      </Group>
      {/* Phone calls arrive as 8 kHz audio: say so where numbers are bought when recognition cannot hear it. */}
      {speech.data?.warning && numbers.data && numbers.data.numbers.length > 0 ? (
        <Alert color="yellow" variant="light" title="Your agents cannot hear phone calls well">
          {speech.data.warning}
        </Alert>
      ) : null}
      <Card withBorder padding="lg">
        {numbers.isPending ? <LoadingState /> : null}
        {numbers.isError ? <ErrorState error={numbers.error} onRetry={() => void numbers.refetch()} /> : null}
        {numbers.data && numbers.data.numbers.length === 0 ? (
          <EmptyState
            action={
              canSelect ? (
                <Button onClick={() => overlays.open("selectNumber", agentValue)}>Get a number</Button>
              ) : null
            }
          >
            No phone numbers yet. Get one so callers and texters reach your agent.
          </EmptyState>
        ) : null}
        {numbers.data && numbers.data.numbers.length > 0 ? (
          <NumbersTable numbers={numbers.data.numbers} />
        ) : null}
      </Card>
      <Group gap="xs">
        <Button variant="subtle" onClick={() => overlays.open("callVerify")}>
          Verify a caller ID
        </Button>
        <Button variant="subtle" onClick={() => overlays.open("forwardingInstructions")}>
          How to forward your line
        </Button>
      </Group>
      {canEdit ? <OutboundCallCard /> : null}
    </Stack>
  );
}

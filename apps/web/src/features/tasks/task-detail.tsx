import { Anchor, Badge, Group, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { formatPhoneNumber } from "@switchboard/core";
import { Link } from "react-router";
import { useAppPath } from "../../lib/account-context.ts";
import { appPath } from "../../lib/account-path.ts";
import { useTimeFormat } from "../../lib/use-time-format.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import type { TaskDetail } from "./api.ts";
import { OUTCOME_LABELS, STATE_COLORS, STATE_LABELS } from "./task-format.ts";

const ROLE_LABELS: Record<string, string> = { assistant: "Agent", user: "Person", operator: "Team" };

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text component="dd" m={0} size="sm">
        {children}
      </Text>
    </div>
  );
}

/** The conversation the task produced, turn by turn, with links to it in the inbox and the call logs. */
function Transcript({ task }: { task: TaskDetail }) {
  const times = useTimeFormat();
  const overlays = useOverlays();
  const { accountPrefix } = useAppPath();
  return (
    <Stack gap="xs" component="section" aria-label="Transcript">
      <Group justify="space-between">
        <Text fw={600} size="sm">
          Conversation
        </Text>
        <Group gap="sm">
          {task.conversationId && task.channel === "text" ? (
            <Anchor
              component={Link}
              size="sm"
              to={`${appPath(accountPrefix, "inbox")}?active=${task.conversationId}`}
            >
              Open in the inbox
            </Anchor>
          ) : null}
          {task.conversationId && task.conversationUuid ? (
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() =>
                overlays.open("callTranscript", `${task.conversationId}/${task.conversationUuid}`)
              }
            >
              Full transcript
            </Anchor>
          ) : null}
        </Group>
      </Group>
      {task.transcript.length === 0 ? (
        <Text size="sm" c="dimmed">
          {task.conversationUuid ? "No messages yet." : "No conversation yet: the task has not run."}
        </Text>
      ) : (
        task.transcript.map((line, index) => (
          <Paper
            // biome-ignore lint/suspicious/noArrayIndexKey: transcript lines are known by their place.
            key={index}
            withBorder
            p="xs"
            bg={line.role === "assistant" ? "var(--mantine-color-blue-light)" : undefined}
            data-role={line.role}
          >
            <Group justify="space-between" gap="xs">
              <Text size="xs" fw={600}>
                {ROLE_LABELS[line.role] ?? line.role}
              </Text>
              <Text size="xs" c="dimmed">
                {times.format(line.at, "time")}
              </Text>
            </Group>
            <Text size="sm" style={{ whiteSpace: "pre-wrap" }}>
              {line.text}
            </Text>
          </Paper>
        ))
      )}
    </Stack>
  );
}

/** One task: the person, state and outcome, its attempts, and the conversation it produced. */
export function TaskDetailView({ task }: { task: TaskDetail }) {
  const times = useTimeFormat();
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={3} size="h4" data-testid="task-person">
          {task.name || formatPhoneNumber(task.phoneNumber)}
        </Title>
        <Group gap="xs">
          <Badge variant="light" color={STATE_COLORS[task.state]} data-testid="task-detail-state">
            {STATE_LABELS[task.state]}
          </Badge>
          {task.outcome ? (
            <Badge variant="outline" data-testid="task-detail-outcome">
              {OUTCOME_LABELS[task.outcome]}
            </Badge>
          ) : null}
          <Badge variant="default">{task.channel === "call" ? "Call" : "Text"}</Badge>
        </Group>
      </Stack>
      <Stack component="dl" gap={6} m={0}>
        <Fact label="Phone number">{formatPhoneNumber(task.phoneNumber)}</Fact>
        <Fact label="Agent">{task.agentName ?? `Agent ${task.agentId}`}</Fact>
        {task.email ? <Fact label="E-mail">{task.email}</Fact> : null}
        {task.timeZone ? <Fact label="Time zone">{task.timeZone}</Fact> : null}
        {task.message ? <Fact label="Message">{task.message}</Fact> : null}
        {Object.keys(task.variables).length > 0 ? (
          <Fact label="Variables">
            {Object.entries(task.variables)
              .map(([key, value]) => `${key}: ${value}`)
              .join(" · ")}
          </Fact>
        ) : null}
        {task.nextAttemptAt ? (
          <Fact label="Next attempt">{times.format(task.nextAttemptAt, "dateTime")}</Fact>
        ) : null}
        {task.answeredBy ? (
          <Fact label="Answered by">
            {task.answeredBy}
            {task.amdDecisionMs !== null ? ` (decided in ${(task.amdDecisionMs / 1000).toFixed(1)} s)` : ""}
          </Fact>
        ) : null}
        {task.lastError ? <Fact label="Last error">{task.lastError}</Fact> : null}
      </Stack>
      {task.history.length > 0 ? (
        <Table.ScrollContainer minWidth={280}>
          <Table fz="xs" aria-label="Attempts">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Attempt</Table.Th>
                <Table.Th>Started</Table.Th>
                <Table.Th>Outcome</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {task.history.map((attempt) => (
                <Table.Tr key={attempt.attempt}>
                  <Table.Td>{attempt.attempt}</Table.Td>
                  <Table.Td>{times.format(attempt.startedAt, "dateTime")}</Table.Td>
                  <Table.Td>
                    {attempt.outcome
                      ? (OUTCOME_LABELS[attempt.outcome as keyof typeof OUTCOME_LABELS] ?? attempt.outcome)
                      : attempt.endedAt
                        ? "Sent"
                        : "Running"}
                    {attempt.error ? ` — ${attempt.error}` : ""}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      <Transcript task={task} />
    </Stack>
  );
}

import { ActionIcon, Alert, Badge, Button, Group, Progress, Stack, Table, Text } from "@mantine/core";
import type { TestRun } from "@switchboard/api";
import IconTrash from "@tabler/icons-react/dist/esm/icons/IconTrash.mjs";
import { useState } from "react";
import { confirm } from "../../components/confirm/confirm-store.ts";
import { ActionError, EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { useAgentTests, useDeleteScenario, useRunTests } from "./api.ts";
import { RunHistory, RunResults, VerdictBadge } from "./run-results.tsx";
import { checkText } from "./scenario-checks.ts";
import { ScenarioForm } from "./scenario-form.tsx";

function RunProgress({ run }: { run: TestRun }) {
  return (
    <Stack gap={4} role="status" aria-live="polite">
      <Text size="sm">
        Running: {run.done} of {run.total} scenarios done
      </Text>
      <Progress value={(100 * run.done) / Math.max(1, run.total)} animated aria-label="Test run progress" />
    </Stack>
  );
}

function RunSummary({ run, revision }: { run: TestRun; revision: number }) {
  return (
    <Stack gap="xs">
      <Text size="sm" role="status">
        Last run (revision {run.revision}
        {run.revision === revision ? ", the current draft" : ""}): {run.passed} passed, {run.failed} failed.
      </Text>
      {run.error ? <Text c="red">{run.error}</Text> : null}
    </Stack>
  );
}

/** The agent's test suite: its scenarios, a run through real calls, and each scenario's verdict. */
export function AgentTestsPanel({ agentId }: { agentId: number }) {
  const tests = useAgentTests(agentId);
  const run = useRunTests(agentId);
  const remove = useDeleteScenario(agentId);
  const [adding, setAdding] = useState(false);
  if (tests.isError)
    return (
      <ErrorState
        title="The tests could not be loaded"
        error={tests.error}
        onRetry={() => void tests.refetch()}
      />
    );
  if (!tests.data) return <LoadingState label="Loading the tests…" />;
  const { scenarios, runs, revision } = tests.data;
  const latest = runs[0];
  const running = latest?.status === "running";
  const verdictOf = (scenarioId: number) =>
    latest?.results.find((result) => result.scenarioId === scenarioId)?.verdict;

  const deleteScenario = async (id: number, name: string) => {
    if (await confirm({ title: `Delete “${name}”?`, confirmText: "Delete", confirmColor: "red" }))
      remove.mutate(id);
  };

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text>
          Each scenario is a real call to the draft: a simulated caller says its lines, and the checks are
          judged on what the agent said and did.
        </Text>
        <Group gap="xs">
          <Button variant="default" onClick={() => setAdding(true)} disabled={adding}>
            Add scenario
          </Button>
          <Button
            onClick={() => run.mutate()}
            loading={run.isPending}
            disabled={running || scenarios.length === 0}
          >
            Run tests
          </Button>
        </Group>
      </Group>
      <ActionError error={run.error ?? remove.error} />
      {adding ? <ScenarioForm agentId={agentId} onDone={() => setAdding(false)} /> : null}
      {scenarios.length === 0 && !adding ? (
        <EmptyState>
          No test scenarios yet. Add one: what a caller says, and what the agent must say, never say or do.
        </EmptyState>
      ) : null}
      {scenarios.length > 0 ? (
        <Table aria-label="Test scenarios">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Scenario</Table.Th>
              <Table.Th>Checks</Table.Th>
              <Table.Th>Last verdict</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {scenarios.map((scenario) => {
              const verdict = verdictOf(scenario.id);
              return (
                <Table.Tr key={scenario.id}>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {scenario.name}
                    </Text>
                    {scenario.required ? (
                      <Badge size="xs" variant="outline">
                        Required
                      </Badge>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{scenario.checks.map(checkText).join("; ")}</Text>
                  </Table.Td>
                  <Table.Td>
                    {verdict ? <VerdictBadge verdict={verdict} /> : <Text size="sm">Not run</Text>}
                  </Table.Td>
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Delete ${scenario.name}`}
                      onClick={() => void deleteScenario(scenario.id, scenario.name)}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      ) : null}
      {latest?.note ? (
        <Alert variant="light" color="blue" title="Sandbox model">
          {latest.note}
        </Alert>
      ) : null}
      {latest ? (
        running ? (
          <RunProgress run={latest} />
        ) : (
          <RunSummary run={latest} revision={revision} />
        )
      ) : null}
      {latest ? <RunResults run={latest} /> : null}
      <RunHistory runs={runs} />
    </Stack>
  );
}

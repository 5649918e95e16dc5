import { Badge, Card, Group, List, Stack, Text } from "@mantine/core";
import type { TestResult, TestRun } from "@switchboard/api";
import { checkText } from "./scenario-checks.ts";

const VERDICT_COLORS = { passed: "teal", failed: "red", error: "orange" } as const;
const VERDICT_LABELS = { passed: "Passed", failed: "Failed", error: "Could not run" } as const;

export function VerdictBadge({ verdict }: { verdict: TestResult["verdict"] }) {
  return (
    <Badge color={VERDICT_COLORS[verdict]} variant="light">
      {VERDICT_LABELS[verdict]}
    </Badge>
  );
}

function timingsText(timings: TestResult["timings"]): string {
  const parts = [`Call ${(timings.durationMs / 1000).toFixed(1)} s`];
  if (timings.greetingMs !== null) parts.push(`greeting after ${Math.round(timings.greetingMs)} ms`);
  if (timings.answerMs.length > 0)
    parts.push(`answers ${timings.answerMs.map((ms) => `${ms} ms`).join(", ")}`);
  if (timings.p95Ms !== null) parts.push(`p95 ${timings.p95Ms} ms`);
  return parts.join(" · ");
}

/** One scenario's result: its verdict, each check's, the call's timings and transcript. */
function ResultCard({ result }: { result: TestResult }) {
  return (
    <Card withBorder padding="sm" aria-label={`Result: ${result.name}`}>
      <Stack gap={6}>
        <Group justify="space-between">
          <Text fw={600}>{result.name}</Text>
          <VerdictBadge verdict={result.verdict} />
        </Group>
        {result.error ? <Text c="red">{result.error}</Text> : null}
        <List size="sm" spacing={2}>
          {result.checks.map((check, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a scenario may repeat a check
            <List.Item key={index}>
              {check.passed ? "✓" : "✗"} {checkText(check.check)}: {check.detail}
            </List.Item>
          ))}
        </List>
        <Text size="xs" c="dimmed">
          {timingsText(result.timings)}
        </Text>
        <details>
          <summary>Transcript</summary>
          <Stack gap={2} mt={4}>
            {result.transcript.map((line, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: lines repeat
              <Text size="sm" key={index}>
                <b>{line.role === "agent" ? "Agent" : "Caller"}:</b> {line.text}
              </Text>
            ))}
          </Stack>
        </details>
      </Stack>
    </Card>
  );
}

export function RunResults({ run }: { run: TestRun }) {
  return (
    <Stack gap="xs">
      {run.results.map((result) => (
        <ResultCard key={result.scenarioId} result={result} />
      ))}
    </Stack>
  );
}

/** Earlier runs: which revision each called and how it went, so the change that broke a scenario shows. */
export function RunHistory({ runs }: { runs: TestRun[] }) {
  if (runs.length < 2) return null;
  return (
    <Stack gap={4}>
      <Text fw={600} size="sm">
        Earlier runs
      </Text>
      <List size="sm" aria-label="Earlier runs">
        {runs.slice(1).map((run) => (
          <List.Item key={run.id}>
            Revision {run.revision}: {run.passed} passed, {run.failed} failed
            {run.results.some((r) => r.verdict !== "passed")
              ? ` (${run.results
                  .filter((r) => r.verdict !== "passed")
                  .map((r) => r.name)
                  .join(", ")})`
              : ""}
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}

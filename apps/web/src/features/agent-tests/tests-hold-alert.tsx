import { Alert, Button, Group, List } from "@mantine/core";
import { AGENT_TEST_MESSAGES, type FailingTest } from "@switchboard/api";

const STATE_TEXT: Record<FailingTest["state"], string> = {
  failed: "failed",
  error: "could not run",
  "not run": "not run on this draft",
};

/** A publish the agent's required tests held: which scenarios, and the owner's choice to publish anyway. */
export function TestsHoldAlert({
  failing,
  onOpenTests,
  onPublishAnyway,
  publishing,
}: {
  failing: FailingTest[];
  onOpenTests: () => void;
  onPublishAnyway: () => void;
  publishing: boolean;
}) {
  return (
    <Alert color="yellow" variant="light" role="alert" title={AGENT_TEST_MESSAGES.publishHeld}>
      <List size="sm" mb="xs">
        {failing.map((test) => (
          <List.Item key={test.scenarioId}>
            {test.name}: {STATE_TEXT[test.state]}
          </List.Item>
        ))}
      </List>
      <Group gap="xs">
        <Button size="xs" variant="default" onClick={onOpenTests}>
          Open tests
        </Button>
        <Button size="xs" color="yellow" onClick={onPublishAnyway} loading={publishing}>
          Publish anyway
        </Button>
      </Group>
    </Alert>
  );
}

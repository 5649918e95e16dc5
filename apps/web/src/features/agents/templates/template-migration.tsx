import { Alert, Button, Group, List, Stack, Text } from "@mantine/core";
import { MIGRATION_FAILED_MESSAGE, type Migration } from "@switchboard/api";
import { countOf } from "@switchboard/core";
import { useState } from "react";
import { toast } from "../../../lib/toast.ts";
import { campaignErrorText, migrateTemplateAgents } from "../api.ts";

function MigrationPreview({ migration }: { migration: Migration }) {
  if (migration.agents.length === 0)
    return <Text size="sm">No agent made from this template needs a change.</Text>;
  return (
    <List size="sm" spacing={4} aria-label="Migration preview">
      {migration.agents.map((agent) => (
        <List.Item key={agent.agentId}>
          Agent #{agent.agentId} ({agent.stages.join(" and ")}):{" "}
          {agent.changedFields.length ? agent.changedFields.join(", ") : "no field changes"}
        </List.Item>
      ))}
    </List>
  );
}

/**
 * Bringing the agents made from a template up to date: a dry run first shows what would change for each,
 * then the migration. Failures show the server's message, else `Migration failed` (spec §8).
 */
export function TemplateMigration({
  templateId,
  onMigrated,
}: {
  templateId: number;
  onMigrated?: () => void;
}) {
  const [preview, setPreview] = useState<Migration | null>(null);
  const [running, setRunning] = useState<"dry" | "real" | null>(null);
  const [error, setError] = useState<string | null>(null);

  const migrate = async (dryRun: boolean) => {
    setRunning(dryRun ? "dry" : "real");
    setError(null);
    try {
      const answer = await migrateTemplateAgents(templateId, dryRun);
      if (dryRun) setPreview(answer.migration);
      else {
        setPreview(null);
        toast.success(answer.message || MIGRATION_FAILED_MESSAGE);
        onMigrated?.();
      }
    } catch (failure) {
      setError(campaignErrorText(failure, MIGRATION_FAILED_MESSAGE, MIGRATION_FAILED_MESSAGE));
    } finally {
      setRunning(null);
    }
  };

  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Button variant="default" size="xs" loading={running === "dry"} onClick={() => void migrate(true)}>
          Preview the migration
        </Button>
        <Button
          size="xs"
          loading={running === "real"}
          disabled={!preview || preview.agents.length === 0}
          onClick={() => void migrate(false)}
        >
          {preview ? `Migrate ${countOf(preview.agents.length, "agent")}` : "Migrate agents"}
        </Button>
      </Group>
      {preview ? <MigrationPreview migration={preview} /> : null}
      {error ? (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      ) : null}
    </Stack>
  );
}

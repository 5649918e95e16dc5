import { Alert, Button, Group, Stack, Table, Text } from "@mantine/core";
import { countOf, pluralize } from "@switchboard/core";
import type { UploadAnswer } from "./upload.ts";

/** The rows left out of an upload (or a check): line of the file (the header is line 1), reason, value. */
export function RowErrors({ answer }: { answer: UploadAnswer }) {
  if (answer.errorCount === 0) return null;
  const shown = answer.errors.length;
  return (
    <>
      <Table.ScrollContainer minWidth={280}>
        <Table fz="sm" withTableBorder aria-label="Row errors">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Line</Table.Th>
              <Table.Th>Reason</Table.Th>
              <Table.Th>Value</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {answer.errors.map((error) => (
              <Table.Tr key={`${error.line}-${error.reason}`} data-testid="row-error">
                <Table.Td>{error.line}</Table.Td>
                <Table.Td>{error.reason}</Table.Td>
                <Table.Td>{error.value ?? "—"}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {answer.errorCount > shown ? (
        <Text size="xs" c="dimmed">
          The first {shown} of {answer.errorCount} row errors are shown.
        </Text>
      ) : null}
    </>
  );
}

/** What a check of the file (dryRun) found, before anything is imported. */
export function CheckResult({ answer }: { answer: UploadAnswer }) {
  const good = answer.rows - answer.errorCount;
  return (
    <Stack gap="xs" aria-label="Check result">
      <Alert color={answer.errorCount > 0 ? "yellow" : "teal"} variant="light" role="status">
        {good} of {countOf(answer.rows, "row")} can be imported.
        {answer.errorCount > 0 ? ` ${countOf(answer.errorCount, "row")} would be left out.` : ""}
      </Alert>
      <RowErrors answer={answer} />
    </Stack>
  );
}

/** After the upload: how many rows became tasks, and the rows left out. */
export function UploadResult({
  answer,
  onAnother,
  onClose,
}: {
  answer: UploadAnswer;
  onAnother: () => void;
  onClose: () => void;
}) {
  return (
    <Stack gap="sm" aria-label="Upload result">
      <Alert color={answer.imported > 0 ? "teal" : "yellow"} variant="light" role="status">
        Imported {answer.imported} of {countOf(answer.rows, "row")}
        {answer.list ? ` into the list “${answer.list.name}”` : ""}.
        {answer.errorCount > 0
          ? ` ${countOf(answer.errorCount, "row")} ${pluralize(answer.errorCount, "was", "were")} left out.`
          : ""}
      </Alert>
      <RowErrors answer={answer} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onAnother}>
          Upload another
        </Button>
        <Button onClick={onClose}>Done</Button>
      </Group>
    </Stack>
  );
}

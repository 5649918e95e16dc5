import { Alert, Badge, Code, Group, Modal, Stack, Table, Text } from "@mantine/core";
import { callAnalysisSchema } from "@switchboard/api";
import { LOG_FIXED_FIELDS } from "@switchboard/core";
import { LoadingState } from "../../components/query-state.tsx";
import { errorMessage } from "../../lib/shell-api.ts";
import { useTranscript } from "./api.ts";
import { type CellContext, fieldLabel, formatCell, formatDuration } from "./log-format.ts";
import { RecordingTranscript } from "./recording-transcript.tsx";

export type Row = Record<string, unknown>;

/** The dialog a row's menu opened, and its row. */
export type Dialog = { kind: "details" | "stats" | "data" | "json"; row: Row } | null;

function CallStats({ row }: { row: Row }) {
  const transcript = useTranscript(String(row.roomId ?? ""), String(row.uuid ?? ""));
  if (!row.roomId) return <Text>No conversation is stored for this call.</Text>;
  if (transcript.isPending) return <LoadingState label="Loading the call…" />;
  if (transcript.isError) return <Alert color="red">{errorMessage(transcript.error)}</Alert>;
  const messages = transcript.data.conversation;
  const turns = messages.filter((message) => message.role === "assistant");
  const firstTokens = turns
    .map((turn) => turn.firstTokenMs)
    .filter((ms): ms is number => ms !== null && ms > 0);
  const stats: Array<[string, string]> = [
    ["Duration", formatDuration(Number(row.duration ?? 0))],
    ["Messages", String(messages.length)],
    ["Caller messages", String(messages.filter((message) => message.role === "user").length)],
    ["Agent turns", String(turns.length)],
    ["Failed turns", String(turns.filter((turn) => turn.status === "failed").length)],
    ["Tool calls", String(turns.reduce((sum, turn) => sum + turn.toolCalls.length, 0))],
    [
      "Average first answer",
      firstTokens.length > 0
        ? `${Math.round(firstTokens.reduce((a, b) => a + b, 0) / firstTokens.length)} ms`
        : "—",
    ],
    ["Model", transcript.data.info.model ?? "—"],
  ];
  return <KeyValues entries={stats} />;
}

function KeyValues({ entries }: { entries: Array<[string, string]> }) {
  return (
    <Table withRowBorders={false} verticalSpacing={4}>
      <Table.Tbody>
        {entries.map(([key, value]) => (
          <Table.Tr key={key}>
            <Table.Th w="40%" fw={500}>
              {key}
            </Table.Th>
            <Table.Td style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The call's analysis (summary, verdict against the agent's rule, its fields), once its job wrote it. */
function Analysis({ row }: { row: Row }) {
  const transcript = useTranscript(String(row.roomId ?? ""), String(row.uuid ?? ""));
  if (!row.roomId || transcript.isPending || transcript.isError) return null;
  const parsed = callAnalysisSchema.safeParse(transcript.data.info.outcome.analysis);
  if (!parsed.success)
    return (
      <Text size="sm" c="dimmed">
        No analysis yet: it is written shortly after the call ends.
      </Text>
    );
  const analysis = parsed.data;
  const verdict =
    analysis.successful === null ? (
      <Badge color="gray">No verdict</Badge>
    ) : analysis.successful ? (
      <Badge color="green">Successful</Badge>
    ) : (
      <Badge color="red">Not successful</Badge>
    );
  const value = (v: string | number | boolean) => (typeof v === "boolean" ? (v ? "Yes" : "No") : String(v));
  return (
    <Stack gap={4} data-testid="call-analysis">
      <Group gap="xs">
        <Text fw={500}>Analysis</Text>
        {verdict}
      </Group>
      <Text size="sm">{analysis.summary}</Text>
      <Text size="sm" c="dimmed">
        {analysis.successEvaluation}
      </Text>
      <KeyValues
        entries={[
          ...Object.entries(analysis.fields).map(([name, v]): [string, string] => [name, value(v)]),
          ...analysis.undetermined
            .filter((name) => name !== "success")
            .map((name): [string, string] => [name, "Could not be determined"]),
        ]}
      />
      <Text size="xs" c="dimmed">
        By {analysis.model}
      </Text>
    </Stack>
  );
}

/**
 * The call's recording (agents that record calls) with its transcript following along; the player alone
 * while the transcript loads or when it cannot be read.
 */
function Recording({ row }: { row: Row }) {
  const url = typeof row.recordingUrl === "string" ? row.recordingUrl : null;
  const transcript = useTranscript(url ? String(row.roomId ?? "") : "", String(row.uuid ?? ""));
  if (!url) return null;
  return (
    <Stack gap={4}>
      <Text fw={500}>Recording</Text>
      {transcript.isPending && row.roomId ? <LoadingState label="Loading the transcript…" /> : null}
      {transcript.isError ? <Alert color="red">{errorMessage(transcript.error)}</Alert> : null}
      <RecordingTranscript
        url={url}
        messages={transcript.data?.conversation ?? []}
        startedAt={transcript.data?.info.startedAt ?? 0}
      />
    </Stack>
  );
}

export function RowDialog({
  dialog,
  close,
  cellContext,
}: {
  dialog: Dialog;
  close: () => void;
  cellContext: (field: string, row: Row) => CellContext;
}) {
  if (!dialog) return null;
  const { row } = dialog;
  const fixed = LOG_FIXED_FIELDS as readonly string[];
  const title =
    dialog.kind === "details"
      ? "Call details"
      : dialog.kind === "stats"
        ? "Call stats"
        : dialog.kind === "data"
          ? "Collected data"
          : "JSON";
  return (
    <Modal opened onClose={close} title={title} size="lg" transitionProps={{ duration: 150 }}>
      {dialog.kind === "details" ? (
        <Stack gap="md">
          <KeyValues
            entries={fixed
              .filter((field) => field in row)
              .map((field) => [fieldLabel(field), formatCell(field, row[field], cellContext(field, row))])}
          />
          <Analysis row={row} />
          <Recording row={row} />
        </Stack>
      ) : dialog.kind === "stats" ? (
        <CallStats row={row} />
      ) : dialog.kind === "data" ? (
        Object.keys(row).some((key) => !fixed.includes(key)) ? (
          <KeyValues
            entries={Object.keys(row)
              .filter((key) => !fixed.includes(key))
              .map((key) => [fieldLabel(key), formatCell(key, row[key], cellContext(key, row))])}
          />
        ) : (
          <Text c="dimmed">The agent collected no data on this call.</Text>
        )
      ) : (
        <Code block>{JSON.stringify(row, null, 2)}</Code>
      )}
    </Modal>
  );
}

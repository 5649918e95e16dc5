import { Alert, Button, FileInput, Group, Progress, Stack, Text, Textarea, TextInput } from "@mantine/core";
import type { TaskChannel } from "@switchboard/api";
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { ActionError } from "../../components/query-state.tsx";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { useInvalidateAfterUpload } from "./api.ts";
import { CsvMapping } from "./csv-mapping.tsx";
import {
  type ColumnOverrides,
  type CsvPreview,
  mappingQuery,
  type PersonField,
  previewCsv,
} from "./csv-preview.ts";
import { AgentSelect, ChannelControl } from "./task-fields.tsx";
import { type UploadAnswer, uploadTaskList } from "./upload.ts";
import { CheckResult, UploadResult } from "./upload-result.tsx";

/** Bytes of the file read for the mapping preview. */
const PREVIEW_BYTES = 64 * 1024;

/**
 * `?uploadTaskList`: a CSV of people becomes a list of tasks. Choose the agent and channel, pick the file,
 * check the column mapping on its first rows, upload (with progress), then read what was imported and the
 * rows left out with their line and reason.
 */
export function UploadTaskListOverlay({ close }: OverlayComponentProps) {
  const invalidate = useInvalidateAfterUpload();
  const [agentId, setAgentId] = useState<number | null>(null);
  const [channel, setChannel] = useState<TaskChannel>("text");
  const [name, setName] = useState("");
  const [message, setMessage] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [text, setText] = useState<{ text: string; truncated: boolean } | null>(null);
  const [overrides, setOverrides] = useState<ColumnOverrides>({});
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [answer, setAnswer] = useState<UploadAnswer | null>(null);
  const [checked, setChecked] = useState<UploadAnswer | null>(null);

  useEffect(() => {
    setText(null);
    setOverrides({});
    setChecked(null);
    if (!file) return;
    let current = true;
    void file
      .slice(0, PREVIEW_BYTES)
      .text()
      .then((start) => {
        if (current) setText({ text: start, truncated: file.size > PREVIEW_BYTES });
      });
    return () => {
      current = false;
    };
  }, [file]);

  const preview: CsvPreview | null = text
    ? previewCsv(text.text, overrides, { truncated: text.truncated })
    : null;
  const choose = useCallback((field: PersonField, header: string | null) => {
    setChecked(null);
    setOverrides((current) => ({ ...current, [field]: header ?? undefined }));
  }, []);

  /** Sends the file: a check only (dryRun: nothing is imported), or the upload itself. */
  const send = async (dryRun: boolean) => {
    if (!file || agentId === null || !preview || preview.missingPhone) return;
    setError(null);
    setProgress(0);
    try {
      const result = await uploadTaskList(
        file,
        {
          agentId,
          channel,
          name: name.trim() || undefined,
          message: channel === "text" ? message.trim() || undefined : undefined,
          ...mappingQuery(preview.headers, overrides),
          ...(dryRun ? { dryRun: "true" as const } : {}),
        },
        setProgress,
      );
      if (dryRun) setChecked(result);
      else {
        setAnswer(result);
        void invalidate();
      }
    } catch (failure) {
      setError(failure);
    } finally {
      setProgress(null);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void send(false);
  };

  if (answer)
    return (
      <UploadResult
        answer={answer}
        onClose={close}
        onAnother={() => {
          setAnswer(null);
          setFile(null);
          setName("");
        }}
      />
    );

  const uploading = progress !== null;
  return (
    <form onSubmit={submit} aria-label="Upload a list">
      <Stack gap="sm">
        <AgentSelect value={agentId} onChange={setAgentId} />
        <ChannelControl value={channel} onChange={setChannel} />
        <FileInput
          label="CSV file"
          description="One person a row; the first line names the columns. Up to 100,000 rows and 20 MB."
          placeholder="Choose a .csv file"
          accept=".csv,text/csv"
          value={file}
          onChange={setFile}
          clearable
          clearButtonProps={{ "aria-label": "Remove the file" }}
          required
        />
        {preview ? <CsvMapping preview={preview} overrides={overrides} onChange={choose} /> : null}
        {file && text && !preview ? (
          <Alert color="red" variant="light" role="alert">
            The file has no rows.
          </Alert>
        ) : null}
        <TextInput
          label="List name"
          placeholder={file ? file.name.replace(/\.csv$/i, "") : "The file's name"}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          maxLength={200}
        />
        {channel === "text" ? (
          <Textarea
            label="Message"
            description="Leave empty and the agent introduces itself (an “about” column says why). {column} is filled in from each row."
            value={message}
            onChange={(event) => setMessage(event.currentTarget.value)}
            maxLength={1600}
            autosize
            minRows={2}
          />
        ) : null}
        {uploading ? (
          <Stack gap={4}>
            <Progress value={Math.round(progress * 100)} aria-label="Upload progress" animated />
            <Text size="xs" c="dimmed">
              {progress < 1 ? `Uploading… ${Math.round(progress * 100)}%` : "Importing the rows…"}
            </Text>
          </Stack>
        ) : null}
        {checked ? <CheckResult answer={checked} /> : null}
        <ActionError error={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button
            variant="light"
            disabled={uploading || !file || !preview || preview.missingPhone || agentId === null}
            onClick={() => void send(true)}
          >
            Check rows
          </Button>
          <Button
            type="submit"
            loading={uploading}
            disabled={!file || !preview || preview.missingPhone || agentId === null}
          >
            Upload
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

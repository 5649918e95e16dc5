import { Button, Group, Progress, Stack, Text } from "@mantine/core";
import { countOf, type LogScreenState } from "@switchboard/core";
import IconDownload from "@tabler/icons-react/dist/esm/icons/IconDownload.mjs";
import { useState } from "react";
import { errorMessage } from "../../lib/shell-api.ts";
import { toast } from "../../lib/toast.ts";
import { type ExportProgress, exportLogs } from "./api.ts";

/** Export CSV and Export JSON of the calls in view, with the export's progress. */
export function ExportButtons({ state, total }: { state: LogScreenState; total: number }) {
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const [running, setRunning] = useState<"csv" | "json" | null>(null);
  const run = async (format: "csv" | "json") => {
    setRunning(format);
    try {
      const name = await exportLogs(state, format, total, setProgress);
      toast.success(`Saved ${name}`);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setRunning(null);
    }
  };
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <Button
          variant="default"
          leftSection={<IconDownload size={16} />}
          loading={running === "csv"}
          disabled={running !== null}
          onClick={() => void run("csv")}
        >
          Export CSV
        </Button>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} />}
          loading={running === "json"}
          disabled={running !== null}
          onClick={() => void run("json")}
        >
          Export JSON
        </Button>
      </Group>
      {progress && (running !== null || progress.done) ? (
        <Stack gap={2} w={240} aria-label="Export progress">
          <Progress
            value={progress.expected > 0 ? Math.min(100, (progress.rows / progress.expected) * 100) : 100}
            animated={!progress.done}
            size="sm"
          />
          <Text size="xs" c="dimmed">
            {progress.done
              ? `Exported ${countOf(progress.rows, "row")}`
              : `Exporting… ${progress.rows.toLocaleString("en-US")} of ${countOf(progress.expected, "row")}`}
          </Text>
        </Stack>
      ) : null}
    </Stack>
  );
}

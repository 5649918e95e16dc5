import { Badge, Text } from "@mantine/core";
import IconCheck from "@tabler/icons-react/dist/esm/icons/IconCheck.mjs";
import { useTimeFormat } from "../lib/use-time-format.ts";

/** "Saved at 5:13 PM" beside a form's button: the saved state in place, not only a passing toast. */
export function SavedNote({ at, label = "Saved" }: { at: number | null; label?: string }) {
  const times = useTimeFormat();
  if (at === null) return null;
  return (
    <Text
      size="sm"
      c="teal"
      role="status"
      data-testid="saved-note"
      style={{ display: "inline-flex", gap: 4 }}
    >
      <IconCheck size={16} aria-hidden /> {label} at {times.format(at, "time")}
    </Text>
  );
}

/** A list row's badge for a record this tab just saved or created. */
export function SavedBadge({ mark }: { mark: { label: string; at: number } | null }) {
  if (!mark) return null;
  return (
    <Badge size="xs" variant="light" color="teal" leftSection={<IconCheck size={10} aria-hidden />}>
      {mark.label}
    </Badge>
  );
}

import { Group, Paper, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { useTimeFormat } from "../../lib/use-time-format.ts";

/** One turn of a call's transcript: the agent's on the left and tinted, the caller's on the right. */
export function TranscriptBubble({
  who,
  at,
  children,
}: {
  who: "agent" | "caller" | (string & {});
  at: Date | number;
  children: ReactNode;
}) {
  const agent = who === "agent";
  const { format } = useTimeFormat();
  return (
    <Paper
      withBorder
      p="sm"
      bg={agent ? "var(--mantine-color-blue-light)" : undefined}
      ml={agent ? 0 : "xl"}
      mr={agent ? "xl" : 0}
    >
      <Group justify="space-between" mb={4}>
        <Text size="xs" fw={600}>
          {agent ? "Agent" : who === "caller" ? "Caller" : who}
        </Text>
        <Text size="xs" c="dimmed">
          {format(at, "time")}
        </Text>
      </Group>
      {children}
    </Paper>
  );
}

/** The transcript's name for a stored message's role. */
export const speakerOf = (role: string) =>
  role === "assistant" ? "agent" : role === "user" ? "caller" : role;

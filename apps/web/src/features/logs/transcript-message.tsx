import { Text } from "@mantine/core";
import type { TranscriptEntry } from "@switchboard/api";
import { speakerOf, TranscriptBubble } from "./transcript-bubble.tsx";

/**
 * One stored message of a call's transcript: its words, its tools' results, and why it failed. A message
 * with no words says why instead of showing an empty bubble (an agent cut off by the caller before a word
 * was heard keeps its place in the conversation).
 */
export function TranscriptMessage({ message }: { message: TranscriptEntry }) {
  const failed = message.status === "failed";
  return (
    <TranscriptBubble who={speakerOf(message.role)} at={message.createdAt}>
      {message.text ? (
        <Text size="sm" style={{ whiteSpace: "pre-wrap" }}>
          {message.text}
        </Text>
      ) : !failed && message.error ? (
        <Text size="sm" c="dimmed" fs="italic">
          {message.error}
        </Text>
      ) : null}
      {message.toolResults.map((result) => (
        <Text key={result.toolCallId} size="xs" c="dimmed">
          {result.name}: {result.summary}
        </Text>
      ))}
      {failed ? (
        <Text size="xs" c="red">
          {message.error ?? "This turn failed."}
        </Text>
      ) : null}
    </TranscriptBubble>
  );
}

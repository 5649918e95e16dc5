import { Paper, Stack, Text } from "@mantine/core";
import { useTimeFormat } from "../../lib/use-time-format.ts";
import type { ConversationDetail, InboxMessage } from "./api.ts";
import { MessageBubble } from "./message-bubble.tsx";

/** One entry of a person's thread: a text message, or a call with the lines said on it. */
export type ThreadEntry =
  | { kind: "message"; message: InboxMessage }
  | { kind: "call"; uuid: string; messages: InboxMessage[] };

/** A thread's messages as entries: the lines of each call together, in the order they came. */
export function threadEntries(messages: readonly InboxMessage[]): ThreadEntry[] {
  const entries: ThreadEntry[] = [];
  for (const message of messages) {
    const uuid = message.callUuid ?? null;
    const last = entries.at(-1);
    if (uuid === null) entries.push({ kind: "message", message });
    else if (last?.kind === "call" && last.uuid === uuid) last.messages.push(message);
    else entries.push({ kind: "call", uuid, messages: [message] });
  }
  return entries;
}

/** The messages of a thread: texts as bubbles, each call as one entry holding its transcript. */
export function ThreadMessages(props: { detail: ConversationDetail }) {
  const times = useTimeFormat();
  const { detail } = props;
  return threadEntries(detail.messages).map((entry) =>
    entry.kind === "message" ? (
      <MessageBubble key={entry.message.id} message={entry.message} detail={detail} />
    ) : (
      <Paper
        key={entry.uuid}
        withBorder
        p="xs"
        radius="md"
        role="group"
        aria-label={`Call ${times.format(entry.messages[0]?.createdAt ?? 0, "shortDateTime")}`}
      >
        <Text size="xs" fw={600} mb={4}>
          Call · {times.format(entry.messages[0]?.createdAt ?? 0, "shortDateTime")}
        </Text>
        <Stack gap="xs">
          {entry.messages.map((message) => (
            <MessageBubble key={message.id} message={message} detail={detail} />
          ))}
        </Stack>
      </Paper>
    ),
  );
}

import { ActionIcon, Badge, Group, Menu, Paper, Stack, Text } from "@mantine/core";
import { REACTIONS } from "@switchboard/api";
import { useTimeFormat } from "../../lib/use-time-format.ts";
import { type ConversationDetail, type InboxMessage, useReaction } from "./api.ts";
import { MessageMedia } from "./message-media.tsx";

function roleLabel(message: InboxMessage, detail: ConversationDetail): string {
  if (message.role === "user") return detail.conversation.displayName;
  if (message.role === "assistant") return `${detail.room.agentName} (AI agent)`;
  return message.senderName ?? "You";
}

export function MessageBubble(props: { message: InboxMessage; detail: ConversationDetail }) {
  const times = useTimeFormat();
  const { message, detail } = props;
  const react = useReaction();
  const outside = message.role === "user";
  const counts = new Map<string, { count: number; mine: boolean }>();
  for (const r of message.reactions) {
    const entry = counts.get(r.reaction) ?? { count: 0, mine: false };
    counts.set(r.reaction, { count: entry.count + 1, mine: entry.mine || r.mine });
  }
  return (
    <Stack
      gap={2}
      align={outside ? "flex-start" : "flex-end"}
      data-message-id={message.id}
      data-role={message.role}
    >
      <Text size="xs" c="dimmed">
        {roleLabel(message, detail)} · {times.format(message.createdAt, "shortDateTime")}
        {message.deliveryStatus && !outside ? ` · ${message.deliveryStatus}` : ""}
      </Text>
      <Paper
        p="xs"
        radius="md"
        maw="80%"
        bg={
          outside
            ? "var(--mantine-color-default-hover)"
            : message.role === "assistant"
              ? "var(--mantine-color-violet-light)"
              : "var(--mantine-color-blue-light)"
        }
      >
        {message.status === "failed" ? (
          <Text size="sm" c="red">
            {message.error ?? "The agent could not answer."}
          </Text>
        ) : null}
        {message.text ? (
          <Text size="sm" style={{ whiteSpace: "pre-wrap" }}>
            {message.text}
          </Text>
        ) : null}
        <MessageMedia urls={message.media} />
      </Paper>
      <Group gap={2}>
        {[...counts].map(([reaction, { count, mine }]) => (
          <Badge
            key={reaction}
            variant={mine ? "filled" : "light"}
            style={{ cursor: "pointer" }}
            onClick={() =>
              react.mutate({
                roomId: message.roomId,
                messageId: message.id,
                reaction: reaction as (typeof REACTIONS)[number],
                add: !mine,
              })
            }
          >
            {reaction} {count}
          </Badge>
        ))}
        <Menu position="bottom" withinPortal>
          <Menu.Target>
            <ActionIcon size="xs" variant="subtle" aria-label="React">
              ☺
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Group gap={2} p={4}>
              {REACTIONS.map((reaction) => (
                <ActionIcon
                  key={reaction}
                  variant="subtle"
                  aria-label={`React ${reaction}`}
                  onClick={() =>
                    react.mutate({ roomId: message.roomId, messageId: message.id, reaction, add: true })
                  }
                >
                  {reaction}
                </ActionIcon>
              ))}
            </Group>
          </Menu.Dropdown>
        </Menu>
      </Group>
    </Stack>
  );
}

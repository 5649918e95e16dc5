import { Badge, Group, Stack, Text, UnstyledButton } from "@mantine/core";
import { useIntersection } from "@mantine/hooks";
import type { InboxFolder } from "@switchboard/api";
import { useEffect } from "react";
import { EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { type ConversationListItem, useConversations } from "./api.ts";

/** Spec §9: load the next page when the list's end is within 400 px. */
const BOTTOM_DISTANCE_PX = 400;

export function ConversationList(props: {
  folder: InboxFolder;
  unread: boolean;
  active: string | null;
  highlightId: string | null;
  onSelect: (roomId: string) => void;
}) {
  const list = useConversations(props.folder, props.unread);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  // Bottom-of-page detection: the next 20 when the end of the list comes within 400 px of the viewport.
  const end = useIntersection<HTMLDivElement>({ rootMargin: `0px 0px ${BOTTOM_DISTANCE_PX}px 0px` });
  // The marker is a new element whenever the list's length changes (its key below), so the observation of
  // the one before (its element gone) never loads a page: only where the list's end is now counts.
  useEffect(() => {
    const seen = end.entry;
    if (!seen?.isIntersecting || !seen.target.isConnected || !hasNextPage || isFetchingNextPage) return;
    void fetchNextPage();
  }, [end.entry, hasNextPage, isFetchingNextPage, fetchNextPage]);

  if (list.isPending) return <LoadingState label="Loading conversations…" />;
  if (list.isError) return <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  const rooms = list.data.pages.flatMap((page) => page.rooms);
  if (rooms.length === 0)
    return (
      <EmptyState>
        {props.unread ? "Nothing unread" : props.folder === "agent" ? "No junk" : "No conversations yet"}.
        Text messages to your agents' numbers show up here as they arrive.
      </EmptyState>
    );
  return (
    <Stack gap={4}>
      <Stack component="ul" gap={4} aria-label="Conversations" m={0} p={0} style={{ listStyle: "none" }}>
        {rooms.map((room) => (
          <ConversationRow
            key={room.roomId}
            room={room}
            active={room.roomId === props.active}
            highlighted={room.roomId === props.highlightId}
            onSelect={() => props.onSelect(room.roomId)}
          />
        ))}
      </Stack>
      <div ref={end.ref} key={rooms.length} />
      {list.isFetchingNextPage ? <LoadingState label="Loading more…" /> : null}
    </Stack>
  );
}

function ConversationRow(props: {
  room: ConversationListItem;
  active: boolean;
  highlighted: boolean;
  onSelect: () => void;
}) {
  const { room } = props;
  const name = `${room.displayName}${room.unread ? ", unread" : ""}`;
  return (
    <li aria-label={name}>
      <UnstyledButton
        aria-current={props.active ? "true" : undefined}
        onClick={props.onSelect}
        w="100%"
        p="sm"
        style={{
          borderRadius: 8,
          background: props.active
            ? "var(--mantine-color-blue-light)"
            : props.highlighted
              ? "var(--mantine-color-yellow-light)"
              : undefined,
        }}
      >
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text fw={room.unread ? 700 : 500} truncate>
            {room.displayName}
          </Text>
          <Group gap={4} wrap="nowrap">
            {room.room.status !== "open" ? (
              <Badge size="xs" color="gray" variant="light">
                {room.room.status}
              </Badge>
            ) : null}
            {room.unreadCount > 0 ? (
              <Badge size="sm" circle aria-label={`${room.unreadCount} unread`}>
                {room.unreadCount}
              </Badge>
            ) : room.unread ? (
              <Badge size="xs" variant="dot">
                unread
              </Badge>
            ) : null}
          </Group>
        </Group>
        <Text size="sm" c="dimmed" truncate>
          {room.lastMessage?.text || "No messages yet"}
        </Text>
      </UnstyledButton>
    </li>
  );
}

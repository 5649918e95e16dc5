import {
  ActionIcon,
  Badge,
  Card,
  Group,
  Menu,
  Rating,
  ScrollArea,
  Stack,
  Switch,
  Text,
  Title,
} from "@mantine/core";
import type { InboxFolder } from "@switchboard/api";
import { formatPhoneNumber } from "@switchboard/core";
import IconDots from "@tabler/icons-react/dist/esm/icons/IconDots.mjs";
import IconX from "@tabler/icons-react/dist/esm/icons/IconX.mjs";
import { useEffect, useRef } from "react";
import { ErrorState, LoadingState } from "../../components/query-state.tsx";
import { usePermission } from "../../lib/account-state.ts";
import { useMobileApp } from "../../lib/environment.tsx";
import { errorMessage } from "../../lib/shell-api.ts";
import { toast } from "../../lib/toast.ts";
import {
  useBlock,
  useCloseConversation,
  useConversation,
  useMarkRead,
  useMarkUnread,
  useRate,
  useSetAiAgent,
  useUnarchive,
} from "./api.ts";
import { usePhoneContactLookup } from "./phone-contact-lookup.ts";
import { Reply } from "./reply.tsx";
import { ThreadMessages } from "./thread-entries.tsx";

export function ConversationView(props: { roomId: string; folder: InboxFolder; onClose: () => void }) {
  const conversation = useConversation(props.roomId);
  const markRead = useMarkRead();
  const markUnread = useMarkUnread();
  const setAi = useSetAiAgent();
  const close = useCloseConversation();
  const unarchive = useUnarchive();
  const block = useBlock();
  const rate = useRate();
  const canEdit = usePermission("canEditOrg");
  const mobileApp = useMobileApp();
  const lookup = usePhoneContactLookup(canEdit);
  const viewport = useRef<HTMLDivElement>(null);
  const detail = conversation.data;
  const lastId = detail?.messages.at(-1)?.id;
  const folder = detail?.room.folder ?? props.folder;

  // Opening a conversation reads it; so does every new message while it is open.
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again when the last message changes.
  useEffect(() => {
    if (detail?.conversation.unread) markRead.mutate({ roomId: props.roomId, folder });
  }, [props.roomId, lastId, detail?.conversation.unread]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll when a message arrives.
  useEffect(() => {
    viewport.current?.scrollTo({ top: viewport.current.scrollHeight });
  }, [lastId]);

  if (conversation.isPending) return <LoadingState label="Loading conversation…" />;
  if (conversation.isError || !detail)
    return <ErrorState error={conversation.error} onRetry={() => void conversation.refetch()} />;
  const { room } = detail;
  const failed = (error: unknown) => toast.error(errorMessage(error));

  return (
    <Card withBorder padding="md" aria-label={`Conversation with ${detail.conversation.displayName}`}>
      {/* Narrow panes wrap the actions under the name rather than squeezing the name a word per line. */}
      <Group justify="space-between" mb="sm" gap="xs" wrap="wrap">
        <Stack gap={0} style={{ flex: "1 1 14rem", minWidth: 0 }}>
          <Title order={3} size="h4" style={{ overflowWrap: "anywhere" }}>
            {detail.conversation.displayName}
          </Title>
          <Text size="sm" c="dimmed">
            {room.externalAddress ? formatPhoneNumber(room.externalAddress) : ""} · {room.agentName}
            {room.agentNumber ? ` (${formatPhoneNumber(room.agentNumber)})` : ""}
          </Text>
        </Stack>
        <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
          <Switch
            label="AI agent"
            styles={{ label: { whiteSpace: "nowrap" } }}
            checked={detail.aiAgentEnabled}
            disabled={!canEdit || setAi.isPending}
            onChange={(e) =>
              setAi.mutate({ roomId: room.id, enabled: e.currentTarget.checked }, { onError: failed })
            }
          />
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" aria-label="Conversation actions">
                <IconDots size={18} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => markUnread.mutate({ roomId: room.id, folder }, { onError: failed })}>
                Mark unread
              </Menu.Item>
              {mobileApp.isMobileApp && room.externalAddress ? (
                <Menu.Item
                  onClick={() =>
                    lookup.mutate(room.externalAddress as string, {
                      onSuccess: (name) =>
                        toast.success(
                          canEdit ? `Saved ${name} as a contact.` : `This is ${name} in your phone.`,
                        ),
                      onError: failed,
                    })
                  }
                >
                  Look up in phone contacts
                </Menu.Item>
              ) : null}
              {canEdit && room.status === "open" ? (
                <Menu.Item
                  onClick={() => close.mutate({ roomId: room.id, archive: false }, { onError: failed })}
                >
                  Close
                </Menu.Item>
              ) : null}
              {canEdit && room.status !== "archived" ? (
                <Menu.Item
                  onClick={() => close.mutate({ roomId: room.id, archive: true }, { onError: failed })}
                >
                  Archive
                </Menu.Item>
              ) : null}
              {canEdit && room.status !== "open" ? (
                <Menu.Item onClick={() => unarchive.mutate(room.id, { onError: failed })}>
                  {room.status === "archived" ? "Unarchive" : "Reopen"}
                </Menu.Item>
              ) : null}
              {canEdit ? (
                <Menu.Item
                  color={detail.blocked ? undefined : "red"}
                  onClick={() =>
                    block.mutate({ roomId: room.id, blocked: !detail.blocked }, { onError: failed })
                  }
                >
                  {detail.blocked ? "Unblock" : "Block"}
                </Menu.Item>
              ) : null}
            </Menu.Dropdown>
          </Menu>
          <ActionIcon variant="subtle" aria-label="Close conversation" onClick={props.onClose}>
            <IconX size={18} />
          </ActionIcon>
        </Group>
      </Group>
      <Group gap="xs" mb="xs">
        {room.status !== "open" ? <Badge color="gray">{room.status}</Badge> : null}
        {detail.blocked ? <Badge color="red">Blocked</Badge> : null}
        <Text size="sm" c="dimmed">
          Rating
        </Text>
        <Rating
          value={detail.rating ?? 0}
          readOnly={!canEdit}
          onChange={(value) => rate.mutate({ roomId: room.id, rating: value || null }, { onError: failed })}
          aria-label="Rating"
        />
      </Group>
      <ScrollArea h={420} viewportRef={viewport} type="auto">
        <Stack gap="sm" pr="sm" aria-label="Messages">
          {detail.messages.length === 0 ? (
            <Text c="dimmed" size="sm">
              No messages yet.
            </Text>
          ) : (
            <ThreadMessages detail={detail} />
          )}
        </Stack>
      </ScrollArea>
      {canEdit ? <Reply roomId={room.id} disabled={detail.blocked} /> : null}
    </Card>
  );
}

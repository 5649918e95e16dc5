import {
  ActionIcon,
  Alert,
  Badge,
  Box,
  Button,
  Card,
  FileButton,
  Group,
  Image,
  Menu,
  Paper,
  Rating,
  ScrollArea,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
  Tooltip,
  UnstyledButton,
} from "@mantine/core";
import { INBOX_MESSAGES, type InboxFolder, REACTIONS } from "@switchboard/api";
import { formatPhoneNumber } from "@switchboard/core";
import IconDots from "@tabler/icons-react/dist/esm/icons/IconDots.mjs";
import IconPaperclip from "@tabler/icons-react/dist/esm/icons/IconPaperclip.mjs";
import IconPencilPlus from "@tabler/icons-react/dist/esm/icons/IconPencilPlus.mjs";
import IconX from "@tabler/icons-react/dist/esm/icons/IconX.mjs";
import { type FormEvent, useEffect, useMemo, useRef, useState } from "react";
import { useLocation, useSearchParams } from "react-router";
import { useAccountState, usePermission } from "../../app/account-state.ts";
import { confirm } from "../../components/confirm/confirm-store.ts";
import { EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { errorMessage } from "../../lib/shell-api.ts";
import { toast } from "../../lib/toast.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { CONTACT_PICK_VALUE, onContactPicked } from "../contacts/contact-pick.ts";
import { contactNameFor } from "../contacts/display-names.ts";
import {
  type ConversationDetail,
  type ConversationListItem,
  type InboxMessage,
  sendFirstMessage,
  startConversation,
  uploadMedia,
  useActivity,
  useBlock,
  useCloseConversation,
  useConversation,
  useConversations,
  useHandset,
  useInboxRealtime,
  useMarkRead,
  useMarkUnread,
  useRate,
  useReaction,
  useSendMessage,
  useSetAiAgent,
  useUnarchive,
} from "./api.ts";
import { MessageMedia } from "./message-media.tsx";

/** Spec §9: load the next page when the list's end is within 400 px. */
const BOTTOM_DISTANCE_PX = 400;

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "short", timeStyle: "short" });

function useInboxQuery() {
  const [params, setParams] = useSearchParams();
  const folder: InboxFolder = params.get("filter") === "agent" ? "agent" : "priority";
  const update = (change: (next: URLSearchParams) => void) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        change(next);
        return next;
      },
      { replace: false },
    );
  return {
    folder,
    active: params.get("active"),
    draft: params.has("new"),
    highlightId: params.get("highlightId"),
    premium: params.get("premium") === "true",
    setFolder: (value: InboxFolder) =>
      update((next) => {
        next.set("filter", value);
        next.delete("active");
      }),
    select: (roomId: string | null) =>
      update((next) => {
        if (roomId) next.set("active", roomId);
        else next.delete("active");
        next.delete("new");
      }),
    openDraft: () =>
      update((next) => {
        next.set("new", next.get("active") ?? "true");
      }),
    /** Cancels the draft and returns to the conversation it was started from. */
    closeDraft: () =>
      update((next) => {
        const previous = next.get("new");
        next.delete("new");
        if (previous && previous !== "true") next.set("active", previous);
      }),
  };
}

export function InboxPage() {
  const query = useInboxQuery();
  const status = useInboxRealtime();
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [draftText, setDraftText] = useState("");
  const overlays = useOverlays();
  const { view } = useAccountState();
  const canEdit = usePermission("canEditOrg");
  const handset = useHandset(null);
  const priority = useActivity("priority");
  const junk = useActivity("agent");

  if (view.account.accountType !== "organization" && view.account.accountType !== "agent")
    return <Alert color="yellow">{INBOX_MESSAGES.noAccountId}</Alert>;

  const switchFolder = async (value: string) => {
    const folder = value === "agent" ? "agent" : "priority";
    if (folder === "agent" && query.draft && draftText.trim()) {
      const leave = await confirm({
        title: "Cancel the new message?",
        details: "The message you started has not been sent.",
        confirmText: "Cancel message",
        cancelText: "Keep writing",
      });
      if (!leave) return;
      setDraftText("");
    }
    query.setFolder(folder);
  };

  /** Spec §4.3: premium first (upgrade continues to selectNumber), then a number, then SMS, then compose. */
  const startNew = () => {
    const organizationPremium = view.account.premium || query.premium;
    const hasNumber = (handset.data?.agentNumbers.length ?? 0) > 0;
    if (!organizationPremium) overlays.open("upgrade", "selectNumber");
    else if (!hasNumber) overlays.open("selectNumber");
    else if (!view.account.smsEnabled) overlays.open("requestAccess", "sms");
    else query.openDraft();
  };

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Group gap="xs">
          <Title order={1}>Inbox</Title>
          <Badge
            variant="dot"
            color={status === "live" ? "teal" : status === "connecting" ? "yellow" : "red"}
            aria-label={`Realtime ${status}`}
          >
            {status === "live" ? "Live" : status === "connecting" ? "Connecting" : "Reconnecting"}
          </Badge>
        </Group>
        {canEdit ? (
          <Button leftSection={<IconPencilPlus size={16} />} onClick={startNew}>
            New message
          </Button>
        ) : null}
      </Group>
      <Box
        style={{
          display: "grid",
          gridTemplateColumns: "minmax(260px, 360px) 1fr",
          gap: 16,
          alignItems: "start",
        }}
      >
        <Stack gap="sm">
          <SegmentedControl
            fullWidth
            value={query.folder}
            onChange={(value) => void switchFolder(value)}
            data={[
              {
                value: "priority",
                label: `Priority${priority.data?.total ? ` (${priority.data.total})` : ""}`,
              },
              { value: "agent", label: `Junk${junk.data?.total ? ` (${junk.data.total})` : ""}` },
            ]}
            aria-label="Inbox tab"
          />
          <Switch
            label="Unread only"
            checked={unreadOnly}
            onChange={(e) => setUnreadOnly(e.currentTarget.checked)}
          />
          <ConversationList
            key={`${query.folder}-${unreadOnly}`}
            folder={query.folder}
            unread={unreadOnly}
            active={query.active}
            highlightId={query.highlightId}
            onSelect={query.select}
          />
        </Stack>
        {query.draft ? (
          <Compose
            text={draftText}
            setText={setDraftText}
            onCancel={() => {
              setDraftText("");
              query.closeDraft();
            }}
            onStarted={(roomId) => {
              setDraftText("");
              query.select(roomId);
            }}
          />
        ) : query.active ? (
          <ConversationView
            key={query.active}
            roomId={query.active}
            folder={query.folder}
            onClose={() => query.select(null)}
          />
        ) : (
          <Card withBorder>
            <EmptyState>No conversation open. Choose a conversation on the left.</EmptyState>
          </Card>
        )}
      </Box>
    </Stack>
  );
}

function ConversationList(props: {
  folder: InboxFolder;
  unread: boolean;
  active: string | null;
  highlightId: string | null;
  onSelect: (roomId: string) => void;
}) {
  const list = useConversations(props.folder, props.unread);
  const end = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;

  // Bottom-of-page detection: the next 20 when the end of the list comes within 400 px of the viewport.
  useEffect(() => {
    const check = () => {
      const marker = end.current;
      if (!marker || !hasNextPage || isFetchingNextPage) return;
      if (marker.getBoundingClientRect().top - window.innerHeight < BOTTOM_DISTANCE_PX) void fetchNextPage();
    };
    check();
    window.addEventListener("scroll", check, { passive: true });
    return () => window.removeEventListener("scroll", check);
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

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
    <Stack gap={4} aria-label="Conversations" role="list">
      {rooms.map((room) => (
        <ConversationRow
          key={room.roomId}
          room={room}
          active={room.roomId === props.active}
          highlighted={room.roomId === props.highlightId}
          onSelect={() => props.onSelect(room.roomId)}
        />
      ))}
      <div ref={end} />
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
  return (
    <UnstyledButton
      role="listitem"
      aria-current={props.active ? "true" : undefined}
      aria-label={`${room.displayName}${room.unread ? ", unread" : ""}`}
      onClick={props.onSelect}
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
  );
}

function roleLabel(message: InboxMessage, detail: ConversationDetail): string {
  if (message.role === "user") return detail.conversation.displayName;
  if (message.role === "assistant") return `${detail.room.agentName} (AI agent)`;
  return message.senderName ?? "You";
}

function MessageBubble(props: { message: InboxMessage; detail: ConversationDetail }) {
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
        {roleLabel(message, detail)} · {timeFormat.format(message.createdAt)}
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

function ConversationView(props: { roomId: string; folder: InboxFolder; onClose: () => void }) {
  const conversation = useConversation(props.roomId);
  const markRead = useMarkRead();
  const markUnread = useMarkUnread();
  const setAi = useSetAiAgent();
  const close = useCloseConversation();
  const unarchive = useUnarchive();
  const block = useBlock();
  const rate = useRate();
  const canEdit = usePermission("canEditOrg");
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
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Stack gap={0}>
          <Title order={3} size="h4">
            {detail.conversation.displayName}
          </Title>
          <Text size="sm" c="dimmed">
            {room.externalAddress ? formatPhoneNumber(room.externalAddress) : ""} · {room.agentName}
            {room.agentNumber ? ` (${formatPhoneNumber(room.agentNumber)})` : ""}
          </Text>
        </Stack>
        <Group gap="xs" wrap="nowrap">
          <Switch
            label="AI agent"
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
            detail.messages.map((message) => (
              <MessageBubble key={message.id} message={message} detail={detail} />
            ))
          )}
        </Stack>
      </ScrollArea>
      {canEdit ? <Reply roomId={room.id} disabled={detail.blocked} /> : null}
    </Card>
  );
}

function Reply(props: { roomId: string; disabled: boolean }) {
  const send = useSendMessage(props.roomId);
  const [text, setText] = useState("");
  const [media, setMedia] = useState<string[]>([]);
  const [uploading, setUploading] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim() && media.length === 0) return;
    send.mutate(
      { text: text.trim(), media },
      {
        onSuccess: () => {
          setText("");
          setMedia([]);
        },
        onError: (error) => toast.error(errorMessage(error)),
      },
    );
  };
  return (
    <form onSubmit={submit}>
      <Stack gap="xs" mt="sm">
        {media.length > 0 ? (
          <Group gap="xs">
            {media.map((url) => (
              <Image key={url} src={url} alt="Picture to send" h={48} w={48} radius="sm" />
            ))}
          </Group>
        ) : null}
        <Group align="flex-end" wrap="nowrap" gap="xs">
          <Textarea
            style={{ flex: 1 }}
            autosize
            minRows={1}
            maxRows={5}
            placeholder={props.disabled ? "This number is blocked." : "Write a text message"}
            aria-label="Reply"
            value={text}
            disabled={props.disabled}
            onChange={(e) => setText(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && !e.shiftKey) submit(e);
            }}
          />
          <FileButton
            accept="image/png,image/jpeg,image/gif,image/webp"
            onChange={async (file) => {
              if (!file) return;
              setUploading(true);
              try {
                const url = await uploadMedia(file);
                setMedia((current) => [...current, url]);
              } catch (error) {
                toast.error(errorMessage(error));
              } finally {
                setUploading(false);
              }
            }}
          >
            {(buttonProps) => (
              <Tooltip label="Attach a picture">
                <ActionIcon
                  {...buttonProps}
                  size="lg"
                  variant="default"
                  loading={uploading}
                  aria-label="Attach a picture"
                  disabled={props.disabled}
                >
                  <IconPaperclip size={18} />
                </ActionIcon>
              </Tooltip>
            )}
          </FileButton>
          <Button type="submit" loading={send.isPending} disabled={props.disabled}>
            Send
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** What a page that opens the composer (a contact's "Start a conversation") hands it in the history state. */
export type ComposeState = { draftTo?: string };

/**
 * The new-message composer. Nothing is created on the server until the first message is sent: the room and
 * its first message go together, so a draft left without a message leaves nothing behind (spec §4.3).
 */
function Compose(props: {
  text: string;
  setText: (text: string) => void;
  onCancel: () => void;
  onStarted: (roomId: string) => void;
}) {
  const location = useLocation();
  const [to, setTo] = useState(() => (location.state as ComposeState | null)?.draftTo ?? "");
  const [busy, setBusy] = useState(false);
  const [missingText, setMissingText] = useState(false);
  const messageRef = useRef<HTMLTextAreaElement>(null);
  const overlays = useOverlays();
  // The contacts overlay opened as a picker hands back the chosen contact's address.
  useEffect(() => onContactPicked((picked) => setTo(picked.address)), []);
  const recipients = useMemo(
    () =>
      to
        .split(/[,;]/)
        .map((r) => r.trim())
        .filter(Boolean),
    [to],
  );
  // Names of known contacts at once, from the contact-display-names cache.
  const recipientNames = useMemo(
    () => recipients.map((r) => contactNameFor(r)).filter((name): name is string => Boolean(name)),
    [recipients],
  );
  const sendFirst = async (event: FormEvent) => {
    event.preventDefault();
    // An empty recipient list cancels the draft (spec §4.3).
    if (recipients.length === 0) {
      props.onCancel();
      return;
    }
    const text = props.text.trim();
    // Enter in "To" (or Send) before a message is written goes on to the message: no room yet.
    if (!text) {
      setMissingText(true);
      messageRef.current?.focus();
      return;
    }
    setBusy(true);
    try {
      let roomId: string;
      try {
        roomId = await startConversation(recipients[0] ?? "");
      } catch {
        window.alert(INBOX_MESSAGES.cannotStart);
        return;
      }
      await sendFirstMessage(roomId, text);
      props.onStarted(roomId);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card withBorder padding="md" aria-label="New message">
      <form onSubmit={(e) => void sendFirst(e)}>
        <Stack gap="sm">
          <Group justify="space-between">
            <Title order={3} size="h4">
              New message
            </Title>
            <ActionIcon variant="subtle" aria-label="Cancel new message" onClick={props.onCancel}>
              <IconX size={18} />
            </ActionIcon>
          </Group>
          <TextInput
            label="To"
            placeholder="+1 503 555 0199"
            value={to}
            onChange={(e) => setTo(e.currentTarget.value)}
            description={recipientNames.length > 0 ? recipientNames.join(", ") : undefined}
            rightSectionWidth={110}
            rightSection={
              <Button
                size="compact-xs"
                variant="subtle"
                onClick={() => overlays.open("contacts", CONTACT_PICK_VALUE)}
              >
                Contacts
              </Button>
            }
            data-autofocus
          />
          <Textarea
            ref={messageRef}
            label="Message"
            autosize
            minRows={3}
            value={props.text}
            onChange={(e) => {
              setMissingText(false);
              props.setText(e.currentTarget.value);
            }}
            error={missingText && !props.text.trim() ? "Write a message to send." : undefined}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onCancel}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Send
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

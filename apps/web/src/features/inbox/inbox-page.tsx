import { Alert, Badge, Box, Button, Card, Group, Stack, Switch, Title } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { INBOX_MESSAGES, type InboxFolder } from "@switchboard/api";
import IconArrowLeft from "@tabler/icons-react/dist/esm/icons/IconArrowLeft.mjs";
import IconPencilPlus from "@tabler/icons-react/dist/esm/icons/IconPencilPlus.mjs";
import { useState } from "react";
import { useSearchParams } from "react-router";
import { confirm } from "../../components/confirm/confirm-store.ts";
import { EmptyState } from "../../components/query-state.tsx";
import { useAccountState, usePermission } from "../../lib/account-state.ts";
import { minWidthQuery } from "../../lib/breakpoints.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { useActivity, useHandset, useInboxRealtime } from "./api.ts";
import { Compose } from "./compose.tsx";
import { ConversationList } from "./conversation-list.tsx";
import { ConversationView } from "./conversation-view.tsx";

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

/**
 * The inbox belongs to an organisation or an agent: on any other account in view it says so, without
 * asking the server for an inbox the account does not have.
 */
export function InboxPage() {
  const { view } = useAccountState();
  if (view.account.accountType !== "organization" && view.account.accountType !== "agent")
    return (
      <Stack gap="md">
        <Title order={1}>Inbox</Title>
        <Alert color="yellow">{INBOX_MESSAGES.noAccountId}</Alert>
      </Stack>
    );
  return <Inbox />;
}

function Inbox() {
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
  // Below the sm breakpoint one pane shows at a time: the list, or the open conversation (or draft) with a
  // way back to the list.
  const twoPanes = useMediaQuery(minWidthQuery("sm"), true, { getInitialValueInEffect: false });

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

  const paneOpen = query.draft || query.active !== null;
  const cancelDraft = () => {
    setDraftText("");
    query.closeDraft();
  };

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Group gap="xs">
          <Title order={1}>Inbox</Title>
          {/* The badge hugs its word; its box keeps one width for every state, so "Connecting" turning
              "Live" does not reflow the header (layout shift on narrow screens). */}
          <Box w={136} data-testid="realtime-status">
            <Badge
              variant="dot"
              color={status === "live" ? "teal" : status === "connecting" ? "yellow" : "red"}
              aria-label={`Realtime ${status}`}
            >
              {status === "live" ? "Live" : status === "connecting" ? "Connecting" : "Reconnecting"}
            </Badge>
          </Box>
        </Group>
        {canEdit ? (
          <Button leftSection={<IconPencilPlus size={16} />} onClick={startNew}>
            New message
          </Button>
        ) : null}
      </Group>
      {!twoPanes && paneOpen ? (
        <Button
          variant="subtle"
          leftSection={<IconArrowLeft size={16} />}
          onClick={query.draft ? cancelDraft : () => query.select(null)}
          style={{ alignSelf: "flex-start" }}
        >
          Back to conversations
        </Button>
      ) : null}
      <Box
        style={{
          display: "grid",
          gridTemplateColumns: twoPanes ? "minmax(260px, 360px) minmax(0, 1fr)" : "minmax(0, 1fr)",
          gap: 16,
          alignItems: "start",
        }}
      >
        <Stack gap="sm" display={twoPanes || !paneOpen ? undefined : "none"}>
          {/* Two toggle buttons, not a SegmentedControl: its sliding indicator measured the page's
              layout while the inbox was first committed, one long task on a phone (issue #23). */}
          <Button.Group aria-label="Inbox tab">
            {(
              [
                ["priority", "Priority", priority.data?.total],
                ["agent", "Junk", junk.data?.total],
              ] as const
            ).map(([folder, label, total]) => (
              <Button
                key={folder}
                fullWidth
                variant={query.folder === folder ? "filled" : "default"}
                aria-pressed={query.folder === folder}
                onClick={() => void switchFolder(folder)}
              >
                {`${label}${total ? ` (${total})` : ""}`}
              </Button>
            ))}
          </Button.Group>
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
            onCancel={cancelDraft}
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
        ) : twoPanes ? (
          <Card withBorder>
            <EmptyState>No conversation open. Choose a conversation on the left.</EmptyState>
          </Card>
        ) : null}
      </Box>
    </Stack>
  );
}

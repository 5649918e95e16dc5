import { ActionIcon, Button, Card, Group, Stack, Textarea, TextInput, Title } from "@mantine/core";
import { INBOX_MESSAGES } from "@switchboard/api";
import IconX from "@tabler/icons-react/dist/esm/icons/IconX.mjs";
import { type FormEvent, useEffect, useMemo, useRef, useState } from "react";
import { useLocation } from "react-router";
import { errorMessage } from "../../lib/shell-api.ts";
import { toast } from "../../lib/toast.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { CONTACT_PICK_VALUE, onContactPicked } from "../contacts/contact-pick.ts";
import { contactNameFor } from "../contacts/display-names.ts";
import { sendFirstMessage, startConversation } from "./api.ts";

/** What a page that opens the composer (a contact's "Start a conversation") hands it in the history state. */
export type ComposeState = { draftTo?: string };

/**
 * The new-message composer. Nothing is created on the server until the first message is sent: the room and
 * its first message go together, so a draft left without a message leaves nothing behind (spec §4.3).
 */
export function Compose(props: {
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

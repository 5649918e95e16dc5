import { Anchor, Badge, Button, Group, Stack, Text, Title, UnstyledButton } from "@mantine/core";
import { formatPhoneNumber } from "@switchboard/core";
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { Link, useNavigate } from "react-router";
import { ConfirmPanel } from "../../components/confirm/confirm-panel.tsx";
import { EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { useAppPath } from "../../lib/account-context.ts";
import { appPath } from "../../lib/account-path.ts";
import { usePermission } from "../../lib/account-state.ts";
import { markSaved } from "../../lib/saved-marks.ts";
import { toast } from "../../lib/toast.ts";
import { useTimeFormat } from "../../lib/use-time-format.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import type { ComposeState } from "../inbox/compose.tsx";
import { type Contact, contactIdOf, useContact, useDeleteContact, wasDeleted } from "./api.ts";
import {
  ADDRESS_KEY,
  fieldLabel,
  freeFields,
  newContactRows,
  orderedEntries,
  toFieldRows,
} from "./contact-fields.ts";
import { ContactForm, loadedKeysOf } from "./contact-form.tsx";
import { primaryAddress, shownAddresses, useContactSearch } from "./contact-list.tsx";
import { CONTACT_PICK_VALUE, contactPickWanted, pickContact } from "./contact-pick.ts";

/** Loads the contact an overlay value names and renders `children` with it (loading, error, not found). */
function WithContact({
  value,
  children,
}: {
  value: string;
  children: (contact: Contact, rooms: RoomLink[]) => ReactNode;
}) {
  const id = contactIdOf(value);
  const contact = useContact(id);
  const queryClient = useQueryClient();
  if (id === null) return <ErrorState error={new Error("Contact not found")} />;
  if (wasDeleted(queryClient, id)) return <Text>This contact was deleted.</Text>;
  if (contact.isPending) return <LoadingState label="Loading the contact…" />;
  if (contact.isError)
    return (
      <ErrorState
        title="The contact could not be loaded"
        error={contact.error}
        onRetry={() => void contact.refetch()}
      />
    );
  return <>{children(contact.data.contact, contact.data.rooms)}</>;
}

type RoomLink = { roomId: string; lastMessage: string | null; lastMessageAt: number | null };

/** `?createContact`: a new contact from name, phone numbers, e-mails, company, notes and fields of one's own. */
export function CreateContactOverlay({ close }: OverlayComponentProps) {
  const [rows] = useState(newContactRows);
  return (
    <ContactForm
      initialRows={rows}
      submitLabel="Add contact"
      onCancel={close}
      onSaved={(contact) => {
        toast.success(`${contact.displayName} added.`);
        markSaved("contact", contact.id, "Added");
        close();
      }}
    />
  );
}

/** `?editContact=<id>`: every free field editable; the save sends the whole merged object as newData. */
export function EditContactOverlay({ value, close }: OverlayComponentProps) {
  const id = contactIdOf(value);
  const latest = useContact(id);
  return (
    <WithContact value={value}>
      {(contact) => (
        <ContactForm
          key={contact.id}
          initialRows={toFieldRows(freeFields(contact))}
          loadedKeys={loadedKeysOf(contact)}
          current={() => latest.data?.contact ?? contact}
          submitLabel="Save contact"
          onCancel={close}
          onSaved={(saved) => {
            toast.success(`${saved.displayName} saved.`);
            markSaved("contact", saved.id);
            close();
          }}
        />
      )}
    </WithContact>
  );
}

/** Read-only free fields: text as it is, lists one per line, nested objects indented. */
function FieldList({ data, depth = 0 }: { data: Record<string, unknown>; depth?: number }) {
  const entries = orderedEntries(data);
  if (entries.length === 0) return null;
  return (
    <Stack gap={6} pl={depth ? "md" : 0} component="dl" m={0}>
      {entries.map(([key, value]) => (
        <div key={key}>
          <Text component="dt" size="xs" c="dimmed" fw={600}>
            {fieldLabel(key)}
          </Text>
          <Text component="dd" m={0} size="sm" style={{ whiteSpace: "pre-wrap" }}>
            {renderValue(value, depth, ADDRESS_KEY.test(key))}
          </Text>
        </div>
      ))}
    </Stack>
  );
}

function renderValue(value: unknown, depth: number, address = false): ReactNode {
  if (value === null || value === undefined) return "—";
  if (Array.isArray(value))
    return value.length === 0
      ? "—"
      : value.map((item, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a stored list's items are known by their place.
          <span key={index} style={{ display: "block" }}>
            {renderValue(item, depth + 1, address)}
          </span>
        ));
  if (typeof value === "object")
    return depth > 5 ? (
      JSON.stringify(value)
    ) : (
      <FieldList data={value as Record<string, unknown>} depth={depth + 1} />
    );
  return address && typeof value === "string" ? formatPhoneNumber(value) : String(value);
}

function StartConversation({ contact }: { contact: Contact }) {
  const navigate = useNavigate();
  const { accountPrefix } = useAppPath();
  const canEdit = usePermission("canEditOrg");
  const address = primaryAddress(contact);
  if (!address || !canEdit) return null;
  // The inbox's composer, addressed to the contact: the conversation starts with its first message.
  const draft: ComposeState = { draftTo: address };
  return (
    <Button
      variant="light"
      onClick={() => navigate(`${appPath(accountPrefix, "inbox")}?new=true`, { state: draft })}
    >
      Start a conversation
    </Button>
  );
}

/** `?previewContact=<id>`: the contact, its conversations in the inbox, edit and delete. */
export function PreviewContactOverlay({ value }: OverlayComponentProps) {
  const times = useTimeFormat();
  const overlays = useOverlays();
  const canEdit = usePermission("canEditOrg");
  const { accountPrefix } = useAppPath();
  return (
    <WithContact value={value}>
      {(contact, rooms) => (
        <Stack gap="md">
          <Stack gap={4}>
            <Title order={3} data-testid="contact-name">
              {contact.displayName}
            </Title>
            <Group gap={6}>
              {shownAddresses(contact).map((address) => (
                <Badge key={address} variant="light" tt="none">
                  {address}
                </Badge>
              ))}
            </Group>
          </Stack>
          <FieldList data={freeFields(contact)} />
          <Stack gap="xs" component="section" aria-label="Conversations">
            <Text fw={600} size="sm">
              Conversations
            </Text>
            {rooms.length === 0 ? (
              <Group justify="space-between">
                <Text size="sm" c="dimmed">
                  No conversations yet.
                </Text>
                <StartConversation contact={contact} />
              </Group>
            ) : (
              rooms.map((room) => (
                <Group key={room.roomId} justify="space-between" wrap="nowrap">
                  <Stack gap={0} style={{ minWidth: 0 }}>
                    <Text size="sm" truncate>
                      {room.lastMessage || "No messages yet"}
                    </Text>
                    {room.lastMessageAt ? (
                      <Text size="xs" c="dimmed">
                        {times.format(room.lastMessageAt, "dateTime")}
                      </Text>
                    ) : null}
                  </Stack>
                  <Anchor
                    component={Link}
                    to={`${appPath(accountPrefix, "inbox")}?active=${encodeURIComponent(room.roomId)}`}
                    size="sm"
                  >
                    Open in inbox
                  </Anchor>
                </Group>
              ))
            )}
          </Stack>
          <Text size="xs" c="dimmed">
            Updated {times.format(contact.updatedAt, "dateTime")}
          </Text>
          {canEdit ? (
            <Group gap="xs">
              <Button onClick={() => overlays.switch("previewContact", "editContact", String(contact.id))}>
                Edit
              </Button>
              <Button
                variant="subtle"
                color="red"
                onClick={() => overlays.switch("previewContact", "deleteContact", String(contact.id))}
              >
                Delete
              </Button>
            </Group>
          ) : null}
        </Stack>
      )}
    </WithContact>
  );
}

/** `?deleteContact=<id>`: deletes the contact after a confirmation; its conversations stay. */
export function DeleteContactOverlay({ value, close }: OverlayComponentProps) {
  const remove = useDeleteContact();
  return (
    <WithContact value={value}>
      {(contact) => (
        <ConfirmPanel
          confirmLabel="Delete contact"
          action={remove}
          onCancel={close}
          onConfirm={() =>
            remove.mutate(contact, {
              onSuccess: () => {
                toast.success(`${contact.displayName} deleted.`);
                close();
              },
            })
          }
        >
          Delete <b>{contact.displayName}</b>? Its conversations stay in the inbox, shown by number or
          address.
        </ConfirmPanel>
      )}
    </WithContact>
  );
}

/**
 * `?contacts`: the contacts with search, to preview one or add one. Opened as `?contacts=pick` from a screen
 * waiting for a pick (the inbox compose), choosing a contact hands its address back and closes.
 */
export function ContactsOverlay({ value, close }: OverlayComponentProps) {
  const overlays = useOverlays();
  const canEdit = usePermission("canEditOrg");
  const picking = value === CONTACT_PICK_VALUE && contactPickWanted();
  const { list, search, searchInput, pager } = useContactSearch(10);
  let body: ReactNode;
  if (list.isPending) body = <LoadingState label="Loading contacts…" />;
  else if (list.isError)
    body = (
      <ErrorState
        title="The contacts could not be loaded"
        error={list.error}
        onRetry={() => void list.refetch()}
      />
    );
  else if (list.data.contacts.length === 0)
    body = <EmptyState>{search ? `No contacts match “${search}”.` : "No contacts yet."}</EmptyState>;
  else
    body = (
      <Stack gap={4} role="list" aria-label="Contacts">
        {list.data.contacts.map((contact) => {
          const address = primaryAddress(contact);
          const choose = () => {
            if (picking && address) {
              pickContact({ name: contact.displayName, address });
              close();
            } else overlays.switch("contacts", "previewContact", String(contact.id));
          };
          return (
            <UnstyledButton
              key={contact.id}
              role="listitem"
              aria-label={contact.displayName}
              onClick={choose}
              disabled={picking && !address}
              p="xs"
              style={{ borderRadius: 6 }}
            >
              <Group justify="space-between" wrap="nowrap">
                <Text fw={500} truncate>
                  {contact.displayName}
                </Text>
                <Text size="sm" c="dimmed" truncate>
                  {shownAddresses(contact).slice(0, 2).join(", ") || "No number"}
                </Text>
              </Group>
            </UnstyledButton>
          );
        })}
      </Stack>
    );
  return (
    <Stack gap="sm">
      {picking ? (
        <Text size="sm" c="dimmed">
          Choose who to write to.
        </Text>
      ) : null}
      {searchInput}
      {body}
      {pager}
      {canEdit && !picking ? (
        <Button variant="light" w="fit-content" onClick={() => overlays.switch("contacts", "createContact")}>
          New contact
        </Button>
      ) : null}
    </Stack>
  );
}

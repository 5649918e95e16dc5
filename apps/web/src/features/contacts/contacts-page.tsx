import {
  ActionIcon,
  Button,
  Group,
  Menu,
  Stack,
  Table,
  Text,
  Title,
  UnstyledButton,
  VisuallyHidden,
} from "@mantine/core";
import IconDots from "@tabler/icons-react/dist/esm/icons/IconDots.mjs";
import type { ReactNode } from "react";
import { EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { SavedBadge } from "../../components/saved-note.tsx";
import { usePermission } from "../../lib/account-state.ts";
import { useSavedMark } from "../../lib/saved-marks.ts";
import { useTimeFormat } from "../../lib/use-time-format.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import type { Contact } from "./api.ts";
import { shownAddresses, useContactSearch } from "./contact-list.tsx";

function ContactRow({ contact, canEdit }: { contact: Contact; canEdit: boolean }) {
  const times = useTimeFormat();
  const overlays = useOverlays();
  const id = String(contact.id);
  const addresses = shownAddresses(contact);
  const saved = useSavedMark("contact", contact.id);
  return (
    <Table.Tr>
      <Table.Td>
        <UnstyledButton
          onClick={() => overlays.open("previewContact", id)}
          aria-label={`Preview ${contact.displayName}`}
        >
          <Text size="sm" fw={500}>
            {contact.displayName}
          </Text>
        </UnstyledButton>{" "}
        <SavedBadge mark={saved} />
        {typeof contact.company === "string" && contact.company && contact.company !== contact.displayName ? (
          <Text size="xs" c="dimmed">
            {contact.company}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td>
        {addresses.length === 0 ? (
          "—"
        ) : (
          <Stack gap={0}>
            {addresses.slice(0, 3).map((address) => (
              <Text key={address} size="sm">
                {address}
              </Text>
            ))}
            {addresses.length > 3 ? (
              <Text size="xs" c="dimmed">
                and {addresses.length - 3} more
              </Text>
            ) : null}
          </Stack>
        )}
      </Table.Td>
      <Table.Td>{times.format(contact.updatedAt, "date")}</Table.Td>
      <Table.Td>
        <Group gap={4} justify="flex-end" wrap="nowrap">
          {canEdit ? (
            <Button size="xs" variant="light" onClick={() => overlays.open("editContact", id)}>
              Edit
            </Button>
          ) : null}
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" aria-label={`More for ${contact.displayName}`}>
                <IconDots size={18} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => overlays.open("previewContact", id)}>Preview</Menu.Item>
              {canEdit ? (
                <Menu.Item color="red" onClick={() => overlays.open("deleteContact", id)}>
                  Delete
                </Menu.Item>
              ) : null}
            </Menu.Dropdown>
          </Menu>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** Contacts: the organisation's people, searched by name, number or e-mail, a page at a time. */
export function ContactsPage() {
  const overlays = useOverlays();
  const canEdit = usePermission("canEditOrg");
  const { list, search, searchInput, pager } = useContactSearch();
  const add = canEdit ? <Button onClick={() => overlays.open("createContact")}>New contact</Button> : null;

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
    body = search ? (
      <EmptyState>No contacts match “{search}”.</EmptyState>
    ) : (
      <EmptyState action={add}>
        No contacts yet. Add the people your agents talk to: their names then show in the inbox.
      </EmptyState>
    );
  else
    body = (
      <Table verticalSpacing="sm" highlightOnHover aria-label="Contacts" aria-busy={list.isFetching}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Phone numbers and e-mails</Table.Th>
            <Table.Th>Updated</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {list.data.contacts.map((contact) => (
            <ContactRow key={contact.id} contact={contact} canEdit={canEdit} />
          ))}
        </Table.Tbody>
      </Table>
    );

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1}>Contacts</Title>
        {add}
      </Group>
      {searchInput}
      {body}
      {pager}
    </Stack>
  );
}

import { Group, Pagination, Text, TextInput } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { DEFAULT_DEBOUNCE_MS, formatPhoneNumber } from "@switchboard/core";
import IconSearch from "@tabler/icons-react/dist/esm/icons/IconSearch.mjs";
import { useState } from "react";
import { CONTACTS_PAGE_SIZE, type Contact, useContacts } from "./api.ts";

/** A contact's addresses as shown: phone numbers formatted, e-mails as they are. */
export function shownAddresses(contact: Pick<Contact, "addresses">): string[] {
  return contact.addresses.map(formatPhoneNumber);
}

/** The address a conversation with the contact starts from: its first phone number, else its first e-mail. */
export function primaryAddress(contact: Pick<Contact, "addresses">): string | null {
  return contact.addresses.find((a) => !a.includes("@")) ?? contact.addresses[0] ?? null;
}

/** The search box and page of a contact list: typing resets to the first page; the search waits for a pause. */
export function useContactSearch(pageSize = CONTACTS_PAGE_SIZE) {
  const [phrase, setPhrase] = useState("");
  const [page, setPage] = useState(0);
  const [search] = useDebouncedValue(phrase.trim(), DEFAULT_DEBOUNCE_MS);
  const list = useContacts(search, page, pageSize);
  const total = list.data?.total ?? 0;
  return {
    list,
    search,
    searchInput: (
      <TextInput
        aria-label="Search contacts"
        placeholder="Search names, numbers and e-mails"
        leftSection={<IconSearch size={16} />}
        value={phrase}
        onChange={(event) => {
          setPhrase(event.currentTarget.value);
          setPage(0);
        }}
      />
    ),
    pager:
      total > pageSize ? (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {page * pageSize + 1}–{Math.min(total, (page + 1) * pageSize)} of {total}
          </Text>
          <Pagination
            total={Math.ceil(total / pageSize)}
            value={page + 1}
            onChange={(value) => setPage(value - 1)}
            size="sm"
            aria-label="Contact pages"
          />
        </Group>
      ) : null,
  };
}

import { type Contact, deleteContact, getContact, listContacts, saveContact } from "@switchboard/api";
import {
  keepPreviousData,
  type QueryClient,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { useEffect } from "react";
import { useAccountKey } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";
import { forgetContactNames, rememberContactNames } from "./display-names.ts";

export type { Contact };

/** The inbox's realtime `contacts` event invalidates this key (features/inbox/api.ts). */
export const CONTACTS_KEY = "contacts";
export const CONTACTS_PAGE_SIZE = 25;

/** One page of the organisation's contacts, by name; `search` matches names, numbers and e-mails. */
export function useContacts(search: string, page: number, pageSize = CONTACTS_PAGE_SIZE) {
  const [accountId, viewingAs] = useAccountKey();
  const q = search.trim();
  const query = useQuery({
    queryKey: [CONTACTS_KEY, "list", accountId, viewingAs, q, page, pageSize],
    queryFn: ({ signal }) =>
      apiClient.call(listContacts, { query: { ...(q ? { q } : {}), page, pageSize }, signal }),
    placeholderData: keepPreviousData,
  });
  const contacts = query.isPlaceholderData ? undefined : query.data?.contacts;
  useEffect(() => {
    if (contacts) rememberContactNames(contacts);
  }, [contacts]);
  return query;
}

/**
 * Contacts deleted in this tab (its query client): never asked for again (an overlay still closing over a
 * deleted contact would otherwise fetch it and get a 404 the user did not cause).
 */
const deletedByClient = new WeakMap<QueryClient, Set<number>>();

function deletedIn(queryClient: QueryClient): Set<number> {
  let deleted = deletedByClient.get(queryClient);
  if (!deleted) {
    deleted = new Set();
    deletedByClient.set(queryClient, deleted);
  }
  return deleted;
}

export function wasDeleted(queryClient: QueryClient, id: number | null): boolean {
  return id !== null && deletedIn(queryClient).has(id);
}

/** One contact with the conversations its addresses have in the inbox. */
export function useContact(id: number | null) {
  const [accountId, viewingAs] = useAccountKey();
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: [CONTACTS_KEY, "one", accountId, viewingAs, id],
    enabled: id !== null && !wasDeleted(queryClient, id),
    queryFn: ({ signal }) => apiClient.call(getContact, { params: { id: id ?? 0 }, signal }),
  });
}

/** The id an overlay value names (`?editContact=12`), or null. */
export function contactIdOf(value: string): number | null {
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * Creates (no id) or updates a contact. An update sends the whole merged object as newData; the cached
 * display names follow (addresses it lost are forgotten).
 */
export function useSaveContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id?: number; newData: Record<string, unknown>; previous?: Contact }) =>
      apiClient.call(saveContact, {
        body: input.id === undefined ? { newData: input.newData } : { id: input.id, newData: input.newData },
      }),
    onSuccess: ({ contact }, input) => {
      if (input.previous)
        forgetContactNames(input.previous.addresses.filter((a) => !contact.addresses.includes(a)));
      rememberContactNames([contact]);
      void queryClient.invalidateQueries({ queryKey: [CONTACTS_KEY] });
      void queryClient.invalidateQueries({ queryKey: ["inbox", "list"] });
    },
  });
}

export function useDeleteContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (contact: Contact) => apiClient.call(deleteContact, { body: { id: contact.id } }),
    onSuccess: (_answer, contact) => {
      deletedIn(queryClient).add(contact.id);
      forgetContactNames(contact.addresses);
      queryClient.removeQueries({
        queryKey: [CONTACTS_KEY, "one"],
        predicate: (q) => q.queryKey.at(-1) === contact.id,
      });
      void queryClient.invalidateQueries({ queryKey: [CONTACTS_KEY] });
      void queryClient.invalidateQueries({ queryKey: ["inbox", "list"] });
    },
  });
}

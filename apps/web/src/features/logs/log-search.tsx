import { TextInput } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { DEFAULT_DEBOUNCE_MS, type Filters, type LogScreenState } from "@switchboard/core";
import IconSearch from "@tabler/icons-react/dist/esm/icons/IconSearch.mjs";
import { useEffect, useRef, useState } from "react";

/** The log fields the search box writes: the caller's number, or the name the agent collected. */
const NUMBER_FIELD = "fromNumber";
const NAME_FIELD = "callerName";

/** What a phrase searches: digits (with phone punctuation) the caller's number, anything else the name. */
export function searchFilter(phrase: string): [field: string, value: string] | null {
  const text = phrase.trim();
  if (!text) return null;
  if (/^[+\d\s().-]+$/.test(text) && /\d/.test(text)) return [NUMBER_FIELD, text.replace(/\D/g, "")];
  return [NAME_FIELD, text];
}

/** The phrase the filters hold: a `contains` on the number or the name. */
export function searchPhrase(filters: Filters): string {
  for (const field of [NUMBER_FIELD, NAME_FIELD]) {
    const entry = filters[field];
    if (entry?.op === "contains" && typeof entry.value === "string") return entry.value;
  }
  return "";
}

/** `filters` with the search's own entries replaced by the phrase's. */
export function filtersWithSearch(filters: Filters, phrase: string): Filters {
  const next: Filters = {};
  for (const [field, entry] of Object.entries(filters))
    if (!((field === NUMBER_FIELD || field === NAME_FIELD) && entry.op === "contains")) next[field] = entry;
  const search = searchFilter(phrase);
  if (search) next[search[0]] = { value: search[1], op: "contains" };
  return next;
}

/**
 * The Calls search box (issue #23 item 11): a shortcut to the list's own filters, so the search shows in
 * the filter summary, stays in the address and goes into exports like any filter.
 */
export function LogSearch({
  state,
  set,
}: {
  state: LogScreenState;
  set: (next: LogScreenState, options?: { replace?: boolean }) => void;
}) {
  const current = searchPhrase(state.filters);
  const [phrase, setPhrase] = useState(current);
  const [debounced] = useDebouncedValue(phrase, DEFAULT_DEBOUNCE_MS);
  const latest = useRef({ state, set });
  latest.current = { state, set };

  // Filters changed elsewhere (Clear filters, the builder): the box follows.
  const seen = useRef(current);
  useEffect(() => {
    if (current !== seen.current) {
      seen.current = current;
      setPhrase(current);
    }
  }, [current]);

  useEffect(() => {
    const { state: now, set: apply } = latest.current;
    const wanted = searchFilter(debounced);
    const have = searchFilter(searchPhrase(now.filters));
    if (JSON.stringify(wanted) === JSON.stringify(have)) return;
    seen.current = wanted ? wanted[1] : "";
    apply({ ...now, filters: filtersWithSearch(now.filters, debounced) }, { replace: true });
  }, [debounced]);

  return (
    <TextInput
      aria-label="Search calls"
      placeholder="Caller's number or name"
      leftSection={<IconSearch size={16} />}
      value={phrase}
      onChange={(event) => setPhrase(event.currentTarget.value)}
      w={260}
    />
  );
}

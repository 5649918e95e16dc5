import { Badge, Checkbox, Group, Stack, Text, TextInput, UnstyledButton } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { enhancedSearch, type SearchResult, search } from "@switchboard/api";
import { DEFAULT_DEBOUNCE_MS } from "@switchboard/core";
import IconSearch from "@tabler/icons-react/dist/esm/icons/IconSearch.mjs";
import { useQuery } from "@tanstack/react-query";
import { type KeyboardEvent, useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { useAppPath } from "../../lib/account-context.ts";
import { useAccountKey } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";

const TYPE_LABEL: Record<SearchResult["type"], string> = {
  contact: "Contact",
  conversation: "Conversation",
  agent: "Agent",
  task: "Task",
  account: "Account",
};

/**
 * `?search`: one box over the account in view's contacts, conversations, agents and task people (and, for a partner or
 * reseller, the accounts below it). Arrow keys move through the results, Enter opens one.
 */
export function SearchOverlay({ value }: OverlayComponentProps) {
  const [phrase, setPhrase] = useState(value === "true" ? "" : value);
  const [inMessages, setInMessages] = useState(false);
  const [debounced] = useDebouncedValue(phrase.trim(), DEFAULT_DEBOUNCE_MS);
  const [active, setActive] = useState(0);
  const [accountId, viewingAs] = useAccountKey();
  const { accountPrefix } = useAppPath();
  const navigate = useNavigate();
  const results = useQuery({
    queryKey: ["search", accountId, viewingAs, debounced, inMessages],
    queryFn: ({ signal }) =>
      apiClient.call(inMessages ? enhancedSearch : search, { params: { target: debounced }, signal }),
    enabled: debounced.length > 0,
  });
  const items = results.data?.results ?? [];
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new answer starts at its first result.
  useEffect(() => setActive(0), [results.data]);

  // The result takes the search's place in the history (Back returns to where search was opened). Closing
  // first would go back a step after this navigation and undo it.
  const open = (item: SearchResult) => {
    const base = item.type === "account" ? "/app" : accountPrefix;
    void navigate(`${base}/${item.link}`, { replace: true });
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (items.length === 0) return;
    if (event.key === "ArrowDown") {
      event.preventDefault();
      setActive((i) => (i + 1) % items.length);
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      setActive((i) => (i - 1 + items.length) % items.length);
    } else if (event.key === "Enter") {
      event.preventDefault();
      const item = items[active];
      if (item) open(item);
    }
  };
  const optionId = (i: number) => `search-result-${i}`;

  return (
    <Stack gap="sm">
      <TextInput
        label="Search"
        placeholder="Name, number, e-mail…"
        leftSection={<IconSearch size={16} />}
        value={phrase}
        onChange={(event) => setPhrase(event.currentTarget.value)}
        onKeyDown={onKeyDown}
        data-autofocus
        role="combobox"
        aria-expanded={items.length > 0}
        aria-controls="search-results"
        aria-activedescendant={items.length > 0 ? optionId(active) : undefined}
        aria-autocomplete="list"
      />
      <Checkbox
        label="Also search the words of messages"
        checked={inMessages}
        onChange={(event) => setInMessages(event.currentTarget.checked)}
      />
      {debounced.length === 0 ? (
        <Text size="sm" c="dimmed">
          Type to find contacts, conversations, agents and the people of your tasks. Use ↑ and ↓ to move,
          Enter to open.
        </Text>
      ) : results.isPending ? (
        <LoadingState label="Searching…" />
      ) : results.isError ? (
        <ErrorState error={results.error} onRetry={() => void results.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState>Nothing matches “{debounced}”.</EmptyState>
      ) : (
        <Stack gap={4} id="search-results" role="listbox" aria-label="Results">
          {items.map((item, i) => (
            <UnstyledButton
              key={`${item.type}-${item.id}`}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              onMouseEnter={() => setActive(i)}
              onClick={() => open(item)}
              p="xs"
              style={{
                borderRadius: "var(--mantine-radius-sm)",
                border: "1px solid var(--mantine-color-default-border)",
                background: i === active ? "var(--mantine-color-default-hover)" : undefined,
              }}
            >
              <Group justify="space-between" wrap="nowrap">
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Text size="sm" fw={600} truncate="end">
                    {item.title}
                  </Text>
                  {item.subtitle ? (
                    <Text size="xs" c="dimmed" truncate="end">
                      {item.subtitle}
                    </Text>
                  ) : null}
                </Stack>
                <Badge size="sm" variant="light">
                  {TYPE_LABEL[item.type]}
                </Badge>
              </Group>
            </UnstyledButton>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

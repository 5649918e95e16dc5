import { Badge, Checkbox, Group, Stack, Text, TextInput, UnstyledButton } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { DEFAULT_DEBOUNCE_MS } from "@switchboard/core";
import IconSearch from "@tabler/icons-react/dist/esm/icons/IconSearch.mjs";
import { useState } from "react";
import { useNavigate } from "react-router";
import { EmptyState, ErrorState, LoadingState } from "../../../components/query-state.tsx";
import { accountAppPath, accountTypeLabel } from "../../../lib/account-path.ts";
import { useAccountState } from "../../../lib/account-state.ts";
import type { OverlayComponentProps } from "../../../overlays/overlay-props.ts";
import { type AccountListItem, useAccountSearch } from "../api.ts";

function Result({ item, onPick }: { item: AccountListItem; onPick: (item: AccountListItem) => void }) {
  return (
    <UnstyledButton
      onClick={() => onPick(item)}
      p="xs"
      style={{
        borderRadius: "var(--mantine-radius-sm)",
        border: "1px solid var(--mantine-color-default-border)",
      }}
      aria-label={`${item.displayName} (${accountTypeLabel(item.accountType)})`}
    >
      <Group justify="space-between" wrap="nowrap">
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text size="sm" fw={600} truncate="end">
            {item.displayName}
          </Text>
          <Text size="xs" c="dimmed" truncate="end">
            {item.username}
            {item.email ? ` · ${item.email}` : ""}
          </Text>
        </Stack>
        <Group gap={4} wrap="nowrap">
          {item.disabled ? (
            <Badge size="xs" color="red" variant="light">
              Disabled
            </Badge>
          ) : null}
          <Badge size="sm" variant="light">
            {accountTypeLabel(item.accountType)}
          </Badge>
        </Group>
      </Group>
    </UnstyledButton>
  );
}

/** `?accountSearch`: find an account you can reach and put it in view (`/app/<type>/<id>`). */
export function AccountSearchOverlay(_props: OverlayComponentProps) {
  const { view } = useAccountState();
  const navigate = useNavigate();
  const [phrase, setPhrase] = useState("");
  const [enhanced, setEnhanced] = useState(false);
  const [debounced] = useDebouncedValue(phrase, DEFAULT_DEBOUNCE_MS);
  const search = useAccountSearch(debounced, enhanced);
  const home = view.homeAccount;
  const pick = (item: { accountType: AccountListItem["accountType"]; id: number }) => {
    navigate(item.id === home?.id ? "/app" : accountAppPath(item.accountType, item.id));
  };
  const waiting = phrase.trim() !== debounced.trim();

  return (
    <Stack gap="sm">
      <TextInput
        label="Search accounts"
        placeholder="Name, username or e-mail"
        leftSection={<IconSearch size={16} />}
        value={phrase}
        onChange={(event) => setPhrase(event.currentTarget.value)}
        data-autofocus
        autoFocus
      />
      <Checkbox
        label="Also match phone numbers, ids and the people of each account"
        checked={enhanced}
        onChange={(event) => setEnhanced(event.currentTarget.checked)}
      />
      {home && home.id !== view.account.id ? (
        <Text size="sm">
          In view: <b>{view.account.displayName}</b>.{" "}
          <UnstyledButton
            onClick={() => navigate("/app")}
            c="var(--mantine-color-anchor)"
            fz="sm"
            style={{ textDecoration: "underline" }}
          >
            Back to {home.displayName}
          </UnstyledButton>
        </Text>
      ) : null}
      {!debounced.trim() ? (
        <Text size="sm" c="dimmed">
          Type to search the accounts you can reach.
        </Text>
      ) : search.isPending || waiting ? (
        <LoadingState label="Searching…" />
      ) : search.isError ? (
        <ErrorState title="The search failed" error={search.error} onRetry={() => void search.refetch()} />
      ) : search.data.accounts.length === 0 ? (
        <EmptyState>No accounts match “{debounced.trim()}”.</EmptyState>
      ) : (
        <Stack gap="xs">
          <Stack
            gap="xs"
            aria-label="Matching accounts"
            component="ul"
            p={0}
            m={0}
            style={{ listStyle: "none" }}
          >
            {search.data.accounts.map((item) => (
              <li key={item.id}>
                <Result item={item} onPick={pick} />
              </li>
            ))}
          </Stack>
          {search.data.totalAccounts > search.data.accounts.length ? (
            <Text size="xs" c="dimmed">
              Showing {search.data.accounts.length} of {search.data.totalAccounts}. Type more to narrow the
              search.
            </Text>
          ) : null}
        </Stack>
      )}
    </Stack>
  );
}

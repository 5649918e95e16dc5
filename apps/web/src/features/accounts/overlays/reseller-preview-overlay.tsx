import { Button, Group, Pagination, Stack, Table, Text, Title } from "@mantine/core";
import { useState } from "react";
import { EmptyState, ErrorState, LoadingState } from "../../../components/query-state.tsx";
import type { OverlayComponentProps } from "../../../overlays/overlay-props.ts";
import { useOverlays } from "../../../overlays/use-overlays.tsx";
import { AccountSummary } from "../account-summary.tsx";
import { ACCOUNT_PAGE_SIZE, useAccountList } from "../api.ts";
import { WithOverlayAccount } from "./overlay-account.tsx";

function ResellerOrganizations({ resellerId }: { resellerId: number }) {
  const [page, setPage] = useState(0);
  const overlays = useOverlays();
  const query = useAccountList("organizations", page, { accountId: resellerId });
  if (query.isPending) return <LoadingState label="Loading organizations…" />;
  if (query.isError)
    return (
      <ErrorState
        title="Organizations could not be loaded"
        error={query.error}
        onRetry={() => void query.refetch()}
      />
    );
  const { accounts, totalAccounts } = query.data;
  if (accounts.length === 0) return <EmptyState>No organizations yet.</EmptyState>;
  const pages = Math.ceil(totalAccounts / ACCOUNT_PAGE_SIZE);
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {totalAccounts} organization{totalAccounts === 1 ? "" : "s"}
      </Text>
      <Table fz="sm" aria-label="Organizations of the reseller">
        <Table.Tbody>
          {accounts.map((item) => (
            <Table.Tr key={item.id}>
              <Table.Td>{item.displayName}</Table.Td>
              <Table.Td c="dimmed">{item.username}</Table.Td>
              <Table.Td ta="right">
                <Button
                  size="compact-xs"
                  variant="subtle"
                  onClick={() => overlays.switch("resellerPreview", "orgInfo", String(item.id))}
                >
                  Details
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {pages > 1 ? (
        <Pagination size="sm" total={pages} value={page + 1} onChange={(value) => setPage(value - 1)} />
      ) : null}
    </Stack>
  );
}

/** `?resellerPreview=<id>`: a reseller at a glance — its details and its organisations — before taking over. */
export function ResellerPreviewOverlay({ name, value }: OverlayComponentProps) {
  const overlays = useOverlays();
  return (
    <WithOverlayAccount name={name} value={value}>
      {(account) => (
        <Stack gap="md">
          <AccountSummary account={account} />
          <Title order={3} size="h5">
            Organizations
          </Title>
          <ResellerOrganizations resellerId={account.id} />
          <Group justify="flex-end">
            <Button onClick={() => overlays.switch(name, "resellerTakeover", String(account.id))}>
              Take over
            </Button>
          </Group>
        </Stack>
      )}
    </WithOverlayAccount>
  );
}

import {
  Badge,
  Button,
  Checkbox,
  Group,
  Pagination,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
  VisuallyHidden,
} from "@mantine/core";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { confirm } from "../../components/confirm/confirm-store.ts";
import { EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { accountAppPath, accountTypeLabel } from "../../lib/account-path.ts";
import { useAccountState } from "../../lib/account-state.ts";
import { toast } from "../../lib/toast.ts";
import { useTimeFormat } from "../../lib/use-time-format.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { INFO_OVERLAY, LIST_LABELS, listKindsFor, TAKEOVER_OVERLAY } from "./account-kinds.ts";
import {
  ACCOUNT_PAGE_SIZE,
  type AccountListItem,
  type ListKind,
  useAccountList,
  useDeleteAgentAccount,
} from "./api.ts";
import { CallsForReviewPanel } from "./calls-for-review.tsx";

/** The super admin's tab of flagged calls (`?tab=review`). */
const REVIEW_TAB = "review";

function CreateButton({ kind }: { kind: ListKind }) {
  const { view } = useAccountState();
  const overlays = useOverlays();
  const { permissions, account } = view;
  if (kind === "organizations" && permissions.canEditOrg)
    return <Button onClick={() => overlays.open("createOrgAccount")}>New organization</Button>;
  if (kind === "resellers" && permissions.canEditOrg && account.accountType === "partner")
    return <Button onClick={() => overlays.open("createResellerAccount")}>New reseller</Button>;
  if (kind === "agents" && permissions.canAddAgents)
    return <Button onClick={() => overlays.open("createAgentAccount")}>New agent account</Button>;
  return null;
}

function RowActions({ item }: { item: AccountListItem }) {
  const { view } = useAccountState();
  const overlays = useOverlays();
  const deleteAgent = useDeleteAgentAccount();
  const name = item.displayName;
  if (item.accountType === "agent") {
    const remove = async () => {
      const removed = await confirm({
        title: `Delete ${name}?`,
        details: "The agent account and its configuration are removed. This cannot be undone here.",
        confirmText: "Delete",
        confirmColor: "red",
        onConfirm: async () => {
          await deleteAgent.mutateAsync({ organizationId: view.account.id, agentAccountId: item.id });
        },
      });
      if (removed) toast.success(`${name} deleted.`);
    };
    return (
      <Group gap="xs" justify="flex-end" wrap="nowrap">
        {view.permissions.canTakeoverAgent ? (
          <Button size="xs" variant="light" component={Link} to={accountAppPath("agent", item.id)}>
            Open
          </Button>
        ) : null}
        {view.permissions.canAddAgents ? (
          <Button size="xs" variant="subtle" color="red" onClick={() => void remove()}>
            Delete
          </Button>
        ) : null}
      </Group>
    );
  }
  const type = item.accountType;
  return (
    <Group gap="xs" justify="flex-end" wrap="nowrap">
      <Button
        size="xs"
        variant="light"
        onClick={() => overlays.open(TAKEOVER_OVERLAY[type], String(item.id))}
        aria-label={`Take over ${name}`}
      >
        Take over
      </Button>
      {type === "reseller" ? (
        <Button size="xs" variant="subtle" onClick={() => overlays.open("resellerPreview", String(item.id))}>
          Preview
        </Button>
      ) : null}
      <Button
        size="xs"
        variant="subtle"
        onClick={() => overlays.open(INFO_OVERLAY[type], String(item.id))}
        aria-label={`Details of ${name}`}
      >
        Details
      </Button>
    </Group>
  );
}

/** One list with paging (20 a page): loading, empty and error states. */
export function AccountListPanel({ kind }: { kind: ListKind }) {
  const times = useTimeFormat();
  const { view } = useAccountState();
  const [page, setPage] = useState(0);
  const [includeDisabled, setIncludeDisabled] = useState(false);
  const query = useAccountList(kind, page, { active: !includeDisabled });
  const labels = LIST_LABELS[kind];
  const total = query.data?.totalAccounts ?? 0;
  const pages = Math.max(1, Math.ceil(total / ACCOUNT_PAGE_SIZE));
  const superAdmin = view.user.superAdmin;

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text size="sm" c="dimmed" aria-live="polite">
          {query.data ? `${total} ${total === 1 ? labels.singular : `${labels.singular}s`}` : " "}
        </Text>
        <Group gap="sm">
          {superAdmin && kind !== "agents" ? (
            <Checkbox
              label="Show disabled"
              checked={includeDisabled}
              onChange={(event) => {
                setIncludeDisabled(event.currentTarget.checked);
                setPage(0);
              }}
            />
          ) : null}
          <CreateButton kind={kind} />
        </Group>
      </Group>
      {query.isPending ? (
        <LoadingState label={`Loading ${labels.title.toLowerCase()}…`} />
      ) : query.isError ? (
        <ErrorState
          title={`${labels.title} could not be loaded`}
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : query.data.accounts.length === 0 ? (
        <EmptyState>{labels.empty}</EmptyState>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="xs" highlightOnHover aria-label={labels.title} data-testid={`list-${kind}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Username</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody style={{ opacity: query.isPlaceholderData ? 0.6 : 1 }}>
              {query.data.accounts.map((item) => (
                <Table.Tr key={item.id}>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Text size="sm" fw={500}>
                        {item.displayName}
                      </Text>
                      {item.disabled ? (
                        <Badge size="xs" color="red" variant="light">
                          Disabled
                        </Badge>
                      ) : null}
                      {item.accountType === "organization" && item.premium ? (
                        <Badge size="xs" variant="light">
                          Premium
                        </Badge>
                      ) : null}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" c="dimmed">
                      {item.username}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{times.format(item.timestamp, "date")}</Text>
                  </Table.Td>
                  <Table.Td>
                    <RowActions item={item} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pages > 1 ? (
        <Pagination
          total={pages}
          value={page + 1}
          onChange={(value) => setPage(value - 1)}
          aria-label={`Pages of ${labels.title.toLowerCase()}`}
          getItemProps={(item) => ({ "aria-label": `Page ${item}` })}
          getControlProps={(control) => ({
            "aria-label": `${control.charAt(0).toUpperCase()}${control.slice(1)} page`,
          })}
        />
      ) : null}
    </Stack>
  );
}

/**
 * /app/…/accounts: the partners, resellers, organisations or agent accounts below the account in view,
 * 20 a page, with the actions the permission flags allow (create, take over, details, delete).
 */
export function AccountsPage() {
  const { view } = useAccountState();
  // A new account in view starts on its first list and page.
  return <AccountsView key={view.account.id} />;
}

/** The tab of the Accounts page lives in the address (`?tab=`), so a reload or Back keeps it. */
function useTab(tabs: readonly string[]) {
  const [search, setSearch] = useSearchParams();
  const asked = search.get("tab");
  const tab = asked && tabs.includes(asked) ? asked : (tabs[0] ?? null);
  const setTab = (next: string | null) => {
    if (!next) return;
    setSearch(
      (current) => {
        const params = new URLSearchParams(current);
        if (next === tabs[0]) params.delete("tab");
        else params.set("tab", next);
        return params;
      },
      { replace: true },
    );
  };
  return [tab, setTab] as const;
}

function AccountsView() {
  const { view, viewingAs } = useAccountState();
  const superAdminView = view.user.superAdmin && viewingAs === "superAdmin";
  const kinds = listKindsFor(view.account.accountType, superAdminView);
  // The super admin also reviews flagged calls here (GET /internal/fetchCallsForReview).
  const tabs: string[] = superAdminView ? [...kinds, REVIEW_TAB] : kinds;
  const [tab, setTab] = useTab(tabs);
  return (
    <Stack gap="md">
      <Stack gap={2}>
        <Title order={1}>Accounts</Title>
        <Text c="dimmed">
          Below {view.account.displayName} ({accountTypeLabel(view.account.accountType).toLowerCase()})
        </Text>
      </Stack>
      {tabs.length === 0 ? (
        <EmptyState>An agent account has no accounts below it.</EmptyState>
      ) : tabs.length === 1 ? (
        <AccountListPanel kind={kinds[0] as ListKind} />
      ) : (
        <Tabs value={tab} onChange={setTab} keepMounted={false}>
          <Tabs.List>
            {kinds.map((kind) => (
              <Tabs.Tab key={kind} value={kind}>
                {LIST_LABELS[kind].title}
              </Tabs.Tab>
            ))}
            {superAdminView ? <Tabs.Tab value={REVIEW_TAB}>Calls for review</Tabs.Tab> : null}
          </Tabs.List>
          {kinds.map((kind) => (
            <Tabs.Panel key={kind} value={kind} pt="md">
              <AccountListPanel kind={kind} />
            </Tabs.Panel>
          ))}
          {superAdminView ? (
            <Tabs.Panel value={REVIEW_TAB} pt="md">
              <CallsForReviewPanel />
            </Tabs.Panel>
          ) : null}
        </Tabs>
      )}
    </Stack>
  );
}

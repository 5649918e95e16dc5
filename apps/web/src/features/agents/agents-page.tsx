import {
  ActionIcon,
  Button,
  Card,
  Group,
  Menu,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
  VisuallyHidden,
} from "@mantine/core";
import { formatPhoneNumber } from "@switchboard/core";
import IconDots from "@tabler/icons-react/dist/esm/icons/IconDots.mjs";
import IconStar from "@tabler/icons-react/dist/esm/icons/IconStar.mjs";
import IconStarFilled from "@tabler/icons-react/dist/esm/icons/IconStarFilled.mjs";
import { EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { useAccountState, usePermission } from "../../lib/account-state.ts";
import { useTimeFormat } from "../../lib/use-time-format.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import {
  type AccountListItem,
  favoriteAgents,
  favoriteIds,
  useOrganizationAgents,
  useToggleFavorite,
} from "./api.ts";
import { TemplatesSection } from "./templates/templates-section.tsx";

function FavoriteToggle({ agent, starred }: { agent: AccountListItem; starred: boolean }) {
  const toggle = useToggleFavorite();
  const canEdit = usePermission("canEditOrg");
  return (
    <ActionIcon
      variant="subtle"
      color="yellow"
      disabled={!canEdit}
      loading={toggle.isPending}
      aria-pressed={starred}
      aria-label={
        starred ? `Remove ${agent.displayName} from favourites` : `Add ${agent.displayName} to favourites`
      }
      onClick={() => toggle.mutate(agent.id)}
    >
      {starred ? <IconStarFilled size={18} /> : <IconStar size={18} />}
    </ActionIcon>
  );
}

function AgentMenu({ agent }: { agent: AccountListItem }) {
  const overlays = useOverlays();
  const canAdd = usePermission("canAddAgents");
  const { view } = useAccountState();
  const above = view.actingAsHigherRole;
  const id = String(agent.id);
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" aria-label={`More for ${agent.displayName}`}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => overlays.open("agentInfo", id)}>Info</Menu.Item>
        <Menu.Item onClick={() => overlays.open("agentSettings", id)}>Settings</Menu.Item>
        <Menu.Item onClick={() => overlays.open("schedule", id)}>Schedule</Menu.Item>
        {above ? <Menu.Item onClick={() => overlays.open("agentAdmin", id)}>Administer</Menu.Item> : null}
        {canAdd ? (
          <Menu.Item color="red" onClick={() => overlays.open("deleteAgent", id)}>
            Delete
          </Menu.Item>
        ) : null}
      </Menu.Dropdown>
    </Menu>
  );
}

function AgentCard({ agent, starred }: { agent: AccountListItem; starred: boolean }) {
  const overlays = useOverlays();
  return (
    <Card withBorder padding="md" data-testid="favorite-agent">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={2}>
          <Text fw={600}>{agent.displayName}</Text>
          <Text size="sm" c="dimmed">
            {agent.switchboardPhoneNumber ? formatPhoneNumber(agent.switchboardPhoneNumber) : "No number yet"}
          </Text>
        </Stack>
        <FavoriteToggle agent={agent} starred={starred} />
      </Group>
      <Group gap="xs" mt="sm">
        <Button size="xs" onClick={() => overlays.open("editAgent", String(agent.id))}>
          Edit
        </Button>
        <Button size="xs" variant="default" onClick={() => overlays.open("testAgent", String(agent.id))}>
          Test
        </Button>
      </Group>
    </Card>
  );
}

function AgentTable({ agents, favorites }: { agents: AccountListItem[]; favorites: number[] }) {
  const times = useTimeFormat();
  const overlays = useOverlays();
  return (
    <Table verticalSpacing="sm" highlightOnHover aria-label="All agents">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={40}>
            <VisuallyHidden>Favourite</VisuallyHidden>
          </Table.Th>
          <Table.Th>Agent</Table.Th>
          <Table.Th visibleFrom="xs">Number</Table.Th>
          <Table.Th visibleFrom="sm">Created</Table.Th>
          <Table.Th>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {agents.map((agent) => (
          <Table.Tr key={agent.id}>
            <Table.Td>
              <FavoriteToggle agent={agent} starred={favorites.includes(agent.id)} />
            </Table.Td>
            <Table.Td>
              <Text size="sm" fw={500}>
                {agent.displayName}
              </Text>
              <Text size="xs" c="dimmed">
                {agent.username}
              </Text>
              {/* On a phone the number goes under the name: a column of its own left no room. */}
              {agent.switchboardPhoneNumber ? (
                <Text size="xs" hiddenFrom="xs">
                  {formatPhoneNumber(agent.switchboardPhoneNumber)}
                </Text>
              ) : null}
            </Table.Td>
            <Table.Td visibleFrom="xs" style={{ whiteSpace: "nowrap" }}>
              {agent.switchboardPhoneNumber ? formatPhoneNumber(agent.switchboardPhoneNumber) : "—"}
            </Table.Td>
            <Table.Td visibleFrom="sm">{times.format(agent.timestamp, "date")}</Table.Td>
            <Table.Td>
              <Group gap={4} justify="flex-end" wrap="nowrap">
                <Button
                  size="xs"
                  variant="light"
                  onClick={() => overlays.open("editAgent", String(agent.id))}
                >
                  Edit
                </Button>
                <AgentMenu agent={agent} />
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function OrganizationAgents() {
  const { view } = useAccountState();
  const agents = useOrganizationAgents();
  const overlays = useOverlays();
  const canAdd = usePermission("canAddAgents");
  const favorites = favoriteIds(view.account.settings);
  const newAgent = (
    <Group gap="xs">
      <Button variant="default" onClick={() => overlays.open("schedule")}>
        Schedule
      </Button>
      {canAdd ? <Button onClick={() => overlays.open("setupAgent")}>New agent</Button> : null}
    </Group>
  );
  let body: React.ReactNode;
  if (agents.isPending) body = <LoadingState label="Loading agents…" />;
  else if (agents.isError)
    body = (
      <ErrorState
        title="The agents could not be loaded"
        error={agents.error}
        onRetry={() => void agents.refetch()}
      />
    );
  else if (agents.data.accounts.length === 0)
    body = (
      <EmptyState
        action={
          canAdd ? (
            <Group>
              <Button onClick={() => overlays.open("onboard")}>Guided setup</Button>
              <Button variant="default" onClick={() => overlays.open("setupAgent")}>
                Create an agent
              </Button>
            </Group>
          ) : null
        }
      >
        No agents yet. An agent answers your calls and texts: start from a template in a few minutes.
      </EmptyState>
    );
  else {
    const list = agents.data.accounts;
    body = (
      <Stack gap="lg">
        <section aria-label="Favourites">
          <Title order={2} size="h4" mb="sm">
            Favourites
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
            {favoriteAgents(list, favorites).map((agent) => (
              <AgentCard key={agent.id} agent={agent} starred={favorites.includes(agent.id)} />
            ))}
          </SimpleGrid>
        </section>
        <section aria-label="All agents">
          <Title order={2} size="h4" mb="sm">
            All agents ({list.length})
          </Title>
          <AgentTable agents={list} favorites={favorites} />
        </section>
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1}>Agents</Title>
        {newAgent}
      </Group>
      <Tabs defaultValue="agents" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="agents">Agents</Tabs.Tab>
          <Tabs.Tab value="templates">Templates</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="agents">{body}</Tabs.Panel>
        <Tabs.Panel value="templates">
          <TemplatesSection />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

/** An agent account in view: the agent itself. */
function OwnAgent() {
  const { view } = useAccountState();
  const overlays = useOverlays();
  const id = String(view.account.id);
  return (
    <Stack gap="md">
      <Title order={1}>{view.account.displayName}</Title>
      <Group>
        <Button onClick={() => overlays.open("editAgent", id)}>Edit agent</Button>
        <Button variant="default" onClick={() => overlays.open("testAgent", id)}>
          Test
        </Button>
        <Button variant="default" onClick={() => overlays.open("agentInfo", id)}>
          Info
        </Button>
      </Group>
    </Stack>
  );
}

export function AgentsPage() {
  const { view } = useAccountState();
  if (view.account.accountType === "organization") return <OrganizationAgents />;
  if (view.account.accountType === "agent") return <OwnAgent />;
  return (
    <Stack gap="md">
      <Title order={1}>Agents</Title>
      <Text>
        Agents belong to organizations: open an organization from Accounts to see and build its agents.
      </Text>
    </Stack>
  );
}

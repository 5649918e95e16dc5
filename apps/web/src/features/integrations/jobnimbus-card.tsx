import {
  Badge,
  Button,
  Card,
  Group,
  List,
  PasswordInput,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { type FormEvent, useState } from "react";
import { ActionError, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { usePermission } from "../../lib/account-state.ts";
import { useIntegration, useJobNimbusSettings, useJobNimbusTeam } from "./api.ts";

const today = () => new Date().toISOString().slice(0, 10);

/** JobNimbus: check and save the API key, see the workflows and who of the team is free on a day. */
export function JobNimbusCard() {
  const saved = useIntegration("jobnimbus");
  const check = useJobNimbusSettings();
  const team = useJobNimbusTeam();
  const canEdit = usePermission("canEditOrg");
  const [key, setKey] = useState("");
  const [day, setDay] = useState(today);
  const storedKey = saved.data?.appData.apiKey;
  const refused = check.data && !check.data.valid ? check.data : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    check.mutate(key.trim(), { onSuccess: (answer) => answer.valid && setKey("") });
  };
  return (
    <Card withBorder padding="lg" aria-label="JobNimbus">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h5">
            JobNimbus
          </Title>
          {saved.data ? (
            typeof storedKey === "string" ? (
              <Badge color="teal">Connected</Badge>
            ) : (
              <Badge color="gray">Not connected</Badge>
            )
          ) : null}
        </Group>
        {saved.isPending ? <LoadingState label="Loading JobNimbus…" /> : null}
        {saved.isError ? <ErrorState error={saved.error} onRetry={() => saved.refetch()} /> : null}
        {typeof storedKey === "string" ? (
          <Text size="sm">
            API key <code>{storedKey}</code> saved. Your agent can pass leads to JobNimbus.
          </Text>
        ) : null}
        <form onSubmit={submit}>
          <Stack gap="xs">
            <PasswordInput
              label={typeof storedKey === "string" ? "Replace the API key" : "JobNimbus API key"}
              description="In JobNimbus: Settings → API → New API key. In the sandbox, any key starting with sandbox_ works."
              value={key}
              onChange={(event) => setKey(event.currentTarget.value)}
              disabled={!canEdit}
            />
            <Button
              type="submit"
              w="fit-content"
              loading={check.isPending}
              disabled={!canEdit || !key.trim()}
            >
              Check and save
            </Button>
          </Stack>
        </form>
        {refused ? (
          <Text c="red" size="sm" role="alert">
            JobNimbus refused the key ({refused.status}): {refused.message}
          </Text>
        ) : null}
        {check.data?.valid && check.data.workflows ? (
          <div>
            <Text size="sm" fw={600}>
              Workflows
            </Text>
            <List size="sm">
              {check.data.workflows.map((workflow) => (
                <List.Item key={workflow.id}>
                  {workflow.name}: {workflow.statuses.join(" → ")}
                </List.Item>
              ))}
            </List>
          </div>
        ) : null}
        {typeof storedKey === "string" ? (
          <Group align="end">
            <TextInput
              type="date"
              label="Team on"
              value={day}
              onChange={(event) => setDay(event.currentTarget.value)}
            />
            <Button variant="light" loading={team.isPending} onClick={() => team.mutate(day)}>
              Show team
            </Button>
          </Group>
        ) : null}
        {team.data?.valid && team.data.team ? (
          <Table aria-label="JobNimbus team">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>E-mail</Table.Th>
                <Table.Th>Tasks that day</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {team.data.team.map((member) => (
                <Table.Tr key={member.id}>
                  <Table.Td>{member.name}</Table.Td>
                  <Table.Td>{member.email ?? "—"}</Table.Td>
                  <Table.Td>{member.busyCount}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : null}
        {team.data && !team.data.valid ? (
          <Text c="red" size="sm" role="alert">
            JobNimbus refused ({team.data.status}): {team.data.message}
          </Text>
        ) : null}
        <ActionError error={check.error ?? team.error} />
      </Stack>
    </Card>
  );
}

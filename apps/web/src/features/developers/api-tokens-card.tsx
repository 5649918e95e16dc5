import {
  Badge,
  Button,
  Card,
  Code,
  Group,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import type { ApiTokenType } from "@switchboard/api";
import { type FormEvent, useState } from "react";
import { ConfirmButton } from "../../components/confirm/confirm-button.tsx";
import { ActionError, EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { usePermission } from "../../lib/account-state.ts";
import { toast } from "../../lib/toast.ts";
import { useTimeFormat } from "../../lib/use-time-format.ts";
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from "./api.ts";
import { ShownOnce } from "./shown-once.tsx";

const TYPE_LABELS: Record<ApiTokenType, string> = { full: "Full access", readOnly: "Read only" };

/**
 * The organisation's API tokens for server-to-server calls: made here (shown once), listed masked with
 * their last use, revoked at once.
 */
export function ApiTokensCard() {
  const times = useTimeFormat();
  const tokens = useApiTokens();
  const create = useCreateApiToken();
  const revoke = useRevokeApiToken();
  const canEdit = usePermission("canEditOrg");
  const [description, setDescription] = useState("");
  const [type, setType] = useState<ApiTokenType>("full");
  const [shown, setShown] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { description: description.trim(), type },
      {
        onSuccess: (answer) => {
          setDescription("");
          setShown(answer.token);
          toast.success("API token created.");
        },
      },
    );
  };

  return (
    <Card withBorder padding="lg" aria-label="API tokens">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4">
            API tokens
          </Title>
          <Text size="sm" c="dimmed">
            For your servers: send a token as <Code>Authorization: Bearer &lt;token&gt;</Code> on any call of
            the API. It acts for this organisation only, as one of its admins.
          </Text>
        </div>
        {shown ? <ShownOnce title="Your new API token" value={shown} onDone={() => setShown(null)} /> : null}
        {canEdit ? (
          <form onSubmit={submit} aria-label="Create an API token">
            <Stack gap="xs">
              <Group align="flex-end" gap="xs" grow>
                <TextInput
                  label="Description"
                  placeholder="CRM sync"
                  value={description}
                  onChange={(e) => setDescription(e.currentTarget.value)}
                />
                <Select
                  label="Access"
                  data={(Object.keys(TYPE_LABELS) as ApiTokenType[]).map((value) => ({
                    value,
                    label: TYPE_LABELS[value],
                  }))}
                  value={type}
                  allowDeselect={false}
                  onChange={(value) => setType((value ?? "full") as ApiTokenType)}
                />
              </Group>
              <ActionError error={create.error} />
              <Group>
                <Button type="submit" loading={create.isPending}>
                  Create token
                </Button>
              </Group>
            </Stack>
          </form>
        ) : null}
        {tokens.isPending ? <LoadingState label="Loading the API tokens…" /> : null}
        {tokens.isError ? <ErrorState error={tokens.error} onRetry={() => void tokens.refetch()} /> : null}
        {tokens.data && tokens.data.length === 0 ? <EmptyState>No API tokens yet.</EmptyState> : null}
        {tokens.data && tokens.data.length > 0 ? (
          <Table.ScrollContainer minWidth={560}>
            <Table aria-label="API tokens list">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Description</Table.Th>
                  <Table.Th>Token</Table.Th>
                  <Table.Th>Access</Table.Th>
                  <Table.Th>Last used</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {tokens.data.map((token) => (
                  <Table.Tr key={token.id} data-testid="api-token-row">
                    <Table.Td>
                      <Text size="sm">{token.description || "—"}</Text>
                      <Text size="xs" c="dimmed">
                        {times.format(token.createdAt, "dateTime")}
                        {token.createdBy ? ` by ${token.createdBy}` : ""}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Code>{token.token}</Code>
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light">{TYPE_LABELS[token.type]}</Badge>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">
                        {token.lastUsedAt ? times.format(token.lastUsedAt, "dateTime") : "Never"}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      {canEdit ? (
                        <ConfirmButton
                          color="red"
                          title={`Revoke the token ${token.description || token.token}?`}
                          details="Calls made with it are refused from now on."
                          confirmText="Revoke"
                          confirmColor="red"
                          onConfirm={async () => {
                            await revoke.mutateAsync(token.id);
                            toast.success("API token revoked.");
                          }}
                        >
                          Revoke
                        </ConfirmButton>
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : null}
      </Stack>
    </Card>
  );
}

import {
  Badge,
  Button,
  Card,
  Group,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from "@mantine/core";
import { WEBHOOK_EVENT_TYPES, type Webhook, type WebhookDelivery } from "@switchboard/api";
import { type FormEvent, useState } from "react";
import { ConfirmButton } from "../../components/confirm/confirm-button.tsx";
import { ActionError, EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { usePermission } from "../../lib/account-state.ts";
import { errorMessage } from "../../lib/shell-api.ts";
import { toast } from "../../lib/toast.ts";
import { useTimeFormat } from "../../lib/use-time-format.ts";
import {
  useCreateWebhook,
  useDeleteWebhook,
  useResendDelivery,
  useRotateWebhookSecret,
  useSetWebhookEnabled,
  useTestWebhook,
  useWebhookDeliveries,
  useWebhooks,
} from "./api.ts";
import { ShownOnce } from "./shown-once.tsx";

const TYPE_OPTIONS = [
  { value: "all", label: "All events" },
  ...WEBHOOK_EVENT_TYPES.map((type) => ({ value: type, label: type })),
];

export function NewWebhookForm({ onSecret }: { onSecret: (secret: string) => void }) {
  const [url, setUrl] = useState("");
  const [label, setLabel] = useState("");
  const [type, setType] = useState<Webhook["type"]>("all");
  const create = useCreateWebhook();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { url: url.trim(), label: label.trim(), type },
      {
        onSuccess: (answer) => {
          setUrl("");
          setLabel("");
          onSecret(answer.secret);
          toast.success("Webhook added.");
        },
      },
    );
  };
  return (
    <form onSubmit={submit} aria-label="Add a webhook">
      <Stack gap="xs">
        <Group align="flex-end" gap="xs" grow>
          <TextInput
            label="Endpoint URL"
            placeholder="https://example.com/switchboard/events"
            required
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
          />
          <TextInput
            label="Label"
            placeholder="CRM"
            value={label}
            onChange={(e) => setLabel(e.currentTarget.value)}
          />
          <Select
            label="Events"
            data={TYPE_OPTIONS}
            value={type}
            allowDeselect={false}
            onChange={(value) => setType((value ?? "all") as Webhook["type"])}
          />
        </Group>
        <ActionError error={create.error} />
        <Group>
          <Button type="submit" loading={create.isPending} disabled={!url.trim()}>
            Add webhook
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function WebhookRow({ webhook, onSecret }: { webhook: Webhook; onSecret: (secret: string) => void }) {
  const test = useTestWebhook();
  const rotate = useRotateWebhookSecret();
  const remove = useDeleteWebhook();
  const enable = useSetWebhookEnabled();
  const name = webhook.label || webhook.url;
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={500}>
          {webhook.label || "—"}
        </Text>
        <Text size="xs" c="dimmed" style={{ wordBreak: "break-all" }}>
          {webhook.url}
        </Text>
      </Table.Td>
      <Table.Td>
        <Badge variant="light">{webhook.type === "all" ? "All events" : webhook.type}</Badge>
      </Table.Td>
      <Table.Td>
        {webhook.disabledAt ? (
          <Tooltip label={webhook.disabledReason ?? "Turned off"} multiline w={280}>
            <Badge color="red">Off</Badge>
          </Tooltip>
        ) : (
          <Badge color="green">On</Badge>
        )}
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          <Button
            size="compact-xs"
            variant="light"
            loading={test.isPending}
            onClick={() =>
              test.mutate(webhook.url, {
                onSuccess: (answer) =>
                  answer.ok
                    ? toast.success(`Test event delivered (${answer.status}).`)
                    : toast.error(`Test event failed: ${answer.error ?? answer.status}`),
                onError: (error) => toast.error(errorMessage(error)),
              })
            }
          >
            Send test
          </Button>
          {webhook.disabledAt ? (
            <Button
              size="compact-xs"
              variant="light"
              loading={enable.isPending}
              onClick={() =>
                enable.mutate(
                  { webhookId: webhook.id, enabled: true },
                  { onError: (error) => toast.error(errorMessage(error)) },
                )
              }
            >
              Turn on
            </Button>
          ) : null}
          <ConfirmButton
            title={`New signing secret for ${name}?`}
            details="The current secret keeps signing beside the new one for 24 hours."
            confirmText="Rotate secret"
            onConfirm={async () => onSecret((await rotate.mutateAsync(webhook.id)).secret)}
          >
            Rotate secret
          </ConfirmButton>
          <ConfirmButton
            color="red"
            title={`Delete the webhook ${name}?`}
            details="It receives no more events, and its deliveries are removed."
            confirmText="Delete"
            confirmColor="red"
            onConfirm={async () => {
              await remove.mutateAsync(webhook.id);
              toast.success("Webhook deleted.");
            }}
          >
            Delete
          </ConfirmButton>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

const STATUS_COLOR: Record<WebhookDelivery["status"], string> = {
  pending: "yellow",
  succeeded: "green",
  failed: "red",
};

function Deliveries() {
  const times = useTimeFormat();
  const deliveries = useWebhookDeliveries();
  const resend = useResendDelivery();
  if (deliveries.isPending) return <LoadingState label="Loading the deliveries…" />;
  if (deliveries.isError)
    return <ErrorState error={deliveries.error} onRetry={() => void deliveries.refetch()} />;
  const rows = deliveries.data.deliveries;
  if (rows.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No deliveries yet.
      </Text>
    );
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table verticalSpacing={4} aria-label="Webhook deliveries">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Event</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Attempts</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((delivery) => {
            const last = delivery.attempts.at(-1);
            return (
              <Table.Tr key={delivery.id} data-testid="webhook-delivery">
                <Table.Td>
                  <Text size="sm">{delivery.eventType}</Text>
                  <Text size="xs" c="dimmed" style={{ wordBreak: "break-all" }}>
                    {delivery.url}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Badge color={STATUS_COLOR[delivery.status]} variant="light">
                    {delivery.status}
                  </Badge>
                  {delivery.status === "pending" && delivery.nextAttemptAt ? (
                    <Text size="xs" c="dimmed">
                      next {times.format(delivery.nextAttemptAt, "shortDateTimeSeconds")}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>
                  <Tooltip
                    multiline
                    w={360}
                    label={
                      delivery.attempts.length === 0
                        ? "Not attempted yet."
                        : delivery.attempts
                            .map(
                              (attempt) =>
                                `${times.format(attempt.at, "shortDateTimeSeconds")} · ${attempt.status ?? "no answer"} · ${attempt.durationMs} ms${
                                  attempt.error ? ` · ${attempt.error}` : ""
                                }${attempt.excerpt ? ` · “${attempt.excerpt.slice(0, 80)}”` : ""}`,
                            )
                            .join("\n")
                    }
                    style={{ whiteSpace: "pre-line" }}
                  >
                    <Text size="sm">
                      {delivery.attempts.length}
                      {last ? ` (last: ${last.status ?? "no answer"})` : ""}
                    </Text>
                  </Tooltip>
                </Table.Td>
                <Table.Td>
                  <Text size="xs">{times.format(delivery.createdAt, "shortDateTimeSeconds")}</Text>
                </Table.Td>
                <Table.Td>
                  <Button
                    size="compact-xs"
                    variant="light"
                    loading={resend.isPending && resend.variables === delivery.id}
                    onClick={() =>
                      resend.mutate(delivery.id, {
                        onSuccess: () => toast.success("Sending it again."),
                        onError: (error) => toast.error(errorMessage(error)),
                      })
                    }
                  >
                    Resend
                  </Button>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * The organisation's webhooks: endpoints (the signing secret shown once at creation and rotation), a test
 * event, and the latest deliveries with every attempt and a resend.
 */
export function WebhooksCard() {
  const webhooks = useWebhooks();
  const canEdit = usePermission("canEditOrg");
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <Card withBorder padding="lg" aria-label="Webhooks">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4">
            Webhooks
          </Title>
          <Text size="sm" c="dimmed">
            Switchboard posts your organisation's events (calls, text messages, closed conversations, new
            contacts, bookings) to these addresses, signed as the Standard Webhooks specification says, and
            retries for about a day when your endpoint fails.
          </Text>
        </div>
        {secret ? <ShownOnce title="Signing secret" value={secret} onDone={() => setSecret(null)} /> : null}
        {canEdit ? <NewWebhookForm onSecret={setSecret} /> : null}
        {webhooks.isPending ? <LoadingState label="Loading the webhooks…" /> : null}
        {webhooks.isError ? (
          <ErrorState error={webhooks.error} onRetry={() => void webhooks.refetch()} />
        ) : null}
        {webhooks.data && webhooks.data.length === 0 ? <EmptyState>No webhooks yet.</EmptyState> : null}
        {webhooks.data && webhooks.data.length > 0 ? (
          <Table.ScrollContainer minWidth={640}>
            <Table aria-label="Webhook endpoints">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Endpoint</Table.Th>
                  <Table.Th>Events</Table.Th>
                  <Table.Th>State</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {webhooks.data.map((webhook) => (
                  <WebhookRow key={webhook.id} webhook={webhook} onSecret={setSecret} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : null}
        <Title order={3} size="h5">
          Deliveries
        </Title>
        <Deliveries />
      </Stack>
    </Card>
  );
}

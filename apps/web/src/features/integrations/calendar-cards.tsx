import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  PasswordInput,
  Select,
  Stack,
  Text,
  Title,
} from "@mantine/core";
import { type FormEvent, useState } from "react";
import { ConfirmButton } from "../../components/confirm/confirm-button.tsx";
import { ActionError, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { SavedNote } from "../../components/saved-note.tsx";
import { usePermission } from "../../lib/account-state.ts";
import {
  useCalendly,
  useConnectGoogle,
  useDisableCalendly,
  useDisconnectGoogle,
  useEnableCalendly,
  useGoogleCalendars,
  useSetMainCalendar,
} from "./api.ts";

/** Where Google's consent page sends the browser back: this page, this overlay open. */
function returnHere(): string {
  const url = new URL(window.location.href);
  url.searchParams.delete("calendarConnected");
  url.searchParams.delete("calendarError");
  return `${url.pathname}${url.search}`;
}

function StateBadge({ state }: { state: "connected" | "broken" | "disconnected" }) {
  if (state === "connected") return <Badge color="teal">Connected</Badge>;
  if (state === "broken") return <Badge color="red">Needs reconnecting</Badge>;
  return <Badge color="gray">Not connected</Badge>;
}

/** Google Calendar: connect through Google's consent page, pick the main calendar, disconnect. */
export function GoogleCalendarCard() {
  const status = useGoogleCalendars();
  const connect = useConnectGoogle();
  const setMain = useSetMainCalendar();
  const disconnect = useDisconnectGoogle();
  const canEdit = usePermission("canEditOrg");
  const [savedAt, setSavedAt] = useState<number | null>(null);
  const data = status.data;
  return (
    <Card withBorder padding="lg" aria-label="Google Calendar">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h5">
            Google Calendar
          </Title>
          {data ? <StateBadge state={data.state} /> : null}
        </Group>
        {status.isPending ? <LoadingState label="Loading Google Calendar…" /> : null}
        {status.isError ? <ErrorState error={status.error} onRetry={() => status.refetch()} /> : null}
        {data && data.state === "broken" ? (
          <Alert color="red" variant="light" title="Google Calendar stopped working" role="alert">
            {data.brokenReason} Your agent books into your own schedule until you reconnect.
          </Alert>
        ) : null}
        {data && data.state !== "connected" ? (
          <>
            <Text size="sm">
              Your agent checks when you are busy and adds the appointments it books to your Google calendar.
            </Text>
            <Button
              w="fit-content"
              loading={connect.isPending}
              disabled={!canEdit}
              onClick={() => connect.mutate(returnHere())}
            >
              {data.state === "broken" ? "Reconnect Google Calendar" : "Connect Google Calendar"}
            </Button>
          </>
        ) : null}
        {data && data.state === "connected" ? (
          <>
            <Text size="sm">
              Connected as <strong>{data.account}</strong>
              {data.inherited ? " (your organisation's calendar)" : ""}.
            </Text>
            <Group align="end">
              <Select
                label="Bookings go to"
                data={data.calendars.map((c) => ({
                  value: c.id,
                  label: c.primary ? `${c.summary} (primary)` : c.summary,
                }))}
                value={data.main?.id ?? null}
                disabled={!canEdit || data.inherited || setMain.isPending}
                allowDeselect={false}
                onChange={(value) => {
                  if (value) setMain.mutate(value, { onSuccess: () => setSavedAt(Date.now()) });
                }}
                w={320}
              />
              <SavedNote at={savedAt} />
            </Group>
            {!data.inherited ? (
              canEdit ? (
                <Group>
                  <ConfirmButton
                    color="red"
                    title="Disconnect Google Calendar?"
                    details="Your agent stops checking and booking your Google calendar; bookings go to your own schedule."
                    confirmText="Disconnect"
                    confirmColor="red"
                    onConfirm={async () => {
                      await disconnect.mutateAsync();
                    }}
                  >
                    Disconnect Google Calendar
                  </ConfirmButton>
                </Group>
              ) : null
            ) : null}
          </>
        ) : null}
        <ActionError error={connect.error ?? setMain.error ?? disconnect.error} />
      </Stack>
    </Card>
  );
}

/** Calendly: a personal access token, the event type the agent books. */
export function CalendlyCard() {
  const status = useCalendly();
  const enable = useEnableCalendly();
  const disable = useDisableCalendly();
  const canEdit = usePermission("canEditOrg");
  const [token, setToken] = useState("");
  const data = status.data;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    enable.mutate({ userPAT: token.trim() }, { onSuccess: () => setToken("") });
  };
  return (
    <Card withBorder padding="lg" aria-label="Calendly">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h5">
            Calendly
          </Title>
          {data ? <StateBadge state={data.state} /> : null}
        </Group>
        {status.isPending ? <LoadingState label="Loading Calendly…" /> : null}
        {status.isError ? <ErrorState error={status.error} onRetry={() => status.refetch()} /> : null}
        {data && data.state === "broken" ? (
          <Alert color="red" variant="light" role="alert">
            {data.brokenReason} Paste a new token to reconnect.
          </Alert>
        ) : null}
        {data?.enabled ? (
          <>
            <Text size="sm">
              Enabled for <strong>{data.account}</strong>
              {data.inherited ? " (your organisation's Calendly)" : ""}. Your agent books{" "}
              <strong>
                {data.eventTypes.find((t) => t.uri === data.eventType)?.name ?? "your first event type"}
              </strong>
              .
            </Text>
            {data.schedulingUrl ? (
              <Anchor href={data.schedulingUrl} target="_blank" rel="noreferrer" size="sm">
                Your scheduling page
              </Anchor>
            ) : null}
            {!data.inherited ? (
              canEdit ? (
                <Group>
                  <ConfirmButton
                    color="red"
                    title="Disable Calendly?"
                    details="Your agent stops booking into Calendly and the token is forgotten."
                    confirmText="Disable"
                    confirmColor="red"
                    onConfirm={async () => {
                      await disable.mutateAsync();
                    }}
                  >
                    Disable Calendly
                  </ConfirmButton>
                </Group>
              ) : null
            ) : null}
          </>
        ) : data ? (
          <form onSubmit={submit}>
            <Stack gap="xs">
              <PasswordInput
                label="Personal access token"
                description="In Calendly: Integrations → API & Webhooks → Personal access tokens. In the sandbox, any token starting with sandbox_ works."
                value={token}
                onChange={(event) => setToken(event.currentTarget.value)}
                required
                disabled={!canEdit}
              />
              <Button
                type="submit"
                w="fit-content"
                loading={enable.isPending}
                disabled={!canEdit || !token.trim()}
              >
                Enable Calendly
              </Button>
            </Stack>
          </form>
        ) : null}
        <ActionError error={enable.error ?? disable.error} />
      </Stack>
    </Card>
  );
}

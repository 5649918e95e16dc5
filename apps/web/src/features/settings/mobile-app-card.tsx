import { Button, Card, Group, Stack, Text, Title } from "@mantine/core";
import { getCheckIn, mobileCheckIn } from "@switchboard/api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ActionError } from "../../components/query-state.tsx";
import { apiClient } from "../../lib/api-client.ts";
import { useMobileApp } from "../../lib/environment.tsx";
import { newRequestId, requestNative } from "../../lib/native-bridge.ts";
import { useTimeFormat } from "../../lib/use-time-format.ts";

/** What the native app answers to `syncContacts` and `registerPush` (README: the mobile app's contract). */
type SyncAnswer = { synced?: number; error?: string } | null;
type PushAnswer = { token?: string; denied?: boolean; error?: string } | null;

const NO_ANSWER = "The app did not answer. Update the app and try again.";
/** Check-in kinds this card reads and writes: the app's push registration, the last contacts sync. */
const APP = "app";
const CONTACTS = "contactsSync";

function useCheckIn(kind: string) {
  return useQuery({
    queryKey: ["checkIn", kind],
    queryFn: async ({ signal }) => (await apiClient.call(getCheckIn, { params: { kind }, signal })).checkIn,
  });
}

/**
 * "This phone", in the native app only (spec §2.2): the organisation's contacts synced to the phone's address
 * book, and the phone's notifications, through the native bridge; each result is recorded as a check-in so
 * the card shows when it last happened.
 */
export function MobileAppCard() {
  const times = useTimeFormat();
  const mobileApp = useMobileApp();
  const queryClient = useQueryClient();
  const app = useCheckIn(APP);
  const contacts = useCheckIn(CONTACTS);
  const record = (body: { kind: string; pushToken?: string }) =>
    apiClient.call(mobileCheckIn, {
      body: {
        ...body,
        ...(mobileApp.platform ? { platform: mobileApp.platform } : {}),
        ...(mobileApp.appVersion ? { appVersion: mobileApp.appVersion } : {}),
      },
    });

  const sync = useMutation({
    mutationFn: async () => {
      const answer = (await requestNative({
        command: "syncContacts",
        path: "/api/v1/mobileContacts",
        requestId: newRequestId("syncContacts"),
      })) as SyncAnswer;
      if (!answer) throw new Error(NO_ANSWER);
      if (answer.error) throw new Error(answer.error);
      await record({ kind: CONTACTS });
      return answer.synced ?? 0;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["checkIn", CONTACTS] }),
  });

  const push = useMutation({
    mutationFn: async () => {
      const answer = (await requestNative({
        command: "registerPush",
        requestId: newRequestId("registerPush"),
      })) as PushAnswer;
      if (!answer) throw new Error(NO_ANSWER);
      if (answer.denied)
        throw new Error("Notifications are turned off for this app. Allow them in the phone's settings.");
      if (answer.error || !answer.token) throw new Error(answer.error ?? NO_ANSWER);
      await record({ kind: APP, pushToken: answer.token });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["checkIn", APP] }),
  });

  if (!mobileApp.isMobileApp) return null;
  const pushOn = typeof app.data?.data.pushToken === "string" && app.data.data.pushToken !== "";
  return (
    <Card withBorder padding="lg" maw={520} component="section" aria-labelledby="this-phone-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="this-phone-title">
          This phone
        </Title>
        <Stack gap={6}>
          <Text fw={500}>Contacts</Text>
          <Text size="sm" aria-live="polite">
            {sync.isSuccess
              ? `Synced ${sync.data.toLocaleString()} ${sync.data === 1 ? "contact" : "contacts"} to this phone.`
              : contacts.data
                ? `Last synced ${times.format(contacts.data.at, "dateTime")}.`
                : "Copy the organisation's contacts to this phone's address book, so calls and texts show their names."}
          </Text>
          <ActionError error={sync.error} />
          <Group>
            <Button variant="light" loading={sync.isPending} onClick={() => sync.mutate()}>
              Sync contacts to this phone
            </Button>
          </Group>
        </Stack>
        <Stack gap={6}>
          <Text fw={500}>Notifications</Text>
          <Text size="sm" aria-live="polite">
            {pushOn && app.data
              ? `Notifications are on for this phone (since ${times.format(app.data.at, "dateTime")}).`
              : "Get a notification on this phone for new messages, missed calls and finished task lists."}
          </Text>
          <ActionError error={push.error} />
          <Group>
            <Button variant="light" loading={push.isPending} onClick={() => push.mutate()}>
              {pushOn ? "Register this phone again" : "Turn on notifications"}
            </Button>
          </Group>
        </Stack>
      </Stack>
    </Card>
  );
}

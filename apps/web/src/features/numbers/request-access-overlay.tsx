import { Alert, Button, Group, Stack, Text, Textarea } from "@mantine/core";
import { type AccessFeature, getAccessRequest, requestAccess } from "@switchboard/api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ActionError, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { useAccountKey, useLoadedAccount } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";
import { useTimeFormat } from "../../lib/use-time-format.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";

const FEATURES: Record<AccessFeature, { label: string; why: string }> = {
  sms: {
    label: "text messaging",
    why: "With text messaging your agent answers texts to its number, and you can text people from the inbox.",
  },
};

function useAccessRequest(feature: AccessFeature) {
  const [accountId, viewingAs] = useAccountKey();
  return useQuery({
    queryKey: ["accessRequest", feature, accountId, viewingAs],
    queryFn: ({ signal }) => apiClient.call(getAccessRequest, { query: { feature }, signal }),
  });
}

/**
 * `?requestAccess=sms`: asking whoever runs Switchboard for the organisation (its reseller, partner and the
 * platform's administrators) to turn text messaging on; says when it was asked, and when it is on.
 */
export function RequestAccessOverlay({ close }: OverlayComponentProps) {
  const times = useTimeFormat();
  // Text messaging is the one feature asked for so far (`?requestAccess=sms`, or without a value).
  const feature: AccessFeature = "sms";
  const { label, why } = FEATURES[feature];
  const account = useLoadedAccount();
  const state = useAccessRequest(feature);
  const queryClient = useQueryClient();
  const [message, setMessage] = useState("");
  const send = useMutation({
    mutationFn: () =>
      apiClient.call(requestAccess, {
        body: { feature, ...(message.trim() ? { message: message.trim() } : {}) },
      }),
    onSuccess: (answer) => {
      queryClient.setQueriesData({ queryKey: ["accessRequest", feature] }, answer);
    },
  });
  if (state.isPending) return <LoadingState />;
  if (state.isError) return <ErrorState error={state.error} onRetry={() => void state.refetch()} />;
  const current = send.data ?? state.data;
  if (current.enabled)
    return (
      <Stack gap="sm">
        <Alert color="teal" variant="light" role="status">
          {send.data?.message ??
            `${label[0]?.toUpperCase()}${label.slice(1)} is turned on for ${account.displayName}.`}
        </Alert>
        <Group justify="flex-end">
          <Button onClick={close}>Close</Button>
        </Group>
      </Stack>
    );
  if (current.requestedAt !== null)
    return (
      <Stack gap="sm">
        <Alert color="blue" variant="light" role="status" title="Request sent">
          {send.data?.message ??
            `You asked for ${label} on ${times.format(current.requestedAt, "dateTime")}.`}
        </Alert>
        <Text size="sm">
          Your partner and the platform's administrators have it. You will be able to use {label} as soon as
          they turn it on for {account.displayName}; nothing else is needed from you.
        </Text>
        <Group justify="flex-end">
          <Button onClick={close}>Close</Button>
        </Group>
      </Stack>
    );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate();
  };
  return (
    <form onSubmit={submit}>
      <Stack gap="sm">
        <Text size="sm">
          {label[0]?.toUpperCase()}
          {label.slice(1)} is not turned on for {account.displayName} yet. {why}
        </Text>
        <Text size="sm">
          Send a request to your partner and the platform's administrators: they can turn it on for you.
        </Text>
        <Textarea
          label="What will you use it for? (optional)"
          maxLength={1000}
          autosize
          minRows={2}
          value={message}
          onChange={(event) => setMessage(event.currentTarget.value)}
        />
        <ActionError error={send.error} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" loading={send.isPending}>
            Send request
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

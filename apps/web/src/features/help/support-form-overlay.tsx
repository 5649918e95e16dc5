import { Alert, Button, Group, Select, Stack, Text, Textarea } from "@mantine/core";
import { SUPPORT_TOPICS, sendSupportRequest } from "@switchboard/api";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useLocation } from "react-router";
import { ActionError } from "../../components/query-state.tsx";
import { apiClient } from "../../lib/api-client.ts";
import { useTimeFormat } from "../../lib/use-time-format.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";

/** Local storage key of the spec: when the form was last sent (its thank-you stays until a new message). */
const SUBMITTED_KEY = "form-submitted";

const TOPIC_LABELS: Record<(typeof SUPPORT_TOPICS)[number], string> = {
  question: "A question",
  problem: "Something does not work",
  billing: "Billing",
  feedback: "Feedback or an idea",
};

function readSubmitted(): number | null {
  try {
    const at = Number(window.localStorage.getItem(SUBMITTED_KEY));
    return Number.isFinite(at) && at > 0 ? at : null;
  } catch {
    return null;
  }
}

/**
 * `?form=get-support`: a message to the support team, with what it is about. The team answers by e-mail;
 * the page it was sent from goes with it.
 */
export function SupportFormOverlay({ close }: OverlayComponentProps) {
  const times = useTimeFormat();
  const location = useLocation();
  const [topic, setTopic] = useState<(typeof SUPPORT_TOPICS)[number]>("question");
  const [message, setMessage] = useState("");
  const [sentAt, setSentAt] = useState<number | null>(null);
  const earlier = readSubmitted();
  const send = useMutation({
    mutationFn: () =>
      apiClient.call(sendSupportRequest, {
        body: { topic, message: message.trim(), page: location.pathname },
      }),
    onSuccess: () => {
      const now = Date.now();
      try {
        window.localStorage.setItem(SUBMITTED_KEY, String(now));
      } catch {}
      setSentAt(now);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate();
  };

  if (sentAt !== null && send.data)
    return (
      <Stack gap="md">
        <Alert color="green" variant="light" role="status" title="Message sent">
          {send.data.message}
        </Alert>
        <Group justify="flex-end">
          <Button onClick={close}>Done</Button>
        </Group>
      </Stack>
    );

  const tooShort = message.trim().length < 10;
  return (
    <form onSubmit={submit} aria-label="Contact support">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Tell us what you need. Our support team answers by e-mail, usually within one business day.
        </Text>
        {earlier ? (
          <Text size="sm" c="dimmed">
            You last wrote to us on {times.format(earlier, "dateTime")}.
          </Text>
        ) : null}
        <Select
          label="What is it about?"
          data={SUPPORT_TOPICS.map((value) => ({ value, label: TOPIC_LABELS[value] }))}
          value={topic}
          allowDeselect={false}
          onChange={(value) => setTopic((value ?? "question") as (typeof SUPPORT_TOPICS)[number])}
        />
        <Textarea
          label="Message"
          required
          autosize
          minRows={5}
          maxLength={5000}
          value={message}
          onChange={(event) => setMessage(event.currentTarget.value)}
          description="What you did, what you expected and what happened instead."
          data-autofocus
        />
        <ActionError error={send.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" loading={send.isPending} disabled={tooShort}>
            Send
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

import {
  Alert,
  Button,
  Card,
  Group,
  Paper,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from "@mantine/core";
import { formatPhoneNumber, isSafeMediaUrl } from "@switchboard/core";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { errorMessage } from "../../lib/shell-api.ts";
import { toast } from "../../lib/toast.ts";
import { useTimeFormat } from "../../lib/use-time-format.ts";
import { useHandset, useInboxRealtime, useSimulateInbound } from "../inbox/api.ts";
import { SandboxDialPad } from "../numbers/sandbox-phone.tsx";
import { ApiTokensCard } from "./api-tokens-card.tsx";
import {
  SipAllowlistCard,
  SipCapturesCard,
  SipOutboundRoutesCard,
  SipRegistrationCard,
} from "./sip-cards.tsx";
import { WebhooksCard } from "./webhooks-card.tsx";

const HANDSET_KEY = "phone-simulator-number";

/**
 * The phone simulator of the sandbox carrier: a simulated handset that texts the organisation's agent
 * numbers (the same path a carrier's webhook takes) and shows what the agents and people send back.
 */
function PhoneSimulator() {
  const times = useTimeFormat();
  useInboxRealtime();
  const [handset, setHandset] = useState(() => window.localStorage.getItem(HANDSET_KEY) ?? "+15035550199");
  const [number, setNumber] = useState(handset);
  const phone = useHandset(number || null);
  const [to, setTo] = useState<string | null>(null);
  const [text, setText] = useState("");
  const simulate = useSimulateInbound();
  const end = useRef<HTMLDivElement>(null);
  const agentNumbers = phone.data?.agentNumbers ?? [];
  const target = to ?? agentNumbers[0]?.number ?? null;
  const count = phone.data?.messages.length ?? 0;

  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll when a message arrives.
  useEffect(() => {
    // (Recent browsers answer a promise from scroll calls: an effect must not return it.)
    end.current?.scrollIntoView({ block: "nearest" });
  }, [count]);

  const send = (event: FormEvent) => {
    event.preventDefault();
    if (!target || !text.trim()) return;
    simulate.mutate(
      { from: number, to: target, text: text.trim() },
      { onSuccess: () => setText(""), onError: (error) => toast.error(errorMessage(error)) },
    );
  };

  return (
    <Card withBorder padding="lg" maw={520} aria-label="Phone simulator">
      <Stack gap="sm">
        <div>
          <Title order={3} size="h4">
            Phone simulator
          </Title>
          <Text size="sm" c="dimmed">
            A simulated handset on the sandbox carrier. Text your agents' numbers from any number; replies
            from the AI agent and your team arrive here.
          </Text>
        </div>
        <Group align="flex-end" gap="xs">
          <TextInput
            label="Handset number"
            value={handset}
            onChange={(e) => setHandset(e.currentTarget.value)}
            style={{ flex: 1 }}
          />
          <Button
            variant="default"
            onClick={() => {
              window.localStorage.setItem(HANDSET_KEY, handset.trim());
              setNumber(handset.trim());
            }}
          >
            Use number
          </Button>
        </Group>
        {phone.isPending ? <LoadingState /> : null}
        {phone.isError ? <ErrorState error={phone.error} onRetry={() => void phone.refetch()} /> : null}
        {phone.data && agentNumbers.length === 0 ? (
          <Alert color="yellow">None of this organization's agents has a phone number yet.</Alert>
        ) : null}
        {agentNumbers.length > 0 ? (
          <Select
            label="Text to"
            value={target}
            onChange={setTo}
            allowDeselect={false}
            data={agentNumbers.map((n) => ({
              value: n.number,
              label: `${n.agentName} · ${formatPhoneNumber(n.number)}`,
            }))}
          />
        ) : null}
        <Paper
          withBorder
          p="sm"
          radius="md"
          mih={240}
          mah={420}
          style={{ overflowY: "auto" }}
          aria-label="Handset messages"
        >
          <Stack gap="xs">
            {count === 0 ? <EmptyState>No messages on this handset yet.</EmptyState> : null}
            {phone.data?.messages.map((m) => (
              <Stack
                key={m.id}
                gap={0}
                align={m.direction === "inbound" ? "flex-end" : "flex-start"}
                data-direction={m.direction}
              >
                <Paper
                  p="xs"
                  radius="lg"
                  maw="85%"
                  bg={
                    m.direction === "inbound"
                      ? "var(--mantine-color-blue-filled)"
                      : "var(--mantine-color-default-hover)"
                  }
                  c={m.direction === "inbound" ? "white" : undefined}
                >
                  <Text size="sm" style={{ whiteSpace: "pre-wrap" }}>
                    {m.text}
                  </Text>
                  {m.media.map((url) =>
                    // Only https and this server's files are shown; anything else stays text.
                    isSafeMediaUrl(url, window.location.origin) ? (
                      <img
                        key={url}
                        src={url}
                        alt="Received attachment"
                        style={{ maxWidth: 200, borderRadius: 6 }}
                      />
                    ) : (
                      <Text key={url} size="xs" style={{ wordBreak: "break-all" }}>
                        Attachment not shown: {url}
                      </Text>
                    ),
                  )}
                </Paper>
                <Text size="xs" c="dimmed">
                  {m.direction === "inbound"
                    ? `to ${formatPhoneNumber(m.to)}`
                    : `from ${formatPhoneNumber(m.from)}`}{" "}
                  · {times.format(m.createdAt, "time")}
                </Text>
              </Stack>
            ))}
            <div ref={end} />
          </Stack>
        </Paper>
        <form onSubmit={send}>
          <Group align="flex-end" gap="xs" wrap="nowrap">
            <Textarea
              aria-label="Text message from the handset"
              placeholder="Type a text message"
              autosize
              minRows={1}
              style={{ flex: 1 }}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              disabled={!target}
            />
            <Button type="submit" loading={simulate.isPending} disabled={!target}>
              Send text
            </Button>
          </Group>
        </form>
      </Stack>
    </Card>
  );
}

export function DevelopersPage() {
  return (
    <Stack gap="md">
      <Title order={1}>Developers</Title>
      <Text c="dimmed">
        Connect Switchboard to your systems: receive your organisation's events, call the API from your
        servers, connect your SIP trunk or PBX, and try text conversations on the sandbox carrier.
      </Text>
      <WebhooksCard />
      <ApiTokensCard />
      <Title order={2} size="h3">
        SIP
      </Title>
      <SipAllowlistCard />
      <SipOutboundRoutesCard />
      <SipRegistrationCard />
      <SipCapturesCard />
      <PhoneSimulator />
      <SandboxDialPad />
    </Stack>
  );
}

import { Button, Card, Group, Loader, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { formatPhoneNumber } from "@switchboard/core";
import { lazy, Suspense, useState } from "react";
import { usePhoneNumbers } from "./api.ts";

const CallPanel = lazy(async () => ({ default: (await import("../voice/call-panel.tsx")).CallPanel }));

const KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "*", "0", "#"];

/**
 * The sandbox phone's dial pad (Developers): call one of the organisation's numbers from the browser's
 * microphone, as a caller on the phone network would; the agent the number is assigned to answers.
 */
export function SandboxDialPad() {
  const numbers = usePhoneNumbers();
  const [dialed, setDialed] = useState("");
  const [calling, setCalling] = useState<string | null>(null);
  const first = numbers.data?.numbers.find((n) => n.agentId !== null)?.number;
  const toCall = dialed.trim() || null;
  const e164 = toCall ? (toCall.startsWith("+") ? toCall : `+${toCall.replace(/\D/g, "")}`) : null;
  return (
    <Card withBorder padding="lg" maw={520} aria-label="Sandbox phone">
      <Stack gap="sm">
        <div>
          <Title order={3} size="h4">
            Dial pad
          </Title>
          <Text size="sm" c="dimmed">
            Call one of your numbers from this browser, as a caller would. The agent the number is assigned to
            answers.
            {first ? ` Try ${formatPhoneNumber(first)}.` : ""}
          </Text>
        </div>
        <TextInput
          label="Number to call"
          placeholder={first ?? "+15035550123"}
          value={dialed}
          onChange={(e) => setDialed(e.currentTarget.value)}
        />
        <SimpleGrid cols={3} spacing={6} maw={260}>
          {KEYS.map((key) => (
            <Button key={key} variant="default" onClick={() => setDialed((d) => (d ? d + key : `+${key}`))}>
              {key}
            </Button>
          ))}
        </SimpleGrid>
        <Group gap="xs">
          <Button color="green" disabled={!e164} onClick={() => setCalling(e164)}>
            Dial
          </Button>
          <Button variant="subtle" onClick={() => setDialed((d) => d.slice(0, -1))} disabled={!dialed}>
            Delete
          </Button>
        </Group>
        {calling ? (
          <Suspense fallback={<Loader size="sm" />}>
            <Text size="sm">Calling {formatPhoneNumber(calling)}</Text>
            <CallPanel key={calling} number={calling} />
          </Suspense>
        ) : null}
      </Stack>
    </Card>
  );
}

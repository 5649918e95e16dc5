import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Loader,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from "@mantine/core";
import { type AvailableNumber, FORWARDING_CARRIERS, type ForwardingCarrier } from "@switchboard/api";
import { formatPhoneNumber } from "@switchboard/core";
import { type FormEvent, useState } from "react";
import { ActionError, EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { useLoadedAccount } from "../../lib/account-state.ts";
import { toast } from "../../lib/toast.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { useOrganizationAgents } from "../agents/api.ts";
import {
  useAssignByoNumber,
  useAssignNumber,
  usePhoneNumbers,
  useSearchNumbers,
  useValidateVerifiedNumber,
  useVerifyForwarding,
} from "./api.ts";
import { dollars } from "./number-billing.tsx";
import { NumberRefusal } from "./number-refusal.tsx";

/** The overlay's value names an agent when it is a positive id (`?selectNumber=<agent id>`). */
function agentIdOf(value: string): string | null {
  return /^\d{1,15}$/.test(value) && Number(value) > 0 ? value : null;
}

/** Which agent the number is for: the overlay's agent, the agent in view, or one chosen from the list. */
function AgentPicker({ value, onChange }: { value: string | null; onChange: (id: string | null) => void }) {
  const account = useLoadedAccount();
  const agents = useOrganizationAgents();
  if (account.accountType === "agent") return null;
  const list = agents.data?.accounts ?? [];
  return (
    <Select
      label="Agent that answers"
      data={list.map((a) => ({ value: String(a.id), label: a.agentName ?? a.accountName ?? a.username }))}
      value={value ?? (list[0] ? String(list[0].id) : null)}
      onChange={onChange}
      allowDeselect={false}
      placeholder={agents.isPending ? "Loading…" : "No agents yet"}
      error={agents.isError ? "Could not load the agents." : undefined}
    />
  );
}

function useChosenAgent(value: string) {
  const account = useLoadedAccount();
  const agents = useOrganizationAgents();
  const [agentId, setAgentId] = useState<string | null>(agentIdOf(value));
  const first = agents.data?.accounts[0];
  const effective =
    account.accountType === "agent" ? String(account.id) : (agentId ?? (first ? String(first.id) : null));
  return { agentId: effective, setAgentId };
}

type SearchBy = "prefix" | "locality" | "phrase";

/** `?selectNumber[=<agent id>]`: search the marketplace and give an agent a number. */
export function SelectNumberOverlay({ value, close }: OverlayComponentProps) {
  const { agentId, setAgentId } = useChosenAgent(value);
  const [by, setBy] = useState<SearchBy>("prefix");
  const [country, setCountry] = useState("US");
  const [query, setQuery] = useState("");
  const [region, setRegion] = useState("");
  const search = useSearchNumbers();
  const assign = useAssignNumber();
  const overlays = useOverlays();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = query.trim();
    if (by === "prefix") search.mutate({ by, body: { country, prefix: text.replace(/\D/g, "") } });
    else if (by === "locality")
      search.mutate({ by, body: { country, city: text || undefined, region: region.trim() || undefined } });
    else search.mutate({ by, body: { country, phrase: text } });
  };

  const take = (number: AvailableNumber) => {
    if (!agentId) return;
    assign.mutate(
      { number: number.number, agentId: Number(agentId) },
      {
        onSuccess: () => {
          toast.success(`${formatPhoneNumber(number.number)} is now your agent's number.`);
          close();
        },
      },
    );
  };

  const results = search.data?.numbers ?? [];
  return (
    <Stack gap="sm">
      <AgentPicker value={agentId} onChange={setAgentId} />
      <SegmentedControl
        value={by}
        onChange={(next) => {
          setBy(next as SearchBy);
          search.reset();
        }}
        data={[
          { value: "prefix", label: "Area code" },
          { value: "locality", label: "City" },
          { value: "phrase", label: "Word (vanity)" },
        ]}
      />
      <form onSubmit={submit} aria-label="Search numbers">
        <Group align="flex-end" gap="xs">
          <Select
            label="Country"
            data={[
              { value: "US", label: "United States" },
              { value: "CA", label: "Canada" },
              { value: "GB", label: "United Kingdom" },
            ]}
            value={country}
            onChange={(next) => setCountry(next ?? "US")}
            allowDeselect={false}
            w={160}
          />
          <TextInput
            label={by === "prefix" ? "Area code" : by === "locality" ? "City" : "Word or digits"}
            placeholder={by === "prefix" ? "503" : by === "locality" ? "Portland" : "FLOWERS"}
            value={query}
            onChange={(e) => setQuery(e.currentTarget.value)}
            style={{ flex: 1 }}
          />
          {by === "locality" ? (
            <TextInput
              label="State or region"
              placeholder="OR"
              value={region}
              onChange={(e) => setRegion(e.currentTarget.value)}
              w={110}
            />
          ) : null}
          <Button type="submit" loading={search.isPending}>
            Search
          </Button>
        </Group>
      </form>
      {search.isError ? <NumberRefusal error={search.error} from="selectNumber" /> : null}
      {search.isSuccess && results.length === 0 ? (
        <EmptyState>No numbers match. Try a nearby area code or another word.</EmptyState>
      ) : null}
      {results.length > 0 ? (
        <Table verticalSpacing={4} aria-label="Available numbers">
          <Table.Tbody>
            {results.map((n) => (
              <Table.Tr key={n.number} data-number={n.number}>
                <Table.Td>
                  <Text fw={500}>{formatPhoneNumber(n.number)}</Text>
                  {n.vanity ? (
                    <Text size="xs" c="dimmed">
                      spells {n.vanity}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{[n.locality, n.region].filter(Boolean).join(", ")}</Text>
                </Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {n.capabilities.voice ? <Badge size="xs">Calls</Badge> : null}
                    {n.capabilities.sms ? <Badge size="xs">Texts</Badge> : null}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">
                    {n.monthlyPriceCents === 0
                      ? "Included in your plan"
                      : `${dollars(n.monthlyPriceCents)}/mo from your wallet`}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Button
                    size="compact-sm"
                    onClick={() => take(n)}
                    loading={assign.isPending && assign.variables?.number === n.number}
                    disabled={!agentId}
                  >
                    Assign
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
      {assign.isError ? <NumberRefusal error={assign.error} from="selectNumber" /> : null}
      <Text size="sm" c="dimmed">
        Already have a business number?{" "}
        <Anchor
          component="button"
          type="button"
          onClick={() => overlays.switch("selectNumber", "addCustomNumber", value)}
        >
          Bring your own number
        </Anchor>
      </Text>
    </Stack>
  );
}

/** `?number=<number>`: one phone number: its agent, how it is connected, forwarding and the SIP address. */
export function NumberOverlay({ value, close }: OverlayComponentProps) {
  const numbers = usePhoneNumbers();
  const assign = useAssignNumber();
  const overlays = useOverlays();
  const number = numbers.data?.numbers.find((n) => n.number === value);
  const [agentId, setAgentId] = useState<string | null>(null);
  if (numbers.isPending) return <LoadingState />;
  if (numbers.isError) return <ErrorState error={numbers.error} onRetry={() => void numbers.refetch()} />;
  if (!number) return <EmptyState>This number is not one of your organization's.</EmptyState>;
  const current = agentId ?? (number.agentId ? String(number.agentId) : null);
  return (
    <Stack gap="sm">
      <Text size="xl" fw={600}>
        {formatPhoneNumber(number.number)}
      </Text>
      <Text size="sm" c="dimmed">
        {[number.locality, number.region, number.country].filter(Boolean).join(", ")} ·{" "}
        {number.kind === "marketplace" ? `bought from ${number.provider}` : "your own number"}
        {number.capabilities.sms ? " · calls and texts" : " · calls"}
      </Text>
      <AgentPicker value={current} onChange={setAgentId} />
      {agentId && agentId !== String(number.agentId) ? (
        <Button
          loading={assign.isPending}
          onClick={() =>
            assign.mutate(
              { number: number.number, agentId: Number(agentId) },
              { onSuccess: () => toast.success("Saved.") },
            )
          }
        >
          Move to this agent
        </Button>
      ) : null}
      {assign.isError ? <ActionError error={assign.error} /> : null}
      {number.byoMethod === "sip" ? (
        <Alert color="blue" title="Your SIP trunk">
          Send calls for this number to{" "}
          <Code>
            sip:{number.number}@{window.location.hostname}
          </Code>{" "}
          (UDP or TCP, port 5060 unless your operator says otherwise).
        </Alert>
      ) : null}
      {number.byoMethod === "forwarding" ? (
        <Group gap="xs">
          <Badge color={number.forwardingVerifiedAt ? "green" : "yellow"}>
            {number.forwardingVerifiedAt ? "Forwarding verified" : "Forwarding not verified"}
          </Badge>
          <Button
            variant="default"
            size="xs"
            onClick={() => overlays.switch("number", "forwardingInstructions", number.number)}
          >
            Forwarding instructions
          </Button>
        </Group>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={close}>
          Close
        </Button>
      </Group>
    </Stack>
  );
}

const CARRIER_LABEL: Record<ForwardingCarrier, string> = {
  att: "AT&T",
  verizon: "Verizon",
  tmobile: "T-Mobile",
  landline: "Landline (most US phone companies)",
  other: "Another carrier",
};

/** The codes to dial on the business phone to forward its calls to `to`, per carrier. */
export function forwardingCodes(carrier: ForwardingCarrier, to: string): { label: string; code: string }[] {
  const national = to.replace(/^\+1/, "").replace(/\D/g, "");
  switch (carrier) {
    case "att":
      return [
        { label: "Forward every call", code: `*21*${national}#` },
        { label: "Forward when you don't answer", code: `*61*${national}#` },
        { label: "Forward when busy", code: `*67*${national}#` },
        { label: "Turn forwarding off", code: "#21#" },
      ];
    case "tmobile":
      return [
        { label: "Forward every call", code: `**21*1${national}#` },
        { label: "Forward when you don't answer", code: `**61*1${national}#` },
        { label: "Forward when busy", code: `**67*1${national}#` },
        { label: "Turn forwarding off", code: "##21#" },
      ];
    case "verizon":
      return [
        { label: "Forward every call", code: `*72${national}` },
        { label: "Forward when busy or you don't answer", code: `*71${national}` },
        { label: "Turn forwarding off", code: "*73" },
      ];
    case "landline":
      return [
        { label: "Forward every call", code: `*72${national}` },
        { label: "Turn forwarding off", code: "*73" },
      ];
    default:
      return [
        { label: "Forward every call (most mobile carriers)", code: `**21*${to}#` },
        { label: "Turn forwarding off", code: "##21#" },
      ];
  }
}

/** `?forwardingInstructions[=<your number>]`: forward a business line to the agent's number, then check it. */
export function ForwardingInstructionsOverlay({ name, value }: OverlayComponentProps) {
  const overlays = useOverlays();
  const numbers = usePhoneNumbers();
  const verify = useVerifyForwarding();
  const list = numbers.data?.numbers ?? [];
  const own = list.find((n) => n.number === value) ?? list.find((n) => n.byoMethod === "forwarding");
  const [carrier, setCarrier] = useState<ForwardingCarrier>(
    (own?.carrier as ForwardingCarrier | null) ?? "att",
  );
  // Forward to the number the agent answers on: its marketplace number, else the business number itself.
  const destination =
    list.find((n) => n.kind === "marketplace" && n.agentId !== null && n.agentId === own?.agentId)?.number ??
    list.find((n) => n.kind === "marketplace" && n.agentId !== null)?.number ??
    own?.number ??
    null;
  if (numbers.isPending) return <LoadingState />;
  if (numbers.isError) return <ErrorState error={numbers.error} onRetry={() => void numbers.refetch()} />;
  // A precondition, not a missing feature: the calls need a number of the agent's to ring.
  if (!destination)
    return (
      <Stack gap="sm">
        <Text size="sm">
          Forwarding sends the calls of your existing business line to your agent's number. Your agent needs a
          phone number first: get one, or add your business number with Bring your own number.
        </Text>
        <Group>
          <Button onClick={() => overlays.switch(name, "selectNumber")}>Get a number</Button>
          <Button variant="default" onClick={() => overlays.switch(name, "addCustomNumber")}>
            Bring your own number
          </Button>
        </Group>
      </Stack>
    );
  return (
    <Stack gap="sm">
      <Text size="sm">
        On the business phone, dial the code for your carrier. Calls will ring your agent at{" "}
        <b>{formatPhoneNumber(destination)}</b>.
      </Text>
      <Select
        label="Your carrier"
        data={FORWARDING_CARRIERS.map((c) => ({ value: c, label: CARRIER_LABEL[c] }))}
        value={carrier}
        onChange={(next) => setCarrier((next as ForwardingCarrier | null) ?? "att")}
        allowDeselect={false}
      />
      <Table aria-label="Forwarding codes">
        <Table.Tbody>
          {forwardingCodes(carrier, destination).map((row) => (
            <Table.Tr key={row.label}>
              <Table.Td>{row.label}</Table.Td>
              <Table.Td>
                <Code fz="md">{row.code}</Code>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {own ? (
        <Group gap="xs">
          <Button
            variant="default"
            loading={verify.isPending}
            onClick={() => verify.mutate({ number: own.number })}
          >
            Place a test call to {formatPhoneNumber(own.number)}
          </Button>
          {verify.isPending ? <Loader size="xs" /> : null}
        </Group>
      ) : null}
      {verify.data ? (
        <Alert color={verify.data.verified ? "green" : "yellow"} data-testid="forwarding-result">
          {verify.data.message}
        </Alert>
      ) : null}
      {verify.isError ? <ActionError error={verify.error} /> : null}
    </Stack>
  );
}

/** `?addCustomNumber[=<agent id>]`: a number the business keeps at its carrier, by forwarding or SIP trunk. */
export function AddCustomNumberOverlay({ value }: OverlayComponentProps) {
  const { agentId, setAgentId } = useChosenAgent(value);
  const [number, setNumber] = useState("");
  const [method, setMethod] = useState<"forwarding" | "sip">("forwarding");
  const [carrier, setCarrier] = useState<ForwardingCarrier>("att");
  const add = useAssignByoNumber();
  const overlays = useOverlays();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!agentId || !number.trim()) return;
    add.mutate({
      number: number.trim(),
      method,
      carrier: method === "forwarding" ? carrier : undefined,
      agentId: Number(agentId),
    });
  };
  if (add.data) {
    const added = add.data.phoneNumber;
    return (
      <Stack gap="sm">
        <Alert color="green">{formatPhoneNumber(added.number)} now reaches your agent.</Alert>
        {added.byoMethod === "forwarding" ? (
          <Button onClick={() => overlays.switch("addCustomNumber", "forwardingInstructions", added.number)}>
            Set up forwarding
          </Button>
        ) : (
          <Text size="sm">
            Point your SIP trunk at{" "}
            <Code>
              sip:{added.number}@{window.location.hostname}
            </Code>
            .
          </Text>
        )}
      </Stack>
    );
  }
  return (
    <form onSubmit={submit} aria-label="Bring your own number">
      <Stack gap="sm">
        <AgentPicker value={agentId} onChange={setAgentId} />
        <TextInput
          label="Your business number"
          placeholder="+15415550188"
          value={number}
          onChange={(e) => setNumber(e.currentTarget.value)}
          required
        />
        <SegmentedControl
          value={method}
          onChange={(next) => setMethod(next as "forwarding" | "sip")}
          data={[
            { value: "forwarding", label: "Forward calls from my phone" },
            { value: "sip", label: "My SIP trunk" },
          ]}
        />
        {method === "forwarding" ? (
          <Select
            label="Your carrier"
            data={FORWARDING_CARRIERS.map((c) => ({ value: c, label: CARRIER_LABEL[c] }))}
            value={carrier}
            onChange={(next) => setCarrier((next as ForwardingCarrier | null) ?? "att")}
            allowDeselect={false}
          />
        ) : null}
        {add.isError ? <NumberRefusal error={add.error} from="addCustomNumber" /> : null}
        <Group justify="flex-end">
          <Button type="submit" loading={add.isPending} disabled={!agentId}>
            Add number
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** `?callVerify[=<number>]`: verify a caller ID by a call that reads a code to type back. */
export function CallVerifyOverlay({ value, close }: OverlayComponentProps) {
  const [phoneNumber, setPhoneNumber] = useState(value && value !== "true" ? value : "");
  const [code, setCode] = useState("");
  const validate = useValidateVerifiedNumber();
  const [calling, setCalling] = useState<{ spokenText: string | null } | null>(null);
  const [verified, setVerified] = useState(false);
  const call = (event: FormEvent) => {
    event.preventDefault();
    validate.mutate(
      { phoneNumber: phoneNumber.trim(), listen: true },
      { onSuccess: (answer) => setCalling({ spokenText: answer.spokenText }) },
    );
  };
  const check = (event: FormEvent) => {
    event.preventDefault();
    validate.mutate(
      { phoneNumber: phoneNumber.trim(), verificationCode: code.trim() },
      { onSuccess: () => setVerified(true) },
    );
  };
  if (verified)
    return (
      <Stack gap="sm">
        <Alert color="green">
          {formatPhoneNumber(phoneNumber)} is verified: your agents may call from it.
        </Alert>
        <Group justify="flex-end">
          <Button onClick={close}>Done</Button>
        </Group>
      </Stack>
    );
  return (
    <Stack gap="sm">
      <Text size="sm">
        We call the number and read a 6-digit code. Type it here to prove the number is yours; your agents may
        then show it as their caller ID.
      </Text>
      <form onSubmit={call} aria-label="Call me with a code">
        <Group align="flex-end" gap="xs">
          <TextInput
            label="Phone number"
            placeholder="+15035550142"
            value={phoneNumber}
            onChange={(e) => setPhoneNumber(e.currentTarget.value)}
            style={{ flex: 1 }}
          />
          <Button
            type="submit"
            variant={calling ? "default" : "filled"}
            loading={validate.isPending && !calling}
          >
            {calling ? "Call again" : "Call me"}
          </Button>
        </Group>
      </form>
      {calling?.spokenText ? (
        <Alert color="blue" title="Sandbox carrier">
          The call said: “{calling.spokenText}”
        </Alert>
      ) : null}
      {calling ? (
        <form onSubmit={check} aria-label="Enter the code">
          <Group align="flex-end" gap="xs">
            <TextInput
              label="Code"
              inputMode="numeric"
              maxLength={6}
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
            />
            <Button type="submit" loading={validate.isPending} disabled={code.trim().length !== 6}>
              Verify
            </Button>
          </Group>
        </form>
      ) : null}
      {validate.isError ? <ActionError error={validate.error} /> : null}
    </Stack>
  );
}

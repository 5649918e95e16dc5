import {
  Badge,
  Button,
  Card,
  Code,
  Group,
  Modal,
  NumberInput,
  PasswordInput,
  ScrollArea,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import {
  SIP_MESSAGES,
  type SipCaptureMessage,
  type SipRegistrationState,
  sipIpSchema,
} from "@switchboard/api";
import { type FormEvent, useState } from "react";
import { ConfirmButton } from "../../components/confirm/confirm-button.tsx";
import { ActionError, EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { usePermission } from "../../lib/account-state.ts";
import { toast } from "../../lib/toast.ts";
import { useTimeFormat } from "../../lib/use-time-format.ts";
import { useOrganizationAgents } from "../agents/api.ts";
import {
  fetchSipCapture,
  saveBlob,
  useAddSipAllow,
  useDeleteSipAllow,
  useDeleteSipRegistration,
  useDeleteSipRoute,
  useSaveSipRegistration,
  useSaveSipRoute,
  useSipAllowlist,
  useSipCapture,
  useSipCaptureCalls,
  useSipRegistration,
  useSipRoutes,
} from "./sip-api.ts";

function CardTitle({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div>
      <Title order={2} size="h4">
        {title}
      </Title>
      <Text size="sm" c="dimmed">
        {children}
      </Text>
    </div>
  );
}

/** The SIP allow-list: sources (addresses, CIDR ranges) whose calls reach this organisation's agents. */
export function SipAllowlistCard() {
  const list = useSipAllowlist();
  const add = useAddSipAllow();
  const remove = useDeleteSipAllow();
  const canEdit = usePermission("canEditOrg");
  const [ip, setIp] = useState("");
  const [ipError, setIpError] = useState<string | null>(null);
  const [label, setLabel] = useState("");

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Checked here with the server's own rule, so a typo is named at its field before anything is sent.
    if (!sipIpSchema.safeParse(ip).success) {
      setIpError(SIP_MESSAGES.badIp);
      return;
    }
    add.mutate(
      { ip: ip.trim(), label: label.trim() },
      {
        onSuccess: () => {
          setIp("");
          setLabel("");
          toast.success("Address allowed.");
        },
      },
    );
  };

  return (
    <Card withBorder padding="lg" aria-label="SIP allow-list">
      <Stack gap="sm">
        <CardTitle title="SIP allow-list">
          Your SIP trunk's or PBX's addresses. Calls from any other address are refused (403) and show in the
          SIP captures.
        </CardTitle>
        {canEdit ? (
          <form onSubmit={submit} aria-label="Allow a SIP source">
            <Stack gap="xs">
              <Group align="flex-end" gap="xs" grow>
                <TextInput
                  label="IP address or range"
                  placeholder="203.0.113.0/24"
                  value={ip}
                  onChange={(e) => {
                    setIp(e.currentTarget.value);
                    setIpError(null);
                  }}
                  error={ipError}
                  required
                />
                <TextInput
                  label="Label"
                  placeholder="Carrier"
                  value={label}
                  onChange={(e) => setLabel(e.currentTarget.value)}
                />
              </Group>
              <ActionError error={add.error} />
              <Group>
                <Button type="submit" loading={add.isPending}>
                  Allow address
                </Button>
              </Group>
            </Stack>
          </form>
        ) : null}
        {list.isPending ? <LoadingState label="Loading the allow-list…" /> : null}
        {list.isError ? <ErrorState error={list.error} onRetry={() => void list.refetch()} /> : null}
        {list.data && list.data.length === 0 ? (
          <EmptyState>
            No addresses allowed yet: only calls from this server's own machine reach your agents.
          </EmptyState>
        ) : null}
        {list.data && list.data.length > 0 ? (
          <Table aria-label="Allowed SIP sources">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Address</Table.Th>
                <Table.Th>Label</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.map((entry) => (
                <Table.Tr key={entry.id} data-testid="sip-allow-row">
                  <Table.Td>
                    <Code>{entry.ip}</Code>
                  </Table.Td>
                  <Table.Td>{entry.label || "—"}</Table.Td>
                  <Table.Td>
                    {canEdit ? (
                      <ConfirmButton
                        color="red"
                        title={`Stop allowing ${entry.ip}?`}
                        details="New calls from this address are refused."
                        confirmText="Remove"
                        confirmColor="red"
                        onConfirm={async () => {
                          await remove.mutateAsync(entry.id);
                          toast.success("Address removed.");
                        }}
                      >
                        Remove
                      </ConfirmButton>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : null}
      </Stack>
    </Card>
  );
}

const TRANSPORTS = [
  { value: "udp", label: "UDP" },
  { value: "tcp", label: "TCP" },
];

/** Outbound routes: the organisation's own trunks for calls its agents place. */
export function SipOutboundRoutesCard() {
  const routes = useSipRoutes();
  const save = useSaveSipRoute();
  const remove = useDeleteSipRoute();
  const canEdit = usePermission("canEditOrg");
  const [form, setForm] = useState({
    name: "",
    host: "",
    port: 5060,
    transport: "udp" as "udp" | "tcp",
    username: "",
    password: "",
    prefixes: "",
  });
  const set = (patch: Partial<typeof form>) => setForm((current) => ({ ...current, ...patch }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      {
        name: form.name.trim(),
        host: form.host.trim(),
        port: form.port,
        transport: form.transport,
        ...(form.username.trim() ? { username: form.username.trim() } : {}),
        ...(form.password ? { password: form.password } : {}),
        prefixes: form.prefixes
          .split(/[\s,]+/)
          .map((p) => p.trim())
          .filter(Boolean),
      },
      {
        onSuccess: () => {
          setForm({
            name: "",
            host: "",
            port: 5060,
            transport: "udp",
            username: "",
            password: "",
            prefixes: "",
          });
          toast.success("Outbound route saved.");
        },
      },
    );
  };

  return (
    <Card withBorder padding="lg" aria-label="Outbound routes">
      <Stack gap="sm">
        <CardTitle title="Outbound routes">
          Send the calls your agents place through your own SIP trunk. A route carries the numbers that start
          with one of its prefixes (none: every number); the longest prefix wins.
        </CardTitle>
        {canEdit ? (
          <form onSubmit={submit} aria-label="Add an outbound route">
            <Stack gap="xs">
              <Group align="flex-end" gap="xs" grow>
                <TextInput
                  label="Name"
                  value={form.name}
                  onChange={(e) => set({ name: e.currentTarget.value })}
                  required
                />
                <TextInput
                  label="Host"
                  placeholder="sip.carrier.example"
                  value={form.host}
                  onChange={(e) => set({ host: e.currentTarget.value })}
                  required
                />
                <NumberInput
                  label="Port"
                  min={1}
                  max={65535}
                  value={form.port}
                  onChange={(value) => set({ port: Number(value) || 5060 })}
                />
                <Select
                  label="Transport"
                  data={TRANSPORTS}
                  value={form.transport}
                  allowDeselect={false}
                  onChange={(value) => set({ transport: (value ?? "udp") as "udp" | "tcp" })}
                />
              </Group>
              <Group align="flex-end" gap="xs" grow>
                <TextInput
                  label="User name"
                  value={form.username}
                  onChange={(e) => set({ username: e.currentTarget.value })}
                />
                <PasswordInput
                  label="Password"
                  value={form.password}
                  onChange={(e) => set({ password: e.currentTarget.value })}
                />
                <TextInput
                  label="Number prefixes"
                  placeholder="+1, +4420"
                  value={form.prefixes}
                  onChange={(e) => set({ prefixes: e.currentTarget.value })}
                />
              </Group>
              <ActionError error={save.error} />
              <Group>
                <Button type="submit" loading={save.isPending}>
                  Add route
                </Button>
              </Group>
            </Stack>
          </form>
        ) : null}
        {routes.isPending ? <LoadingState label="Loading the outbound routes…" /> : null}
        {routes.isError ? <ErrorState error={routes.error} onRetry={() => void routes.refetch()} /> : null}
        {routes.data && routes.data.routes.length === 0 ? (
          <EmptyState>
            No outbound routes: calls your agents place go through Switchboard's carrier.
          </EmptyState>
        ) : null}
        {routes.data && routes.data.routes.length > 0 ? (
          <Table aria-label="Outbound routes list">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Trunk</Table.Th>
                <Table.Th>Credentials</Table.Th>
                <Table.Th>Prefixes</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {routes.data.routes.map((route) => (
                <Table.Tr key={route.id} data-testid="sip-route-row">
                  <Table.Td>{route.name}</Table.Td>
                  <Table.Td>
                    <Code>
                      {route.transport}:{route.host}:{route.port}
                    </Code>
                  </Table.Td>
                  <Table.Td>{route.username ? `${route.username} ${route.password ?? ""}` : "None"}</Table.Td>
                  <Table.Td>{route.prefixes.length ? route.prefixes.join(", ") : "Every number"}</Table.Td>
                  <Table.Td>
                    {canEdit ? (
                      <ConfirmButton
                        color="red"
                        title={`Remove the route ${route.name}?`}
                        details="Calls it carried go through Switchboard's carrier."
                        confirmText="Remove"
                        confirmColor="red"
                        onConfirm={async () => {
                          await remove.mutateAsync(route.id);
                          toast.success("Outbound route removed.");
                        }}
                      >
                        Remove
                      </ConfirmButton>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : null}
      </Stack>
    </Card>
  );
}

const STATE_COLORS: Record<SipRegistrationState, string> = {
  registering: "yellow",
  registered: "green",
  failed: "red",
  stopped: "gray",
};
const STATE_LABELS: Record<SipRegistrationState, string> = {
  registering: "Registering",
  registered: "Registered",
  failed: "Failed",
  stopped: "Stopped",
};

/** Our server registered as an extension of the business's PBX: calls to it reach the chosen agent. */
export function SipRegistrationCard() {
  const times = useTimeFormat();
  const registration = useSipRegistration();
  const agents = useOrganizationAgents();
  const save = useSaveSipRegistration();
  const remove = useDeleteSipRegistration();
  const canEdit = usePermission("canEditOrg");
  const [form, setForm] = useState({
    host: "",
    port: 5060,
    transport: "udp" as "udp" | "tcp",
    username: "",
    password: "",
    domain: "",
    agentId: null as string | null,
  });
  const set = (patch: Partial<typeof form>) => setForm((current) => ({ ...current, ...patch }));
  const current = registration.data?.registration ?? null;
  const agentOptions = (agents.data?.accounts ?? []).map((agent) => ({
    value: String(agent.id),
    label: agent.agentName ?? agent.accountName ?? `Agent ${agent.id}`,
  }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const agentId = Number(form.agentId ?? agentOptions[0]?.value);
    save.mutate(
      {
        host: form.host.trim(),
        port: form.port,
        transport: form.transport,
        username: form.username.trim(),
        ...(form.password ? { password: form.password } : {}),
        ...(form.domain.trim() ? { domain: form.domain.trim() } : {}),
        agentId,
      },
      { onSuccess: () => toast.success("Registering with your PBX.") },
    );
  };

  return (
    <Card withBorder padding="lg" aria-label="SIP registration">
      <Stack gap="sm">
        <CardTitle title="SIP registration">
          Switchboard registers as an extension of your PBX (digest authentication, refreshed before it
          expires); calls to that extension reach the agent you choose.
        </CardTitle>
        {registration.isPending ? <LoadingState label="Loading the registration…" /> : null}
        {registration.isError ? (
          <ErrorState error={registration.error} onRetry={() => void registration.refetch()} />
        ) : null}
        {registration.data && !current ? <EmptyState>Not registered with a PBX.</EmptyState> : null}
        {current ? (
          <Group gap="sm" data-testid="sip-registration-state">
            <Badge color={STATE_COLORS[current.state]} variant="light" aria-label="Registration state">
              {STATE_LABELS[current.state]}
            </Badge>
            <Text size="sm">
              {current.username}@{current.domain ?? current.host} via {current.transport}:{current.host}:
              {current.port}
            </Text>
            {current.expiresAt ? (
              <Text size="xs" c="dimmed">
                until {times.format(current.expiresAt, "dateTimeSeconds")}
              </Text>
            ) : null}
            {current.lastError ? (
              <Text size="sm" c="red">
                {current.lastError}
              </Text>
            ) : null}
            {canEdit ? (
              <ConfirmButton
                color="red"
                title="Unregister from the PBX?"
                details="Calls to the extension no longer reach your agent."
                confirmText="Unregister"
                confirmColor="red"
                onConfirm={async () => {
                  await remove.mutateAsync();
                  toast.success("Unregistered.");
                }}
              >
                Unregister
              </ConfirmButton>
            ) : null}
          </Group>
        ) : null}
        {canEdit && registration.data && !registration.data.sipEnabled ? (
          <Text size="sm" c="dimmed" data-testid="sip-off">
            {SIP_MESSAGES.sipOff}
          </Text>
        ) : null}
        {canEdit && registration.data?.sipEnabled ? (
          <form onSubmit={submit} aria-label="Register with a PBX">
            <Stack gap="xs">
              <Group align="flex-end" gap="xs" grow>
                <TextInput
                  label="Registrar host"
                  placeholder="pbx.example.com"
                  value={form.host}
                  onChange={(e) => set({ host: e.currentTarget.value })}
                  required
                />
                <NumberInput
                  label="Registrar port"
                  min={1}
                  max={65535}
                  value={form.port}
                  onChange={(value) => set({ port: Number(value) || 5060 })}
                />
                <Select
                  label="Registrar transport"
                  data={TRANSPORTS}
                  value={form.transport}
                  allowDeselect={false}
                  onChange={(value) => set({ transport: (value ?? "udp") as "udp" | "tcp" })}
                />
              </Group>
              <Group align="flex-end" gap="xs" grow>
                <TextInput
                  label="Extension"
                  value={form.username}
                  onChange={(e) => set({ username: e.currentTarget.value })}
                  required
                />
                <PasswordInput
                  label="Extension password"
                  value={form.password}
                  onChange={(e) => set({ password: e.currentTarget.value })}
                />
                <TextInput
                  label="SIP domain"
                  placeholder="(the host)"
                  value={form.domain}
                  onChange={(e) => set({ domain: e.currentTarget.value })}
                />
                <Select
                  label="Answering agent"
                  data={agentOptions}
                  value={form.agentId ?? agentOptions[0]?.value ?? null}
                  allowDeselect={false}
                  onChange={(value) => set({ agentId: value })}
                />
              </Group>
              <ActionError error={save.error} />
              <Group>
                <Button type="submit" loading={save.isPending} disabled={agentOptions.length === 0}>
                  {current ? "Register again" : "Register"}
                </Button>
              </Group>
            </Stack>
          </form>
        ) : null}
      </Stack>
    </Card>
  );
}

/** A ladder diagram of a call's SIP messages: the far end on the left, Switchboard on the right. */
function Ladder({ messages, onPick }: { messages: SipCaptureMessage[]; onPick: (index: number) => void }) {
  const first = messages[0]?.at ?? 0;
  const row = 34;
  const height = 50 + messages.length * row;
  const left = 90;
  const right = 470;
  const remote = messages[0] ? (messages[0].direction === "in" ? messages[0].from : messages[0].to) : "";
  const local = messages[0] ? (messages[0].direction === "in" ? messages[0].to : messages[0].from) : "";
  return (
    <svg
      viewBox={`0 0 560 ${height}`}
      width="100%"
      role="img"
      aria-label="SIP ladder diagram"
      style={{ fontFamily: "var(--mantine-font-family-monospace)", fontSize: 11 }}
    >
      <text x={left} y={14} textAnchor="middle" fill="currentColor">
        {remote}
      </text>
      <text x={right} y={14} textAnchor="middle" fill="currentColor">
        Switchboard {local}
      </text>
      <line x1={left} y1={22} x2={left} y2={height} stroke="currentColor" strokeOpacity={0.4} />
      <line x1={right} y1={22} x2={right} y2={height} stroke="currentColor" strokeOpacity={0.4} />
      {messages
        .map((m, i) => ({ m, key: `${m.at}.${m.direction}.${m.firstLine}.${i}` }))
        .map(({ m, key }, i) => {
          const y = 44 + i * row;
          const [x1, x2] = m.direction === "in" ? [left, right] : [right, left];
          const label = m.firstLine.startsWith("SIP/2.0") ? m.firstLine.slice(8) : m.firstLine.split(" ")[0];
          const color = /^SIP\/2\.0 [3-6]/.test(m.firstLine)
            ? "var(--mantine-color-red-6)"
            : "var(--mantine-color-blue-6)";
          return (
            // biome-ignore lint/a11y/useSemanticElements: an SVG group is the clickable arrow of a message.
            <g
              key={key}
              role="button"
              tabIndex={0}
              aria-label={`${m.direction === "in" ? "Received" : "Sent"} ${m.firstLine}`}
              onClick={() => onPick(i)}
              onKeyDown={(event) => {
                if (event.key === "Enter" || event.key === " ") onPick(i);
              }}
              style={{ cursor: "pointer" }}
              data-testid="sip-ladder-arrow"
            >
              <rect x={0} y={y - row + 10} width={560} height={row} fill="transparent" />
              <text x={(left + right) / 2} y={y - 6} textAnchor="middle" fill={color}>
                {label}
              </text>
              <line x1={x1} y1={y} x2={x2} y2={y} stroke={color} strokeWidth={1.5} />
              <polygon
                points={
                  x2 > x1
                    ? `${x2},${y} ${x2 - 8},${y - 4} ${x2 - 8},${y + 4}`
                    : `${x2},${y} ${x2 + 8},${y - 4} ${x2 + 8},${y + 4}`
                }
                fill={color}
              />
              <text x={8} y={y + 4} fill="currentColor" fillOpacity={0.6}>
                +{((m.at - first) / 1000).toFixed(3)}s
              </text>
            </g>
          );
        })}
    </svg>
  );
}

/** The `SIP captures` dialog of one call: the ladder, a message's text, downloads as text and pcap. */
function SipCapturesDialog({ sipCallId, onClose }: { sipCallId: string | null; onClose: () => void }) {
  const capture = useSipCapture(sipCallId);
  const [picked, setPicked] = useState(0);
  const [downloading, setDownloading] = useState<"text" | "pcap" | null>(null);
  const messages = capture.data?.messages ?? [];
  const shown = messages[picked] ?? messages[0];

  const download = async (format: "text" | "pcap") => {
    if (!sipCallId) return;
    setDownloading(format);
    const answer = await fetchSipCapture(sipCallId, format);
    setDownloading(null);
    if (!answer.ok) {
      toast.error(
        answer.status === 0 ? answer.statusText : `Download failed: ${answer.status} ${answer.statusText}`,
      );
      return;
    }
    const safe = sipCallId.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 60);
    saveBlob(answer.data, `sip-capture-${safe}.${format === "text" ? "txt" : "pcap"}`);
  };

  return (
    <Modal opened={sipCallId !== null} onClose={onClose} title="SIP captures" size="xl">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Call <Code>{sipCallId}</Code>. Select an arrow to read its message; digest responses and credentials
          are redacted.
        </Text>
        {capture.isPending ? <LoadingState label="Loading the capture…" /> : null}
        {capture.isError ? <ErrorState error={capture.error} onRetry={() => void capture.refetch()} /> : null}
        {messages.length > 0 ? (
          <>
            <ScrollArea.Autosize mah={360}>
              <Ladder messages={messages} onPick={setPicked} />
            </ScrollArea.Autosize>
            {shown ? (
              <Code
                block
                aria-label="SIP message"
                style={{ whiteSpace: "pre-wrap", maxHeight: 240, overflow: "auto" }}
              >
                {shown.text}
              </Code>
            ) : null}
          </>
        ) : null}
        <Group>
          <Button variant="default" loading={downloading === "text"} onClick={() => void download("text")}>
            Download text
          </Button>
          <Button variant="default" loading={downloading === "pcap"} onClick={() => void download("pcap")}>
            Download pcap
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Recent calls' SIP messages (kept for the retention period), refused sources marked. */
export function SipCapturesCard() {
  const times = useTimeFormat();
  const calls = useSipCaptureCalls();
  const [open, setOpen] = useState<string | null>(null);
  return (
    <Card withBorder padding="lg" aria-label="SIP captures">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <CardTitle title="SIP captures">
            Every SIP message of recent calls and registrations, as a ladder diagram or a pcap file for
            Wireshark.
          </CardTitle>
          <Button variant="default" size="xs" onClick={() => void calls.refetch()} loading={calls.isFetching}>
            Refresh
          </Button>
        </Group>
        {calls.isPending ? <LoadingState label="Loading the captures…" /> : null}
        {calls.isError ? <ErrorState error={calls.error} onRetry={() => void calls.refetch()} /> : null}
        {calls.data && calls.data.calls.length === 0 ? (
          <EmptyState>No SIP traffic captured yet.</EmptyState>
        ) : null}
        {calls.data && calls.data.calls.length > 0 ? (
          <Table.ScrollContainer minWidth={620}>
            <Table aria-label="Captured SIP calls">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>When</Table.Th>
                  <Table.Th>Request</Table.Th>
                  <Table.Th>From</Table.Th>
                  <Table.Th>Answer</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {calls.data.calls.map((call) => (
                  <Table.Tr key={call.sipCallId} data-testid="sip-capture-row">
                    <Table.Td>{times.format(call.firstAt, "dateTimeSeconds")}</Table.Td>
                    <Table.Td>
                      <Text size="sm">
                        {call.method} <Code>{call.requestUri}</Code>
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{call.remote}</Text>
                    </Table.Td>
                    <Table.Td>
                      {call.refused ? (
                        <Badge color="red" variant="light">
                          Refused {call.finalStatus ?? ""}
                        </Badge>
                      ) : (
                        <Text size="sm">{call.finalStatus ?? "—"}</Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Button size="xs" variant="light" onClick={() => setOpen(call.sipCallId)}>
                        View ({call.messages})
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : null}
      </Stack>
      <SipCapturesDialog sipCallId={open} onClose={() => setOpen(null)} />
    </Card>
  );
}

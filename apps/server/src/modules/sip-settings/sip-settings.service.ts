import {
  MAX_SIP_ALLOWLIST,
  MAX_SIP_ROUTES,
  SIP_MESSAGES,
  type SipAllowEntry,
  type SipCaptureCall,
  type SipCaptureMessage,
  type SipRegistration,
  type SipRoute,
  type sipRegistrationInputSchema,
  type sipRouteInputSchema,
} from "@switchboard/api";
import type { FastifyBaseLogger } from "fastify";
import type { z } from "zod";
import type { Access, AccountRow } from "../../access/access.ts";
import { badRequest, conflict, notFound } from "../../api-error.ts";
import { checkDestination, createAllowlist, OutboundError } from "../../http/outbound.ts";
import { decryptSecret, encryptSecret } from "../../providers/llm/key-encryption.ts";
import type { RealtimeHub } from "../../realtime/realtime-hub.ts";
import {
  type CapturedMessage,
  normaliseAllowEntry,
  parseSipUri,
  plainAddress,
  type Registration,
  type RegistrationSender,
  type RegistrationStatus,
  startRegistration,
  writePcap,
} from "../voice/index.ts";
import type { SipEdgePolicy } from "./sip-edge.ts";
import type {
  CaptureRow,
  RegistrationRow,
  RouteRow,
  SipSettingsRepository,
} from "./sip-settings.repository.ts";

/** The PostgreSQL channel that tells every instance the allow-lists changed. */
export const SIP_SETTINGS_CHANNEL = "switchboard_sip_settings";

/** The organisation a call acts on: the target, or the organisation of a target agent account. */
function organizationIdOf(target: AccountRow): number {
  if (target.accountType === "organization") return target.id;
  if (target.accountType === "agent" && target.organizationId) return target.organizationId;
  throw badRequest(SIP_MESSAGES.noOrganization);
}

const MASK = "••••";

function toAllowEntry(row: { id: number; ip: string; label: string; createdAt: Date }): SipAllowEntry {
  return { id: row.id, ip: row.ip, label: row.label, createdAt: row.createdAt.getTime() };
}

function toRoute(row: RouteRow): SipRoute {
  return {
    id: row.id,
    name: row.name,
    host: row.host,
    port: row.port,
    transport: row.transport,
    username: row.username,
    password: row.passwordEncrypted ? MASK : null,
    prefixes: row.prefixes,
    createdAt: row.createdAt.getTime(),
  };
}

function toRegistration(row: RegistrationRow): SipRegistration {
  return {
    host: row.host,
    port: row.port,
    transport: row.transport,
    username: row.username,
    authUsername: row.authUsername,
    domain: row.domain,
    password: row.passwordEncrypted ? MASK : null,
    expires: row.expires,
    agentId: row.agentId,
    state: row.state,
    lastError: row.lastError,
    registeredAt: row.registeredAt?.getTime() ?? null,
    expiresAt: row.expiresAt?.getTime() ?? null,
    updatedAt: row.updatedAt.getTime(),
  };
}

/** A SIP target an organisation named (outbound route, registrar) and where it may be reached. */
export type SipDestination = {
  host: string;
  port: number;
  transport: "udp" | "tcp";
  username: string | null;
  password: string | null;
};

type Deps = {
  repo: SipSettingsRepository;
  policy: SipEdgePolicy;
  secretKey: string;
  /** OUTBOUND_ALLOWLIST: `host:port` / `host:*` private destinations the operator allows. */
  outboundAllowlist: readonly string[];
  retentionHours: number;
  contactHost: string;
  loadAccount: (id: number) => Promise<AccountRow | null>;
  /** The organisation a dialled number (the Request-URI's user) belongs to, or null (Numbers). */
  numberOrg?: (user: string) => Promise<number | null>;
  notify: (channel: string, payload: string) => Promise<void>;
  realtime: RealtimeHub | null;
  log: FastifyBaseLogger;
  /** Registration retry waits (tests). */
  retrySeconds?: number[];
};

export function createSipSettingsService(deps: Deps) {
  const { repo, policy } = deps;
  const allowlist = createAllowlist(deps.outboundAllowlist);
  const registrations = new Map<number, Registration>();
  let sender: RegistrationSender | null = null;
  /** Call-IDs whose organisation is known (our REGISTERs; other modules may `assign`). */
  const assigned = new Map<string, number>();
  const agentOrg = new Map<number, number | null>();

  function assign(callId: string, orgId: number) {
    if (assigned.size > 10_000) assigned.clear();
    assigned.set(callId, orgId);
  }

  async function reloadAllowlist() {
    policy.setAllowlist(await repo.allAllowEntries());
  }

  async function changed() {
    await reloadAllowlist();
    await deps.notify(SIP_SETTINGS_CHANNEL, "allowlist").catch(() => {});
  }

  /**
   * Resolves a SIP host to the address to use, with the check web addresses get (checkDestination):
   * private ones only where the operator allowed the host or the address it resolves to.
   */
  async function resolveDestination(host: string, port: number): Promise<string> {
    const addresses = await checkDestination(host, port, allowlist, (address) =>
      allowlist.allows(address, port),
    ).catch((error: unknown) => {
      throw error instanceof OutboundError ? new Error(SIP_MESSAGES.privateHost) : error;
    });
    const first = addresses[0];
    if (!first) throw new Error(`${host} could not be resolved`);
    return plainAddress(first.address);
  }

  /** At save: a private literal address (or a name resolving only to private ones) answers 400 at once. */
  async function checkHost(host: string, port: number) {
    try {
      await resolveDestination(host, port);
    } catch (error) {
      if (error instanceof Error && error.message === SIP_MESSAGES.privateHost)
        throw badRequest(SIP_MESSAGES.privateHost);
      // A name that does not resolve yet is accepted: it is checked again at each use.
    }
  }

  async function publishRegistration(orgId: number) {
    await deps.realtime
      ?.publish({ orgId, agentId: null, event: { type: "sip", what: "registration" } })
      .catch(() => {});
  }

  function startFor(row: RegistrationRow) {
    const current = registrations.get(row.orgId);
    if (current) void current.stop(false);
    registrations.delete(row.orgId);
    if (!sender) {
      void repo
        .setRegistrationStatus(row.orgId, {
          state: "failed",
          lastError: "SIP is off on this server (SIP_PORT)",
          registeredAt: null,
          expiresAt: null,
        })
        .then(() => publishRegistration(row.orgId))
        .catch((error) => deps.log.warn({ err: error }, "could not store the SIP registration state"));
      return;
    }
    const registration = startRegistration({
      sender,
      target: {
        host: row.host,
        port: row.port,
        transport: row.transport,
        username: row.username,
        authUsername: row.authUsername,
        password: row.passwordEncrypted ? decryptSecret(deps.secretKey, row.passwordEncrypted) : null,
        domain: row.domain,
        expires: row.expires,
      },
      contactHost: deps.contactHost,
      resolve: (host) => resolveDestination(host, row.port),
      ...(deps.retrySeconds ? { retrySeconds: deps.retrySeconds } : {}),
      log: deps.log,
      onStatus: (status: RegistrationStatus, registrar: string | null) => {
        if (registrations.get(row.orgId) !== registration && status.state !== "stopped") return;
        policy.setRegistrar(
          row.orgId,
          registrar && status.state !== "stopped"
            ? { orgId: row.orgId, agentId: row.agentId, username: row.username, address: registrar }
            : null,
        );
        if (status.state === "stopped") return;
        void repo
          .setRegistrationStatus(row.orgId, status)
          .then(() => publishRegistration(row.orgId))
          .catch((error) => deps.log.warn({ err: error }, "could not store the SIP registration state"));
      },
    });
    registrations.set(row.orgId, registration);
    assign(registration.callId, row.orgId);
  }

  async function resolveOrg(
    callId: string,
    requestUri: string | null,
    remote: string,
  ): Promise<number | null> {
    const known = assigned.get(callId);
    if (known !== undefined) return known;
    const uri = requestUri ? parseSipUri(requestUri.slice(requestUri.indexOf(" ") + 1)) : null;
    const user = uri?.user;
    const claimed = policy.edge.claim({
      agentAccountId: null,
      user,
      requestUri: requestUri ?? "",
      remote: { transport: "udp", address: remote, port: 0 },
    });
    if (claimed) return claimed.orgId;
    if (!user) return null;
    // sip:<number>@host: the organisation that holds the number (an agent id is 1-9 digits, a number more).
    if (!/^\d{1,9}$/.test(user)) return (await deps.numberOrg?.(user).catch(() => null)) ?? null;
    const id = Number(user);
    if (!agentOrg.has(id)) {
      if (agentOrg.size > 10_000) agentOrg.clear();
      const account = await deps.loadAccount(id).catch(() => null);
      agentOrg.set(id, account?.accountType === "agent" ? (account.organizationId ?? null) : null);
    }
    return agentOrg.get(id) ?? null;
  }

  /** Stores captured messages, each with the organisation its call belongs to. */
  async function storeCaptures(messages: CapturedMessage[]) {
    const orgs = new Map<string, number | null>();
    for (const m of messages) {
      if (!orgs.has(m.callId)) orgs.set(m.callId, await resolveOrg(m.callId, m.requestUri, m.remoteAddress));
    }
    await repo.insertCaptures(
      messages.map((m) => ({
        orgId: orgs.get(m.callId) ?? null,
        callId: m.callId,
        at: m.at,
        direction: m.direction,
        transport: m.transport,
        localAddress: m.localAddress,
        localPort: m.localPort,
        remoteAddress: m.remoteAddress,
        remotePort: m.remotePort,
        firstLine: m.firstLine,
        refused: m.refused ? 1 : 0,
        message: m.message,
      })),
    );
  }

  function toCaptureMessage(row: CaptureRow): SipCaptureMessage {
    const local = `${row.localAddress}:${row.localPort}`;
    const remote = `${row.remoteAddress}:${row.remotePort}`;
    return {
      at: row.at.getTime(),
      direction: row.direction,
      transport: row.transport,
      from: row.direction === "in" ? remote : local,
      to: row.direction === "in" ? local : remote,
      firstLine: row.firstLine,
      text: row.message,
    };
  }

  function summarise(
    call: { callId: string; firstAt: number; lastAt: number; messages: number; refused: number },
    rows: CaptureRow[],
  ): SipCaptureCall {
    const first =
      rows.find((r) => !r.firstLine.startsWith("SIP/2.0") && !r.firstLine.startsWith("ACK")) ?? rows[0];
    const [method = "", requestUri = ""] = (first?.firstLine ?? "").split(" ");
    const finals = rows.filter((r) => {
      const match = /^SIP\/2\.0 (\d{3})/.exec(r.firstLine);
      return match && Number(match[1]) >= 200 && r.message.includes(` ${method}\r\n`);
    });
    const finalStatus = finals[0] ? Number(finals[0].firstLine.slice(8, 11)) : null;
    return {
      sipCallId: call.callId,
      firstAt: call.firstAt,
      lastAt: call.lastAt,
      messages: call.messages,
      method,
      requestUri,
      finalStatus,
      remote: first ? `${first.transport} ${first.remoteAddress}:${first.remotePort}` : "",
      refused: call.refused > 0,
    };
  }

  return {
    /** Loads the allow-lists and follows changes other instances make. */
    reloadAllowlist,

    /** The SIP server is up: registrations can run (starts the stored ones). */
    async attach(server: RegistrationSender | null) {
      sender = server;
      for (const row of await repo.activeRegistrations()) startFor(row);
    },

    /** Names the organisation of a call whose Request-URI does not (outbound calls, other modules). */
    assign,

    storeCaptures,
    resolveDestination,

    async listAllow(access: Access): Promise<SipAllowEntry[]> {
      return (await repo.allowEntries(organizationIdOf(access.target))).map(toAllowEntry);
    },

    async addAllow(access: Access, body: { ip: string; label: string }) {
      const orgId = organizationIdOf(access.target);
      const ip = normaliseAllowEntry(body.ip);
      if (!ip) throw badRequest(SIP_MESSAGES.badIp);
      if ((await repo.countAllowEntries(orgId)) >= MAX_SIP_ALLOWLIST)
        throw badRequest(SIP_MESSAGES.tooManyIps);
      const row = await repo.insertAllowEntry({ orgId, ip, label: body.label });
      if (!row) throw badRequest(SIP_MESSAGES.duplicateIp);
      await changed();
      return { success: true as const, entry: toAllowEntry(row) };
    },

    async removeAllow(access: Access, body: { id?: number; ip?: string }) {
      const orgId = organizationIdOf(access.target);
      const ip = body.ip !== undefined ? (normaliseAllowEntry(body.ip) ?? body.ip) : undefined;
      const deleted = await repo.deleteAllowEntry(orgId, {
        ...(body.id !== undefined ? { id: body.id } : {}),
        ...(ip !== undefined ? { ip } : {}),
      });
      if (!deleted) throw notFound(SIP_MESSAGES.ipNotFound);
      await changed();
      return { success: true as const, deleted };
    },

    async listRoutes(access: Access) {
      return {
        success: true as const,
        routes: (await repo.routes(organizationIdOf(access.target))).map(toRoute),
      };
    },

    async saveRoute(access: Access, input: z.output<typeof sipRouteInputSchema>) {
      const orgId = organizationIdOf(access.target);
      await checkHost(input.host, input.port);
      const values = {
        name: input.name,
        host: input.host,
        port: input.port,
        transport: input.transport,
        username: input.username ?? null,
        prefixes: [...new Set(input.prefixes)],
        ...(input.password !== undefined
          ? { passwordEncrypted: input.password ? encryptSecret(deps.secretKey, input.password) : null }
          : {}),
      };
      if (input.id !== undefined) {
        const row = await repo.updateRoute(orgId, input.id, values);
        if (!row) throw notFound(SIP_MESSAGES.routeNotFound);
        return { success: true as const, route: toRoute(row) };
      }
      if ((await repo.routes(orgId)).length >= MAX_SIP_ROUTES) throw badRequest(SIP_MESSAGES.tooManyRoutes);
      return { success: true as const, route: toRoute(await repo.insertRoute({ orgId, ...values })) };
    },

    async removeRoute(access: Access, id: number) {
      const deleted = await repo.deleteRoute(organizationIdOf(access.target), id);
      if (!deleted) throw notFound(SIP_MESSAGES.routeNotFound);
      return { success: true as const, deleted };
    },

    /**
     * The organisation's outbound route for a number: the one with the longest matching prefix (a route
     * without prefixes matches every number), with its password decrypted; null when it has none. For the
     * SIP UAC that places outbound calls.
     */
    async outboundRouteFor(orgId: number, number: string): Promise<SipDestination | null> {
      const digits = number.replace(/[^\d+]/g, "");
      let best: { row: RouteRow; length: number } | null = null;
      for (const row of await repo.routes(orgId)) {
        const lengths = row.prefixes.length
          ? row.prefixes
              .filter((p) => digits.replace(/^\+/, "").startsWith(p.replace(/^\+/, "")))
              .map((p) => p.replace(/^\+/, "").length)
          : [0];
        for (const length of lengths) if (!best || length > best.length) best = { row, length };
      }
      if (!best) return null;
      const { row } = best;
      return {
        host: row.host,
        port: row.port,
        transport: row.transport,
        username: row.username,
        password: row.passwordEncrypted ? decryptSecret(deps.secretKey, row.passwordEncrypted) : null,
      };
    },

    async getRegistration(access: Access) {
      const row = await repo.registration(organizationIdOf(access.target));
      return {
        success: true as const,
        registration: row ? toRegistration(row) : null,
        sipEnabled: sender !== null,
      };
    },

    async saveRegistration(access: Access, input: z.output<typeof sipRegistrationInputSchema>) {
      const orgId = organizationIdOf(access.target);
      // Refused before anything is stored: it could only fail once saved.
      if (!sender) throw conflict(SIP_MESSAGES.sipOff);
      const agent = await deps.loadAccount(input.agentId);
      if (agent?.accountType !== "agent" || agent.organizationId !== orgId)
        throw badRequest(SIP_MESSAGES.agentNotFound);
      await checkHost(input.host, input.port);
      const existing = await repo.registration(orgId);
      const passwordEncrypted =
        input.password !== undefined
          ? input.password
            ? encryptSecret(deps.secretKey, input.password)
            : null
          : (existing?.passwordEncrypted ?? null);
      const row = await repo.saveRegistration({
        orgId,
        agentId: input.agentId,
        host: input.host,
        port: input.port,
        transport: input.transport,
        username: input.username,
        authUsername: input.authUsername ?? null,
        domain: input.domain ?? null,
        passwordEncrypted,
        expires: input.expires,
        state: "registering",
        lastError: null,
        registeredAt: null,
        expiresAt: null,
        updatedAt: new Date(),
      });
      startFor(row);
      return { success: true as const, registration: toRegistration(row) };
    },

    async deleteRegistration(access: Access) {
      const orgId = organizationIdOf(access.target);
      const current = registrations.get(orgId);
      registrations.delete(orgId);
      await current?.stop(true);
      policy.setRegistrar(orgId, null);
      const deleted = await repo.deleteRegistration(orgId);
      if (!deleted) throw notFound(SIP_MESSAGES.registrationNotFound);
      await publishRegistration(orgId);
      return { success: true as const, deleted };
    },

    /** The registration running here for an organisation (tests). */
    registrationOf: (orgId: number) => registrations.get(orgId) ?? null,

    async captures(access: Access, query: { sipCallId?: string | undefined }) {
      const orgId = organizationIdOf(access.target);
      const calls = (await repo.captureCalls(orgId, 100)).filter(
        (call) => query.sipCallId === undefined || call.callId === query.sipCallId,
      );
      if (query.sipCallId !== undefined && calls.length === 0) throw notFound(SIP_MESSAGES.captureNotFound);
      const rows = await repo.captureMessages(
        orgId,
        calls.map((call) => call.callId),
      );
      const byCall = new Map<string, CaptureRow[]>();
      for (const row of rows) byCall.set(row.callId, [...(byCall.get(row.callId) ?? []), row]);
      return {
        calls: calls.map((call) => summarise(call, byCall.get(call.callId) ?? [])),
        rows,
        messages: query.sipCallId !== undefined ? rows.map(toCaptureMessage) : [],
      };
    },

    /** Every message as text: a line naming time, direction and addresses, then the message. */
    captureText(rows: CaptureRow[]): string {
      return rows
        .map((row) => {
          const m = toCaptureMessage(row);
          return `=== ${new Date(m.at).toISOString()} ${m.transport.toUpperCase()} ${m.from} -> ${m.to} (${m.direction === "in" ? "received" : "sent"}) call ${row.callId}\r\n${m.text}`;
        })
        .join("\r\n");
    },

    capturePcap(rows: CaptureRow[]): Buffer {
      return writePcap(
        rows.map((row) => {
          const local = { address: row.localAddress, port: row.localPort };
          const remote = { address: row.remoteAddress, port: row.remotePort };
          const [src, dst] = row.direction === "in" ? [remote, local] : [local, remote];
          return {
            at: row.at,
            srcAddress: src.address,
            srcPort: src.port,
            dstAddress: dst.address,
            dstPort: dst.port,
            payload: Buffer.from(row.message, "utf8"),
          };
        }),
      );
    },

    /** Deletes captures past the retention period. */
    purgeCaptures: () => repo.purgeCaptures(new Date(Date.now() - deps.retentionHours * 3600_000)),

    async stop() {
      const running = [...registrations.values()];
      registrations.clear();
      await Promise.all(running.map((registration) => registration.stop(true)));
    },
  };
}

export type SipSettingsService = ReturnType<typeof createSipSettingsService>;

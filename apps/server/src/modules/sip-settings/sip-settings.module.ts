import { SIP_MESSAGES } from "@switchboard/api";
import { badRequest } from "../../api-error.ts";
import type { AppContext } from "../../app-context.ts";
import type { RealtimeHub } from "../../realtime/realtime-hub.ts";
import { createCaptureRecorder, type SipServer } from "../voice/index.ts";
import { purgeSipCapturesJob } from "./jobs.ts";
import { createSipEdgePolicy } from "./sip-edge.ts";
import { createSipSettingsRepository } from "./sip-settings.repository.ts";
import { sipSettingsRoutes } from "./sip-settings.routes.ts";
import { createSipSettingsService, SIP_SETTINGS_CHANNEL } from "./sip-settings.service.ts";

/**
 * SIP developer settings: the allow-lists, flood limits and captures of the SIP edge (its policy is handed
 * to the SIP module as `edge`), outbound routes, and the registration of our server to organisations' PBXs
 * (started once the SIP server is up: `attach`). Captures are purged by the `sip-captures-purge` job.
 */
export async function createSipSettingsModule(
  context: AppContext,
  deps: {
    realtime: RealtimeHub | null;
    /** The organisation holding a dialled number, so captures of calls to numbers are the org's too. */
    numberOrg?: (user: string) => Promise<number | null>;
  },
) {
  const { config, log } = context;
  let localAddress = { address: config.sip.publicHost, port: config.sipPort };
  // The service is made below; the recorder hands it batches once it exists.
  let store:
    | ((
        messages: Parameters<ReturnType<typeof createSipSettingsService>["storeCaptures"]>[0],
      ) => Promise<void>)
    | null = null;
  const recorder = createCaptureRecorder({
    sink: async (messages) => {
      await store?.(messages);
    },
    localAddress: () => localAddress,
    onError: (error) => log.warn({ err: error }, "SIP captures could not be stored"),
  });
  const policy = createSipEdgePolicy({
    trustLoopback: config.sip.trustLoopback,
    sourceRate: config.sip.sourceRate,
    unlistedRate: config.sip.unlistedRate,
    recorder,
    trustedEdge: config.sip.trustedEdge,
  });
  const repo = createSipSettingsRepository(context.database.db);
  const service = createSipSettingsService({
    repo,
    policy,
    secretKey: context.secretKey,
    outboundAllowlist: config.outbound.allowlist,
    retentionHours: config.sip.captureRetentionHours,
    contactHost: config.sip.publicHost,
    loadAccount: context.access.loadAccount,
    numberOrg: deps.numberOrg,
    notify: (channel, payload) => context.notifications.notify(channel, payload),
    realtime: deps.realtime,
    log,
  });
  store = service.storeCaptures;
  await service.reloadAllowlist();
  const unfollow = await context.notifications.follow(SIP_SETTINGS_CHANNEL, () => {
    void service
      .reloadAllowlist()
      .catch((error) => log.warn({ err: error }, "could not reload the SIP allow-lists"));
  });

  const purgeEveryMs = Math.min(3600_000, (config.sip.captureRetentionHours * 3600_000) / 4);
  context.jobs.register(purgeSipCapturesJob, async () => {
    const purged = await service.purgeCaptures();
    if (purged) log.info({ purged }, "purged old SIP captures");
    await context.jobs.send(purgeSipCapturesJob, {}, { startAfter: new Date(Date.now() + purgeEveryMs) });
  });

  return {
    routes: sipSettingsRoutes(service),
    service,
    policy,
    recorder,
    /** What the SIP server applies to every message and INVITE. */
    edge: policy.edge,
    /**
     * The organisation's outbound route for a number as the SIP UAC's trunk target (numbers' outbound
     * calls), its host checked again now (private addresses only with OUTBOUND_ALLOWLIST); null: none.
     */
    async trunkFor(organizationId: number, to: string) {
      const route = await service.outboundRouteFor(organizationId, to);
      if (!route) return null;
      let host: string;
      try {
        host = await service.resolveDestination(route.host, route.port);
      } catch (error) {
        throw badRequest(error instanceof Error ? error.message : SIP_MESSAGES.privateHost);
      }
      return {
        host,
        port: route.port,
        transport: route.transport,
        ...(route.username && route.password
          ? { credentials: { username: route.username, password: route.password } }
          : {}),
      };
    },
    /** After the job runner started: queue the purge. */
    async start() {
      await context.jobs
        .send(purgeSipCapturesJob, {})
        .catch((error) => log.warn({ err: error }, "could not queue the SIP capture purge"));
    },
    /** The SIP server is up (or off: null): registrations start. */
    async attach(server: SipServer | null) {
      if (server) localAddress = { address: config.sip.publicHost, port: server.port };
      await service.attach(server);
    },
    async stop() {
      unfollow();
      await service.stop();
      await recorder.stop();
    },
  };
}

export type SipSettingsModule = Awaited<ReturnType<typeof createSipSettingsModule>>;

declare module "fastify" {
  interface FastifyInstance {
    /** SIP developer settings (tests, and the SIP UAC that asks for an organisation's outbound route). */
    sipSettings: SipSettingsModule;
  }
}

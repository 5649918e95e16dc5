import {
  ACCOUNT_MESSAGES,
  type LinksConfig,
  linksConfigSchema,
  type ProfileLink,
  PUBLIC_CALLS_PER_HOUR,
  PUBLIC_MESSAGES,
  type PublicPage,
  VOICE_MESSAGES,
} from "@switchboard/api";
import type { Access, AccessResolver, AccountRow } from "../../access/access.ts";
import { badRequest, notFound, tooManyRequests, unauthorized } from "../../api-error.ts";
import { displayNameOf } from "../accounts/index.ts";
import type { InboxService } from "../inbox/index.ts";
import { storedGreeting } from "../runtime/index.ts";
import type { ProfileLinkRow, ProfilesRepository } from "./profiles.repository.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

export function linksConfigOf(account: AccountRow): LinksConfig {
  const raw = (account.details as Record<string, unknown>).linksConfig;
  const parsed = linksConfigSchema.safeParse(raw && typeof raw === "object" ? raw : {});
  return parsed.success ? parsed.data : { bio: "", published: true };
}

const toLink = (row: ProfileLinkRow): ProfileLink => ({
  id: row.id,
  position: row.position,
  title: row.title,
  url: row.url,
  clicks: row.clicks,
});

/** Public pages: links and their statistics, what a page shows, and the visitors' chat with its agent. */
export function createProfilesService(deps: {
  repo: ProfilesRepository;
  access: AccessResolver;
  inbox: InboxService;
}) {
  const { repo } = deps;

  async function linksAnswer(account: AccountRow) {
    return {
      success: true as const,
      links: (await repo.listLinks(account.id)).map(toLink),
      linksConfig: linksConfigOf(account),
      username: account.username,
    };
  }

  /** The agent a page chats with: the account itself, or its organisation's favourite or first agent. */
  async function agentOf(account: AccountRow): Promise<AccountRow | null> {
    if (account.accountType === "agent") return account;
    if (account.accountType !== "organization") return null;
    const agents = await repo.agentsOf(account.id);
    if (agents.length === 0) return null;
    const favorites = (account.settings as Record<string, unknown>).favorites;
    if (Array.isArray(favorites))
      for (const id of favorites) {
        const favourite = agents.find((a) => a.id === id);
        if (favourite) return favourite;
      }
    return agents.find((a) => a.switchboardPhoneNumber) ?? agents[0] ?? null;
  }

  /** The account of a public page: 404 for unknown, disabled, deleted or unpublished ones. */
  async function publicAccount(username: string): Promise<AccountRow> {
    const account = await repo.findLiveByUsername(username);
    if (!account || !linksConfigOf(account).published) throw notFound(ACCOUNT_MESSAGES.profileNotFound);
    return account;
  }

  async function allowEmbeds(account: AccountRow): Promise<boolean> {
    const owner =
      account.accountType === "agent" && account.organizationId
        ? await repo.findAccount(account.organizationId)
        : account;
    return (owner?.settings as Record<string, unknown> | undefined)?.allowEmbeds !== false;
  }

  return {
    agentOf,
    linksConfigOf,

    list: (access: Access) => linksAnswer(access.target),

    async save(
      access: Access,
      body: { links: { id?: number; title: string; url: string }[]; linksConfig?: Partial<LinksConfig> },
    ) {
      await repo.replaceLinks(access.target.id, body.links);
      const changed = Object.fromEntries(
        Object.entries(body.linksConfig ?? {}).filter(([, value]) => value !== undefined),
      );
      if (Object.keys(changed).length > 0) await repo.setLinksConfig(access.target.id, changed);
      const account = (await repo.findAccount(access.target.id)) ?? access.target;
      return linksAnswer(account);
    },

    async stats(access: Access, days: number, now = Date.now()) {
      const today = new Date(new Date(now).toISOString().slice(0, 10));
      const since = new Date(today.getTime() - (days - 1) * DAY_MS);
      const links = await repo.listLinks(access.target.id);
      const perLink = await repo.clicksSince(access.target.id, since);
      const perDay = await repo.clicksPerDay(access.target.id, since);
      const series = Array.from({ length: days }, (_, i) => {
        const date = new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10);
        return { date, clicks: perDay.get(date) ?? 0 };
      });
      return {
        success: true as const,
        days,
        links: links.map((row) => ({ ...toLink(row), periodClicks: perLink.get(row.id) ?? 0 })),
        series,
        totalClicks: series.reduce((sum, d) => sum + d.clicks, 0),
      };
    },

    /** Counts a click and answers where it leads; 404 when the link or its page is gone or private. */
    async visit(linkId: number): Promise<string> {
      const [link] = await repo.linksByIds([linkId]);
      const account = link ? await repo.findAccount(link.accountId) : null;
      if (!link || !account || account.deletedAt || account.disabledAt || !linksConfigOf(account).published)
        throw notFound(PUBLIC_MESSAGES.linkNotFound);
      const counted = await repo.countClick(linkId);
      if (!counted) throw notFound(PUBLIC_MESSAGES.linkNotFound);
      return counted.url;
    },

    /** Everything the public page of `username` shows. */
    async page(username: string): Promise<PublicPage> {
      const account = await publicAccount(username);
      const agent = await agentOf(account);
      const config = agent ? await repo.productionConfig(agent.id) : null;
      const greeting = storedGreeting(config);
      const details = account.details as Record<string, unknown>;
      return {
        success: true,
        account: {
          username: account.username,
          accountType: account.accountType,
          displayName: displayNameOf(account),
          details: { image: typeof details.image === "string" ? details.image : null },
          socialLinks: account.socialLinks,
          socialLinksPosition: account.socialLinksPosition,
          switchboardPhoneNumber: account.switchboardPhoneNumber,
        },
        bio: linksConfigOf(account).bio,
        links: (await repo.listLinks(account.id)).map((l) => ({ id: l.id, title: l.title, url: l.url })),
        agent: agent
          ? {
              username: agent.username,
              displayName: displayNameOf(agent),
              phoneNumber: agent.switchboardPhoneNumber,
              greeting,
              acceptsMessages: config !== null,
            }
          : null,
        allowEmbeds: await allowEmbeds(account),
      };
    },

    allowEmbeds: async (username: string) => {
      const account = await repo.findLiveByUsername(username);
      return account ? allowEmbeds(account) : false;
    },

    /**
     * Who answers a visitor's call from a page (the page's published agent) and the visitor's address on
     * it; refused without a session, for a page without a published agent, or past the hourly limit.
     */
    async publicCallAgent(username: string, token: string | undefined) {
      const caller = token ? await deps.access.resolveCaller(token) : null;
      if (!caller) throw unauthorized(PUBLIC_MESSAGES.chatNoSession);
      const account = await repo.findLiveByUsername(username);
      if (!account) throw notFound(PUBLIC_MESSAGES.chatNotFound);
      const agent = await agentOf(account);
      if (!agent?.organizationId) throw notFound(PUBLIC_MESSAGES.chatNotFound);
      if (!(await repo.productionConfig(agent.id))) throw badRequest(PUBLIC_MESSAGES.chatClosed);
      const from = `web visitor ${caller.user.id}`;
      const hourAgo = new Date(Date.now() - 3600_000);
      if ((await repo.callsFrom(agent.organizationId, from, hourAgo)) >= PUBLIC_CALLS_PER_HOUR)
        throw tooManyRequests(VOICE_MESSAGES.publicCallsLimited);
      return { agentAccountId: agent.id, from };
    },

    /** A visitor's message to the agent of a page (an agent's username or an organisation's). */
    async sendPublic(username: string, token: string | undefined, text: string) {
      const caller = token ? await deps.access.resolveCaller(token) : null;
      if (!caller) throw unauthorized(PUBLIC_MESSAGES.chatNoSession);
      if (!text) throw badRequest(PUBLIC_MESSAGES.emptyMessage);
      const account = await repo.findLiveByUsername(username);
      if (!account) throw notFound(PUBLIC_MESSAGES.chatNotFound);
      const agent = await agentOf(account);
      if (!agent?.organizationId) throw notFound(PUBLIC_MESSAGES.chatNotFound);
      if (!(await repo.productionConfig(agent.id))) throw badRequest(PUBLIC_MESSAGES.chatClosed);
      const { room, message } = await deps.inbox.receiveWebChat({
        agent,
        visitorUserId: caller.user.id,
        text,
      });
      return {
        success: true as const,
        roomId: room.id,
        message: {
          id: message.id,
          role: message.role,
          text: message.text,
          createdAt: message.createdAt.getTime(),
        },
      };
    },
  };
}

export type ProfilesService = ReturnType<typeof createProfilesService>;

import type { FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../../api-error.ts";
import type { AppContext } from "../../app-context.ts";
import { RESERVED_USERNAMES } from "../accounts/index.ts";
import type { InboxService } from "../inbox/index.ts";
import { renderCardPng } from "./card-png.ts";
import { createProfilesRepository } from "./profiles.repository.ts";
import { profilesRoutes } from "./profiles.routes.ts";
import { createProfilesService } from "./profiles.service.ts";
import { renderCardSvg, renderNotFoundPage, renderPublicPage } from "./public-page-html.ts";
import { referralRoutes } from "./referrals.ts";

/** `/{username}`, `/u/{username}` and `/u/{username}/card.png` (the Open Graph card; .svg as before). */
const PAGE_PATH = /^\/(u\/)?([A-Za-z0-9-]{3,30})(\/card\.(svg|png))?\/?$/;

/** One-segment paths of the web app itself (its router's top level) that are no public page. */
const APP_PATHS: ReadonlySet<string> = new Set(["pay"]);

/**
 * Public pages (issue 22): the link page's links and statistics, the page itself (server-rendered HTML at
 * `/{username}` and `/u/{username}`), and visitors' chat with the page's agent through the inbox.
 */
export function createProfilesModule(context: AppContext, deps: { inbox: InboxService }) {
  const repo = createProfilesRepository(context.database.db);
  const profiles = createProfilesService({ repo, access: context.access, inbox: deps.inbox });

  /**
   * Answers a GET the web app did not serve when it names a public page
   * (false for a bare `/{name}` that is no public page: it stays the app's own Not found).
   */
  async function servePage(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const url = new URL(request.url, "http://x");
    const match = PAGE_PATH.exec(url.pathname);
    if (!match) return false;
    const prefixed = match[1] !== undefined;
    const username = (match[2] ?? "").toLowerCase();
    const card = match[4] as "svg" | "png" | undefined;
    if (!prefixed && (RESERVED_USERNAMES.has(username) || APP_PATHS.has(username))) return false;
    if (card && !prefixed) return false;
    let page: Awaited<ReturnType<typeof profiles.page>>;
    try {
      page = await profiles.page(username);
    } catch (error) {
      if (!(error instanceof ApiError) || error.statusCode !== 404) throw error;
      // An unknown, private or disabled page is a 404 with a page of its own (issue 32 item 18), whether
      // asked as /{name} or /u/{name}: a link preview must not read the app's shell as a page.
      reply
        .status(404)
        .header("cache-control", "no-cache")
        .type("text/html; charset=utf-8")
        .send(renderNotFoundPage());
      return true;
    }
    if (card === "png") {
      reply
        .header("cache-control", "public, max-age=3600")
        .type("image/png")
        .send(renderCardPng(page.account.displayName));
      return true;
    }
    if (card === "svg") {
      reply
        .header("cache-control", "public, max-age=3600")
        .type("image/svg+xml")
        .send(renderCardSvg(page.account.displayName));
      return true;
    }
    const embed = url.searchParams.get("embed") === "chat";
    // Other sites may frame the chat only when the organisation's partner allows embeds.
    const ancestors = embed && page.allowEmbeds ? "*" : "'self'";
    reply
      .header("cache-control", "no-cache")
      .header("content-security-policy", `frame-ancestors ${ancestors}`)
      .header("x-content-type-options", "nosniff")
      .type("text/html; charset=utf-8")
      .send(renderPublicPage(page, { publicUrl: context.config.publicUrl, embed }));
    return true;
  }

  return { profiles, servePage, routes: [...profilesRoutes(profiles), ...referralRoutes(context)] };
}

export type ProfilesModule = ReturnType<typeof createProfilesModule>;

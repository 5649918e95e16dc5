import { gunzipSync } from "node:zlib";
import { KB_MESSAGES, KB_ROBOTS_TOKEN, KB_SITEMAP_MAX_URLS, KB_USER_AGENT } from "@switchboard/api";
import { cleanText, decodeText } from "@switchboard/core";
import { type Outbound, OutboundError } from "../../http/outbound.ts";

/**
 * Every knowledge-base request to the web: through the guarded outbound module, with Switchboard's user
 * agent, after robots.txt allowed it (cached per site for 10 minutes), within size and time caps.
 */

/** Why a fetch failed, fit to show as the document's reason. */
export class FetchFailure extends Error {
  override name = "FetchFailure";
  constructor(
    message: string,
    /** Worth trying again later (a timeout, a 5xx), as opposed to a refusal or a 404. */
    readonly transient: boolean,
  ) {
    super(message);
  }
}

const ROBOTS_TTL_MS = 10 * 60 * 1000;
const PAGE_MAX_BYTES = 10 * 1024 * 1024;
const SITEMAP_MAX_BYTES = 20 * 1024 * 1024;
const SITEMAP_MAX_FILES = 50;

type RobotsRules = { allow: string[]; disallow: string[] };

/** The rules of robots.txt for our user agent: its own group, else the `*` group. */
export function parseRobots(text: string, token = KB_ROBOTS_TOKEN): RobotsRules {
  const groups: { agents: string[]; rules: RobotsRules }[] = [];
  let current: { agents: string[]; rules: RobotsRules } | null = null;
  let lastWasAgent = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, "").trim();
    const match = line.match(/^([A-Za-z-]+)\s*:\s*(.*)$/);
    if (!match) continue;
    const field = (match[1] ?? "").toLowerCase();
    const value = (match[2] ?? "").trim();
    if (field === "user-agent") {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: { allow: [], disallow: [] } };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (!current) continue;
    if (field === "allow" && value) current.rules.allow.push(value);
    if (field === "disallow" && value) current.rules.disallow.push(value);
  }
  const own = groups.find((group) =>
    group.agents.some((agent) => agent !== "*" && token.toLowerCase().includes(agent)),
  );
  const any = groups.find((group) => group.agents.includes("*"));
  return (own ?? any)?.rules ?? { allow: [], disallow: [] };
}

function ruleMatches(rule: string, path: string): boolean {
  const anchored = rule.endsWith("$");
  const pattern = (anchored ? rule.slice(0, -1) : rule)
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${pattern}${anchored ? "$" : ""}`).test(path);
}

/** Longest matching rule wins; Allow wins a tie (RFC 9309). */
export function robotsAllows(rules: RobotsRules, path: string): boolean {
  let best: { length: number; allow: boolean } | null = null;
  for (const [list, allow] of [
    [rules.disallow, false],
    [rules.allow, true],
  ] as const) {
    for (const rule of list) {
      if (!ruleMatches(rule, path)) continue;
      if (!best || rule.length > best.length || (rule.length === best.length && allow))
        best = { length: rule.length, allow };
    }
  }
  return best?.allow ?? true;
}

export type FetchedPage = {
  status: number;
  notModified: boolean;
  data: Uint8Array;
  contentType: string | null;
  etag: string | null;
  lastModified: string | null;
  url: string;
};

function messageOf(error: unknown): FetchFailure {
  if (error instanceof FetchFailure) return error;
  if (error instanceof OutboundError)
    return new FetchFailure(error.message, error.reason === "timeout" || error.reason === "unreachable");
  return new FetchFailure("This address could not be reached.", true);
}

export function createKbFetcher(deps: { outbound: Outbound; timeoutMs: number; now?: () => number }) {
  const now = deps.now ?? Date.now;
  const robotsCache = new Map<string, { rules: RobotsRules; until: number }>();

  async function robotsOf(url: URL, signal?: AbortSignal): Promise<RobotsRules> {
    const origin = url.origin;
    const cached = robotsCache.get(origin);
    if (cached && cached.until > now()) return cached.rules;
    let rules: RobotsRules = { allow: [], disallow: [] };
    try {
      const response = await deps.outbound.fetchText(`${origin}/robots.txt`, {
        headers: { "user-agent": KB_USER_AGENT },
        timeoutMs: deps.timeoutMs,
        maxBytes: 512 * 1024,
        ...(signal ? { signal } : {}),
      });
      // RFC 9309: 4xx means no rules; 5xx (unreachable) means everything is disallowed.
      if (response.ok) rules = parseRobots(response.text);
      else if (response.status >= 500) rules = { allow: [], disallow: ["/"] };
    } catch (error) {
      if (error instanceof OutboundError && error.reason !== "timeout" && error.reason !== "unreachable")
        throw messageOf(error);
      // No answer from robots.txt: the page fetch itself will say what is wrong.
    }
    robotsCache.set(origin, { rules, until: now() + ROBOTS_TTL_MS });
    if (robotsCache.size > 1000) robotsCache.delete(robotsCache.keys().next().value as string);
    return rules;
  }

  /** GETs a page (conditionally, with the validators of the last fetch) after robots.txt allowed it. */
  async function fetchPage(
    address: string,
    options: {
      etag?: string | null;
      lastModified?: string | null;
      maxBytes?: number;
      signal?: AbortSignal;
    } = {},
  ): Promise<FetchedPage> {
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      throw new FetchFailure("Enter a valid web address.", false);
    }
    const rules = await robotsOf(url, options.signal);
    if (!robotsAllows(rules, `${url.pathname}${url.search}`))
      throw new FetchFailure(KB_MESSAGES.robots, false);
    const headers: Record<string, string> = {
      "user-agent": KB_USER_AGENT,
      accept: "text/html,application/xhtml+xml,application/pdf,text/plain,text/markdown,text/csv,*/*;q=0.5",
    };
    if (options.etag) headers["if-none-match"] = options.etag;
    if (options.lastModified) headers["if-modified-since"] = options.lastModified;
    try {
      const response = await deps.outbound.request(url, {
        headers,
        timeoutMs: deps.timeoutMs,
        maxBytes: options.maxBytes ?? PAGE_MAX_BYTES,
        maxRedirects: 5,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const base = {
        status: response.status,
        contentType: response.headers.get("content-type"),
        etag: response.headers.get("etag"),
        lastModified: response.headers.get("last-modified"),
        url: response.url || url.href,
      };
      if (response.status === 304) {
        await response.body?.cancel().catch(() => {});
        return { ...base, notModified: true, data: new Uint8Array() };
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => {});
        throw new FetchFailure(
          `The page answered ${response.status}${response.statusText ? ` ${response.statusText}` : ""}.`,
          response.status >= 500 || response.status === 429,
        );
      }
      return { ...base, notModified: false, data: new Uint8Array(await response.arrayBuffer()) };
    } catch (error) {
      throw messageOf(error);
    }
  }

  /**
   * The page URLs of a sitemap: a `<urlset>` answers its `<loc>`s, a `<sitemapindex>` is followed (up to 50
   * sitemap files), gzip files are unpacked. At most KB_SITEMAP_MAX_URLS, first come first kept.
   */
  async function readSitemap(address: string): Promise<{ urls: string[]; truncated: boolean }> {
    const urls: string[] = [];
    const seen = new Set<string>();
    const queue = [address];
    const visited = new Set<string>();
    let truncated = false;
    let sawSitemap = false;
    while (queue.length > 0 && visited.size < SITEMAP_MAX_FILES) {
      const next = queue.shift() as string;
      if (visited.has(next)) continue;
      visited.add(next);
      let page: FetchedPage;
      try {
        page = await fetchPage(next, { maxBytes: SITEMAP_MAX_BYTES });
      } catch (error) {
        // The first one is the user's: say why. A child sitemap that fails is skipped.
        if (visited.size === 1) throw error;
        continue;
      }
      let data = page.data;
      if (data[0] === 0x1f && data[1] === 0x8b) {
        try {
          data = gunzipSync(data, { maxOutputLength: 50 * 1024 * 1024 });
        } catch {
          if (visited.size === 1) throw new FetchFailure(KB_MESSAGES.sitemapInvalid, false);
          continue;
        }
      }
      const xml = decodeText(data);
      const isIndex = /<sitemapindex[\s>]/i.test(xml);
      if (!isIndex && !/<urlset[\s>]/i.test(xml)) {
        if (visited.size === 1) throw new FetchFailure(KB_MESSAGES.sitemapInvalid, false);
        continue;
      }
      sawSitemap = true;
      for (const loc of locsOf(xml)) {
        if (isIndex) {
          if (!visited.has(loc)) queue.push(loc);
          continue;
        }
        if (seen.has(loc) || !/^https?:\/\//i.test(loc)) continue;
        if (urls.length >= KB_SITEMAP_MAX_URLS) {
          truncated = true;
          break;
        }
        seen.add(loc);
        urls.push(loc);
      }
    }
    if (!sawSitemap) throw new FetchFailure(KB_MESSAGES.sitemapInvalid, false);
    return { urls, truncated: truncated || queue.length > 0 };
  }

  /** The check an address gets when it is saved, the one each fetch makes again (outbound `check`). */
  async function checkAddress(address: string): Promise<void> {
    try {
      await deps.outbound.check(address);
    } catch (error) {
      throw messageOf(error);
    }
  }

  return { fetchPage, readSitemap, checkAddress };
}

export type KbFetcher = ReturnType<typeof createKbFetcher>;

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** A numeric character reference's character; nothing for a number that is no character. */
const characterOf = (code: number) => (code <= 0x10ffff ? String.fromCodePoint(code) : "");

/** The `<loc>` values of a sitemap document, entities decoded, CDATA unwrapped, as clean text. */
export function locsOf(xml: string): string[] {
  const found: string[] = [];
  for (const match of xml.matchAll(/<(?:\w+:)?loc>\s*([\s\S]*?)\s*<\/(?:\w+:)?loc>/gi)) {
    const value = (match[1] ?? "")
      .replace(/^<!\[CDATA\[([\s\S]*)\]\]>$/, "$1")
      .replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ENTITIES[name] ?? "")
      .replace(/&#(\d{1,7});/g, (_, code: string) => characterOf(Number(code)))
      .replace(/&#x([0-9a-f]{1,6});/gi, (_, code: string) => characterOf(Number.parseInt(code, 16)));
    const clean = cleanText(value).trim();
    if (clean) found.push(clean);
  }
  return found;
}

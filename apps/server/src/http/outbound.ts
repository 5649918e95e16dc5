import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import ipaddr from "ipaddr.js";
import { Agent, type Dispatcher, fetch as undiciFetch } from "undici";

/**
 * The one guarded way to reach an address a user gave (the webhook tool, webhooks, knowledge-base pages,
 * integrations, an organisation's model base URL, media by URL). It allows http(s) only (https only in
 * production), refuses every address that is not public unicast (loopback, private, link-local, CGNAT,
 * multicast, unspecified, reserved, and IPv6 forms that embed them: IPv4-mapped or -compatible, NAT64,
 * 6to4, Teredo) and every loopback name, checks the address the socket actually connects to (so a name that
 * resolves differently the second time, DNS rebinding, is still refused), re-checks every redirect, and caps
 * time and response size. Saving an address runs the same check (checkDestination; SIP hosts too).
 *
 * Only the operator may open named private destinations: OUTBOUND_ALLOWLIST (`host:port`, or `host:*`
 * for any port of that host).
 */

export const OUTBOUND_MESSAGES = {
  privateAddress: "This address is on a private network and cannot be reached from Switchboard.",
  scheme: "Only http and https addresses can be reached from Switchboard.",
  httpsOnly: "This address must use https.",
  invalid: "Enter a valid web address.",
  tooManyRedirects: "This address redirected too many times.",
  tooLarge: "The answer from this address was too large.",
  timeout: "This address did not answer in time.",
  unreachable: "This address could not be reached.",
} as const;

export type OutboundRefusalReason = keyof typeof OUTBOUND_MESSAGES;

/** A request the module will not make, or that failed; `message` is fit to show the user. */
export class OutboundError extends Error {
  override name = "OutboundError";
  constructor(readonly reason: OutboundRefusalReason) {
    super(OUTBOUND_MESSAGES[reason]);
  }
}

export type OutboundPolicy = {
  /** `host:port` or `host:*` entries the operator allows even though they are private. */
  allowlist: readonly string[];
  /** Production: plain http is refused. */
  httpsOnly: boolean;
  /** Default cap on one request, connect to end of body (ms). */
  timeoutMs: number;
  /** Default cap on a response body (bytes). */
  maxBytes: number;
};

export type OutboundInit = {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Overrides the policy's time cap for this request. */
  timeoutMs?: number;
  /** Overrides the policy's size cap for this request. */
  maxBytes?: number;
  /** Redirects to follow (each re-checked); 0 answers the 3xx itself. Default 3 for GET, 0 otherwise. */
  maxRedirects?: number;
  /** Cancels the request (with the time cap, whichever comes first). */
  signal?: AbortSignal;
};

/** A response read whole (within the size cap). */
export type OutboundResponse = { status: number; ok: boolean; headers: Headers; url: string; text: string };

/** The deprecated IPv4-compatible IPv6 block (`::a.b.c.d`), which ipaddr.js calls unicast. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");

/** Is this address public unicast? Everything else (and every form that embeds something else) is refused. */
export function isPublicAddress(address: string): boolean {
  const bare = normalizeHost(address);
  if (!ipaddr.isValid(bare)) return false;
  const parsed = ipaddr.process(bare);
  if (parsed.kind() === "ipv6" && parsed.match(IPV4_COMPATIBLE)) return false;
  return parsed.range() === "unicast";
}

/**
 * A host as it is looked up and compared: without IPv6 brackets or a zone, in lower case, and without the
 * trailing dot of a fully qualified name (`LOCALHOST.` is `localhost`, `[::1]` is `::1`).
 */
export function normalizeHost(host: string): string {
  return host
    .trim()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/%.*$/, "")
    .toLowerCase()
    .replace(/\.+$/, "");
}

/** The loopback names of common /etc/hosts files, besides `localhost` itself. */
const LOOPBACK_NAMES = new Set([
  "ip6-localhost",
  "ip6-loopback",
  "localhost4",
  "localhost6",
  "localhost.localdomain",
  "localhost4.localdomain4",
  "localhost6.localdomain6",
]);

/**
 * Names that mean this machine whatever DNS answers: `localhost`, its subdomains (RFC 6761), names that
 * start with it (`localhost.localdomain`, `localhost.example`: resolvers map them to loopback), and the
 * loopback names of /etc/hosts. Takes a normalised host.
 */
export function isLoopbackName(host: string): boolean {
  return (
    host === "localhost" ||
    host.startsWith("localhost.") ||
    host.endsWith(".localhost") ||
    LOOPBACK_NAMES.has(host)
  );
}

/**
 * Is a host refused without asking DNS: a literal address that is not public unicast (in any of the forms
 * URL parsers and resolvers accept), or a loopback name? A host that passes is still resolved, and each
 * address it resolves to is checked, both when it is saved and when a connection is made.
 */
export function isRefusedHost(host: string): boolean {
  const name = normalizeHost(host);
  if (name === "") return true;
  if (ipaddr.isValid(name)) return !isPublicAddress(name);
  return isLoopbackName(name);
}

/** Every address a host stands for: a literal itself, a name what the system resolver answers now. */
export function lookupHost(host: string): Promise<LookupAddress[]> {
  const name = normalizeHost(host);
  if (ipaddr.isValid(name)) {
    const address = ipaddr.process(name);
    return Promise.resolve([{ address: address.toString(), family: address.kind() === "ipv4" ? 4 : 6 }]);
  }
  return new Promise((resolve, reject) =>
    dnsLookup(name, { all: true }, (error, found) => (error ? reject(error) : resolve(found))),
  );
}

/** OUTBOUND_ALLOWLIST: `host:port` or `host:*` entries, matched on the normalised host. */
export function createAllowlist(entries: readonly string[]) {
  const allowed = new Set(
    entries
      .map((entry) => entry.trim())
      .filter(Boolean)
      .map((entry) => {
        const split = entry.lastIndexOf(":");
        return `${normalizeHost(entry.slice(0, split))}:${entry.slice(split + 1).toLowerCase()}`;
      }),
  );
  return {
    allows(host: string, port: number | string): boolean {
      const name = normalizeHost(host);
      return allowed.has(`${name}:${port}`) || allowed.has(`${name}:*`);
    },
  };
}

export type Allowlist = ReturnType<typeof createAllowlist>;

/**
 * The one check of a destination a user names (a web address's host, a SIP host), made when it is saved
 * and again before every connection: allowed when the operator allow-listed it; otherwise refused when it
 * is a private literal or a loopback name, or when any address it resolves to now is not public (unless
 * `addressAllowed` lets that address through). Answers those addresses; none for a name that does not
 * resolve (yet), which the caller decides about. Throws OutboundError("privateAddress").
 */
export async function checkDestination(
  host: string,
  port: number | string,
  allowlist: Allowlist,
  addressAllowed: (address: string) => boolean = () => false,
): Promise<LookupAddress[]> {
  const allowed = allowlist.allows(host, port);
  if (!allowed && isRefusedHost(host)) throw new OutboundError("privateAddress");
  const addresses = await lookupHost(host).catch(() => [] as LookupAddress[]);
  if (allowed) return addresses;
  if (addresses.some((entry) => !isPublicAddress(entry.address) && !addressAllowed(entry.address)))
    throw new OutboundError("privateAddress");
  return addresses;
}

function defaultPort(url: URL): string {
  return url.port || (url.protocol === "https:" ? "443" : "80");
}

/**
 * Resolves like the system does (the host normalised, as checkDestination looks it up), but hands the
 * socket only public addresses: a loopback name, or a name with any private address, is refused.
 */
function guardedLookup(
  hostname: string,
  options: { all?: boolean; family?: number },
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
): void {
  if (isRefusedHost(hostname)) {
    callback(new OutboundError("privateAddress"), []);
    return;
  }
  dnsLookup(normalizeHost(hostname), { all: true, family: options.family ?? 0 }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused || addresses.length === 0) return callback(new OutboundError("privateAddress"), []);
    if (options.all) return callback(null, addresses);
    const first = addresses[0] as LookupAddress;
    callback(null, first.address, first.family);
  });
}

export function createOutbound(policy: OutboundPolicy) {
  const allowlist = createAllowlist(policy.allowlist);
  const isAllowlisted = (url: URL) => allowlist.allows(url.hostname, defaultPort(url));

  const guardedAgent = new Agent({ connect: { lookup: guardedLookup as never } });
  // An allow-listed host is looked up as the allow-list matched it (`LOCALHOST.` as `localhost`).
  const openLookup = (hostname: string, options: object, callback: (...args: never[]) => void) =>
    dnsLookup(normalizeHost(hostname), options, callback as never);
  const openAgent = new Agent({ connect: { lookup: openLookup as never } });

  /** The URL, parsed and checked without touching the network: scheme, literal addresses. */
  function parse(input: string | URL): URL {
    let url: URL;
    try {
      url = new URL(input);
    } catch {
      throw new OutboundError("invalid");
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new OutboundError("scheme");
    if (isAllowlisted(url)) return url;
    if (policy.httpsOnly && url.protocol !== "https:") throw new OutboundError("httpsOnly");
    if (isRefusedHost(url.hostname)) throw new OutboundError("privateAddress");
    return url;
  }

  /**
   * Checks an address before it is saved, so a user learns at once: the scheme, and the destination as
   * every connection checks it (checkDestination). A name that does not resolve (yet) is accepted; each
   * request checks again.
   */
  async function check(input: string): Promise<URL> {
    const url = parse(input);
    await checkDestination(url.hostname, defaultPort(url), allowlist);
    return url;
  }

  /**
   * A streamed request, for callers that read the body as it arrives (a model's answer): the body stops
   * with an OutboundError("tooLarge") past the size cap. Redirects are followed only when re-checked.
   */
  async function request(input: string | URL, init: OutboundInit = {}): Promise<Response> {
    const method = (init.method ?? "GET").toUpperCase();
    const maxBytes = init.maxBytes ?? policy.maxBytes;
    const timeout = AbortSignal.timeout(init.timeoutMs ?? policy.timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    let redirectsLeft = init.maxRedirects ?? (method === "GET" || method === "HEAD" ? 3 : 0);
    // With no redirects allowed, a 3xx is the answer; otherwise each hop is checked like the first.
    const followsRedirects = redirectsLeft > 0;
    let url = parse(input);
    for (;;) {
      let response: Awaited<ReturnType<typeof undiciFetch>>;
      try {
        response = await undiciFetch(url, {
          method,
          headers: init.headers,
          body: init.body,
          redirect: "manual",
          signal,
          dispatcher: (isAllowlisted(url) ? openAgent : guardedAgent) as Dispatcher,
        });
      } catch (error) {
        throw toOutboundError(error, timeout);
      }
      const location = response.headers.get("location");
      const redirect = response.status >= 300 && response.status < 400 && location !== null;
      if (redirect && followsRedirects) {
        await response.body?.cancel().catch(() => {});
        if (redirectsLeft === 0) throw new OutboundError("tooManyRedirects");
        redirectsLeft -= 1;
        url = parse(new URL(location, url));
        continue;
      }
      return capped(response as unknown as Response, maxBytes, timeout);
    }
  }

  /** A request read whole, within the size and time caps. */
  async function fetchText(input: string | URL, init: OutboundInit = {}): Promise<OutboundResponse> {
    const response = await request(input, init);
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw toOutboundError(error, undefined);
    }
    return { status: response.status, ok: response.ok, headers: response.headers, url: response.url, text };
  }

  /** A `fetch` for libraries that take one (the AI SDK), going through the same guard. */
  const guardedFetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : input;
    return request(url, {
      method: init?.method ?? (input instanceof Request ? input.method : "GET"),
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      body: init?.body as string | Uint8Array | undefined,
      maxRedirects: 0,
      timeoutMs: 24 * 60 * 60 * 1000,
      ...(init?.signal ? { signal: init.signal } : {}),
    });
  }) as typeof fetch;

  async function close(): Promise<void> {
    await Promise.all([guardedAgent.close(), openAgent.close()]);
  }

  return { check, request, fetchText, fetch: guardedFetch, close };
}

export type Outbound = ReturnType<typeof createOutbound>;

function toOutboundError(error: unknown, timeout: AbortSignal | undefined): Error {
  if (error instanceof OutboundError) return error;
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof OutboundError) return cause;
  if (timeout?.aborted || (error as { name?: string }).name === "TimeoutError")
    return new OutboundError("timeout");
  if ((error as { name?: string }).name === "AbortError") return error as Error;
  return new OutboundError("unreachable");
}

/** The response with a body that errors once more than `maxBytes` have arrived. */
function capped(response: Response, maxBytes: number, timeout: AbortSignal): Response {
  if (!response.body || [101, 204, 205, 304].includes(response.status)) return response;
  let seen = 0;
  const limit = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > maxBytes) controller.error(new OutboundError("tooLarge"));
      else controller.enqueue(chunk);
    },
  });
  const body = response.body.pipeThrough(limit, { signal: timeout });
  const wrapped = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  Object.defineProperty(wrapped, "url", { value: response.url });
  return wrapped;
}

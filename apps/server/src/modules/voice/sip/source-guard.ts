/**
 * The SIP edge's guards on where messages come from: a token bucket per source address (flood limits:
 * what is over the limit is dropped before it is even parsed) and address matching against allow-lists
 * (single addresses and CIDR ranges, IPv4 and IPv6, IPv4-mapped IPv6 seen as IPv4).
 */
import net from "node:net";
import ipaddr from "ipaddr.js";

export type FloodLimits = {
  /** Tokens added per second (messages a source may send per second on average). */
  rate: number;
  /** Most tokens a source may save up (a burst). */
  burst: number;
};

/**
 * One token bucket per source address. `take` answers false (drop it) when the source has no tokens
 * left; refused requests may cost more than one. The table forgets full buckets when it grows large, so a
 * spoofed-address flood cannot grow it without bound.
 */
export function createFloodLimiter(
  limits: FloodLimits,
  options: { maxSources?: number; now?: () => number } = {},
) {
  const now = options.now ?? (() => performance.now());
  const maxSources = options.maxSources ?? 50_000;
  const buckets = new Map<string, { tokens: number; at: number }>();
  let dropped = 0;

  function sweep(at: number) {
    for (const [address, bucket] of buckets) {
      if (bucket.tokens + ((at - bucket.at) / 1000) * limits.rate >= limits.burst) buckets.delete(address);
    }
    // Still full of busy sources: forget the oldest half rather than grow.
    if (buckets.size > maxSources) {
      let n = buckets.size / 2;
      for (const address of buckets.keys()) {
        if (n-- <= 0) break;
        buckets.delete(address);
      }
    }
  }

  return {
    take(address: string, cost = 1): boolean {
      const at = now();
      let bucket = buckets.get(address);
      if (!bucket) {
        if (buckets.size >= maxSources) sweep(at);
        bucket = { tokens: limits.burst, at };
        buckets.set(address, bucket);
      } else {
        bucket.tokens = Math.min(limits.burst, bucket.tokens + ((at - bucket.at) / 1000) * limits.rate);
        bucket.at = at;
      }
      if (bucket.tokens < cost) {
        dropped++;
        return false;
      }
      bucket.tokens -= cost;
      return true;
    },
    /** Messages dropped so far. */
    get dropped() {
      return dropped;
    },
    get sources() {
      return buckets.size;
    },
  };
}

export type FloodLimiter = ReturnType<typeof createFloodLimiter>;

/** `::ffff:127.0.0.1` -> `127.0.0.1`; other addresses as they are. */
export function plainAddress(address: string): string {
  return address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
}

export function isLoopbackAddress(address: string): boolean {
  const plain = plainAddress(address);
  return plain === "::1" || (net.isIPv4(plain) && plain.startsWith("127."));
}

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** `203.0.113.7`, `203.0.113.0/24`, `2001:db8::/32` -> a normalised entry (`203.0.113.0/24`), or null. */
export function normaliseAllowEntry(value: string): string | null {
  const text = value.trim();
  try {
    if (text.includes("/")) {
      const [address, bits] = ipaddr.parseCIDR(text);
      const max = address.kind() === "ipv4" ? 32 : 128;
      const network =
        address.kind() === "ipv4"
          ? ipaddr.IPv4.networkAddressFromCIDR(text)
          : ipaddr.IPv6.networkAddressFromCIDR(text);
      return bits === max ? ipaddr.process(network.toString()).toString() : `${network.toString()}/${bits}`;
    }
    return ipaddr.process(text).toString();
  } catch {
    return null;
  }
}

function toRange(entry: string): Range | null {
  try {
    if (entry.includes("/")) return ipaddr.parseCIDR(entry) as Range;
    const address = ipaddr.process(entry);
    return [address, address.kind() === "ipv4" ? 32 : 128];
  } catch {
    return null;
  }
}

/**
 * The allow-lists of every organisation, for the edge: does any list (or one organisation's) hold this
 * address? Exact addresses are a set lookup; ranges are checked one by one.
 */
export function createAllowIndex(rows: ReadonlyArray<{ orgId: number; ip: string }>) {
  const exact = new Map<string, Set<number>>();
  const ranges: Array<{ orgId: number; range: Range }> = [];
  for (const row of rows) {
    const range = toRange(row.ip);
    if (!range) continue;
    const full = range[1] === (range[0].kind() === "ipv4" ? 32 : 128);
    if (full) {
      const key = range[0].toNormalizedString();
      const orgs = exact.get(key) ?? new Set<number>();
      orgs.add(row.orgId);
      exact.set(key, orgs);
    } else ranges.push({ orgId: row.orgId, range });
  }

  function parse(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
    try {
      return ipaddr.process(address);
    } catch {
      return null;
    }
  }

  return {
    /** The organisations whose allow-lists hold this address. */
    orgsOf(address: string): Set<number> {
      const parsed = parse(address);
      const found = new Set<number>();
      if (!parsed) return found;
      for (const orgId of exact.get(parsed.toNormalizedString()) ?? []) found.add(orgId);
      for (const { orgId, range } of ranges) {
        if (range[0].kind() === parsed.kind() && parsed.match(range)) found.add(orgId);
      }
      return found;
    },
    /** Is the address on any organisation's list? */
    any(address: string): boolean {
      const parsed = parse(address);
      if (!parsed) return false;
      if (exact.has(parsed.toNormalizedString())) return true;
      return ranges.some(({ range }) => range[0].kind() === parsed.kind() && parsed.match(range));
    },
    get size() {
      return exact.size + ranges.length;
    },
  };
}

export type AllowIndex = ReturnType<typeof createAllowIndex>;

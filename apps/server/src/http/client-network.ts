import ipaddr from "ipaddr.js";

/**
 * How many leading bits of an IPv6 address name one client network. A subscriber is handed at least a /64
 * (RFC 6177) and picks addresses in it freely, so counting exact IPv6 addresses would let one client make
 * up a fresh address for every request.
 */
export const IPV6_CLIENT_PREFIX = 64;

/**
 * The key per-network limits count a client by: an IPv4 address as it is (an IPv4-mapped IPv6 address
 * as its IPv4 address), an IPv6 address as its /64 (`2001:db8:1:2::/64`). Anything that is not an address
 * is its own key.
 */
export function clientNetworkKey(ip: string): string {
  const bare = ip
    .trim()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/%.*$/, "");
  if (!ipaddr.isValid(bare)) return ip;
  const address = ipaddr.process(bare);
  if (address.kind() === "ipv4") return address.toString();
  const parts = (address as ipaddr.IPv6).parts.map((part, index) =>
    index < IPV6_CLIENT_PREFIX / 16 ? part : 0,
  );
  return `${new ipaddr.IPv6(parts).toString()}/${IPV6_CLIENT_PREFIX}`;
}

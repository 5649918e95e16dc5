import { describe, expect, it } from "vitest";
import { clientNetworkKey } from "./client-network.ts";

describe("clientNetworkKey", () => {
  it.each([
    ["203.0.113.9", "203.0.113.9"],
    ["::ffff:203.0.113.9", "203.0.113.9"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:DB8:1:2::ffff", "2001:db8:1:2::/64"],
    ["2001:db8:1:3::1", "2001:db8:1:3::/64"],
    ["fe80::1%eth0", "fe80::/64"],
    ["::1", "::/64"],
    ["not an address", "not an address"],
  ])("%s counts as %s", (ip, key) => {
    expect(clientNetworkKey(ip)).toBe(key);
  });
});

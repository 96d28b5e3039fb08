import ipaddr from "ipaddr.js";

// IPv6 global unicast is 2000::/3; anything else the registry leaves "unicast" (the deprecated IPv4-compatible
// ::a.b.c.d, which URL parsing turns [::127.0.0.1] into, or unassigned space) is refused too.
const globalUnicast = ipaddr.parseCIDR("2000::/3");

/**
 * True when `address` (an IP literal) is anything but public unicast: loopback, private, link-local,
 * carrier-grade NAT, multicast, broadcast, reserved, documentation, benchmarking, and every IPv6 range that
 * embeds or translates an IPv4 address (::ffff:0:0/96, 64:ff9b::/96, 64:ff9b:1::/48, 6to4, Teredo,
 * ::ffff:0:0:0/96). The special-purpose ranges come from ipaddr.js, which follows the IANA registries; an IPv4
 * address mapped into IPv6 is judged as the IPv4 address it is. Anything that does not parse is forbidden.
 */
export const isForbiddenAddress = (address: string): boolean => {
  const literal = address.replace(/^\[(.*)\]$/, "$1");
  if (!ipaddr.isValid(literal)) return true;
  let parsed = ipaddr.parse(literal);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.range() !== "unicast") return true;
  return parsed.kind() === "ipv6" && !(parsed as ipaddr.IPv6).match(globalUnicast as [ipaddr.IPv6, number]);
};

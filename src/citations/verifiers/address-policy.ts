import { BlockList, isIP } from "node:net";

/** Addresses a URL check must never reach unless allow-listed: loopback, private, link-local, metadata... */
const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  blocked.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  // Unspecified, loopback and the deprecated IPv4-compatible ::a.b.c.d (URL parsing turns [::127.0.0.1] into ::7f00:1).
  ["::", 96],
  ["::1", 128],
  // 6to4 embeds an IPv4 address (2002:7f00:1::): refused rather than trusted to route elsewhere.
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["64:ff9b::", 96],
] as const)
  blocked.addSubnet(network, prefix, "ipv6");

const mappedIpv4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** True when `address` (an IP literal) is loopback, private, link-local, multicast, reserved or metadata. */
export const isForbiddenAddress = (address: string): boolean => {
  const mapped = mappedIpv4.exec(address)?.[1];
  if (mapped !== undefined) return blocked.check(mapped, "ipv4");
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family === 6) return blocked.check(address, "ipv6");
  return true;
};

import dns from 'node:dns/promises';
import net from 'node:net';

/**
 * Where a webhook may go (issue 23, docs/webhooks.md "SSRF"). In production a URL must be https and every
 * address its host resolves to must be public: not loopback, private, link-local, site-local, CGNAT,
 * unspecified, multicast/reserved, documentation or benchmarking, nor a cloud metadata address, and no IPv6
 * form that carries an IPv4 address inside it (mapped, translated, IPv4-compatible, NAT64, 6to4, Teredo:
 * refused whatever the IPv4 address, public or not, since where such an address leads depends on gateways
 * this server does not know; issue 31). Outside production http and loopback are allowed (tests, a local
 * receiver). Checked when an endpoint is stored and again before every delivery, which then connects to the
 * very address checked (lib/webhooks/send.ts), so DNS rebinding cannot switch it in between.
 *
 * Node's BlockList reads every spelling of an address (`::ffff:a00:1`, `0:0:0:0:0:ffff:10.0.0.1`, upper
 * case, leading zeros). One list per family: a BlockList compares an IPv4 address with its IPv6 rules as
 * the mapped ::ffff:a.b.c.d, which the IPv6 list refuses, so one list would refuse every IPv4 address.
 */
const BLOCKED_V4 = new net.BlockList();
const BLOCKED_V6 = new net.BlockList();
for (const [addr, bits] of [
  ['0.0.0.0', 8], // "this network", 0.0.0.0
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, 169.254.169.254 metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  BLOCKED_V4.addSubnet(addr, bits, 'ipv4');
for (const [addr, bits] of [
  ['::', 96], // unspecified (::), loopback (::1) and the IPv4-compatible ::a.b.c.d
  ['::ffff:0:0', 96], // IPv4-mapped ::ffff:a.b.c.d
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT)
  ['64:ff9b::', 96], // NAT64, well-known prefix
  ['64:ff9b:1::', 48], // NAT64, local use
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo (an IPv4 server and client inside)
  ['2001:2::', 48], // benchmarking
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (an IPv4 address in bits 16–47)
  ['3fff::', 20], // documentation (RFC 9637)
  ['fc00::', 7], // unique local, fd00:ec2::254 metadata
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still routed inside some networks)
  ['ff00::', 8], // multicast
] as const)
  BLOCKED_V6.addSubnet(addr, bits, 'ipv6');

/** True when an address must never receive a webhook in production (anything that is not an IP address too). */
export function isBlockedAddress(addr: string): boolean {
  const bare = addr.replace(/%.*$/, ''); // a zone (fe80::1%eth0) says nothing of the address
  const family = net.isIP(bare);
  if (family === 4) return BLOCKED_V4.check(bare, 'ipv4');
  if (family === 6) return BLOCKED_V6.check(bare, 'ipv6');
  return true;
}

/** Why a URL is refused, as a message key (server i18n `webhooks.*`), or null when it may be used. */
export type UrlRefusal = 'webhooks.urlInvalid' | 'webhooks.httpsOnly' | 'webhooks.unresolvable' | 'webhooks.privateAddress';

export interface CheckedTarget {
  url: URL;
  /** The addresses checked, in resolver order; a delivery connects to the first. */
  addresses: Array<{ address: string; family: 4 | 6 }>;
}

export type Lookup = (host: string) => Promise<Array<{ address: string; family: number }>>;
const systemLookup: Lookup = (host) => dns.lookup(host, { all: true, verbatim: true });

/**
 * Parses, resolves and checks a webhook URL. `production` applies the rules above; otherwise any http(s)
 * URL whose host resolves is accepted. Never throws: answers the refusal.
 */
export async function checkTarget(raw: string, production: boolean, lookup: Lookup = systemLookup): Promise<CheckedTarget | { refused: UrlRefusal }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { refused: 'webhooks.urlInvalid' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { refused: 'webhooks.urlInvalid' };
  if (url.username || url.password || !url.hostname) return { refused: 'webhooks.urlInvalid' };
  if (production && url.protocol !== 'https:') return { refused: 'webhooks.httpsOnly' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let found: Array<{ address: string; family: number }>;
  try {
    found = net.isIP(host) ? [{ address: host, family: net.isIP(host) }] : await lookup(host);
  } catch {
    return { refused: 'webhooks.unresolvable' };
  }
  if (!found.length) return { refused: 'webhooks.unresolvable' };
  if (production && found.some((a) => isBlockedAddress(a.address))) return { refused: 'webhooks.privateAddress' };
  return { url, addresses: found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 })) };
}

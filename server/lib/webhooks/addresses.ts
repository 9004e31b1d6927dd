import dns from 'node:dns/promises';
import net from 'node:net';

/**
 * Where a webhook may go (issue 23, docs/webhooks.md "SSRF"). In production a URL must be https and every
 * address its host resolves to must be public: not loopback, private, link-local, CGNAT, unspecified,
 * multicast/reserved or a cloud metadata address. Outside production http and loopback are allowed (tests,
 * a local receiver). Checked when an endpoint is stored and again before every delivery, which then connects
 * to the very address checked (lib/webhooks/send.ts), so DNS rebinding cannot switch it in between.
 */
const BLOCKED = new net.BlockList();
for (const [addr, bits] of [
  ['0.0.0.0', 8], // "this network", 0.0.0.0
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, 169.254.169.254 metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  BLOCKED.addSubnet(addr, bits, 'ipv4');
for (const [addr, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local, fd00:ec2::254 metadata
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['64:ff9b::', 96], // NAT64 (an embedded IPv4 address: checked below too)
] as const)
  BLOCKED.addSubnet(addr, bits, 'ipv6');

/** The IPv4 address inside an IPv4-mapped or NAT64 IPv6 address (`::ffff:10.0.0.1`), if any. */
function embeddedV4(addr: string): string | null {
  const m = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(addr);
  if (m) return m[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(addr);
  if (!hex) return null;
  const [a, b] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
  return `${a >> 8}.${a & 255}.${b >> 8}.${b & 255}`;
}

/** True when an address must never receive a webhook in production. */
export function isBlockedAddress(addr: string): boolean {
  const family = net.isIP(addr);
  if (family === 4) return BLOCKED.check(addr, 'ipv4');
  if (family !== 6) return true;
  const v4 = embeddedV4(addr);
  if (v4) return BLOCKED.check(v4, 'ipv4');
  return BLOCKED.check(addr, 'ipv6');
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

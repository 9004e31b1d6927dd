import { describe, expect, it } from 'vitest';
import { checkTarget, isBlockedAddress } from './addresses.js';

/** Every address a webhook may not reach in production, with the reason, and public ones that stay allowed (issue 23, issue 31). */
const REFUSED: Array<[string, string]> = [
  // IPv4: private, local, reserved
  ['0.0.0.0', 'this network'],
  ['10.0.0.1', 'private'],
  ['100.64.0.1', 'CGNAT'],
  ['127.0.0.1', 'loopback'],
  ['169.254.169.254', 'link-local, metadata'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.0.0.8', 'IETF assignments'],
  ['192.168.1.1', 'private'],
  ['224.0.0.1', 'multicast'],
  ['255.255.255.255', 'broadcast'],
  // IPv4: documentation and benchmarking
  ['192.0.2.1', 'TEST-NET-1'],
  ['198.51.100.7', 'TEST-NET-2'],
  ['203.0.113.200', 'TEST-NET-3'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.254', 'benchmarking'],
  ['192.88.99.1', '6to4 relay'],
  // IPv6: local, reserved
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback, long form'],
  ['fc00::1', 'unique local'],
  ['fd00:ec2::254', 'metadata'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local with a zone'],
  ['fec0::1', 'site-local'],
  ['feff:ffff::1', 'site-local, top of the range'],
  ['ff02::1', 'multicast'],
  ['100::1', 'discard-only'],
  // IPv6: documentation and benchmarking
  ['2001:db8::1', 'documentation'],
  ['2001:0DB8:ffff::1', 'documentation, upper case'],
  ['3fff::1', 'documentation (RFC 9637)'],
  ['2001:2::1', 'benchmarking'],
  // IPv6 forms carrying an IPv4 address, private or public, in every spelling
  ['::ffff:10.0.0.1', 'mapped'],
  ['::ffff:a00:1', 'mapped, hex'],
  ['::FFFF:A00:1', 'mapped, upper case'],
  ['0:0:0:0:0:ffff:0a00:0001', 'mapped, long form'],
  ['::ffff:7f00:1', 'mapped loopback'],
  ['::ffff:8.8.8.8', 'mapped public'],
  ['::ffff:808:808', 'mapped public, hex'],
  ['::ffff:0:8.8.8.8', 'IPv4-translated'],
  ['::10.0.0.1', 'IPv4-compatible'],
  ['::a00:1', 'IPv4-compatible, hex'],
  ['::8.8.8.8', 'IPv4-compatible public'],
  ['64:ff9b::a00:1', 'NAT64'],
  ['64:ff9b::8.8.8.8', 'NAT64 public'],
  ['64:ff9b:0:0:0:0:808:808', 'NAT64, long form'],
  ['64:ff9b:1::a00:1', 'NAT64 local use'],
  ['64:ff9b:1:ffff::1', 'NAT64 local use, elsewhere in the /48'],
  ['2002:a00:1::1', '6to4 of 10.0.0.1'],
  ['2002:808:808::1', '6to4 of 8.8.8.8'],
  ['2002::', '6to4, bare'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
  // not an address at all
  ['example.com', 'a name'],
  ['', 'empty'],
  ['1.2.3', 'short'],
];
const ALLOWED = [
  '8.8.8.8',
  '93.184.216.34',
  '1.1.1.1',
  '198.20.0.1',
  '192.0.3.1',
  '203.0.114.1',
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '2a00:1450:4001::1',
];

describe('webhook addresses in production (issue 31)', () => {
  it.each(REFUSED)('refuses %s (%s)', (addr) => {
    expect(isBlockedAddress(addr)).toBe(true);
  });

  it.each(ALLOWED)('allows the public address %s', (addr) => {
    expect(isBlockedAddress(addr)).toBe(false);
  });

  it('refuses them in URLs, however the host is spelled, and when a name resolves to one', async () => {
    const noLookup = async () => {
      throw new Error('no DNS here');
    };
    for (const url of [
      'https://[::ffff:10.0.0.1]/x',
      'https://[0:0:0:0:0:ffff:a00:1]/x',
      'https://[::ffff:808:808]/x',
      'https://[64:ff9b::8.8.8.8]/x',
      'https://[2002:808:808::1]/x',
      'https://[::a00:1]/x',
      'https://[fec0::1]/x',
      'https://[2001:db8::1]/x',
      'https://192.0.2.1/x',
      'https://198.51.100.1/x',
      'https://203.0.113.1/x',
      'https://198.18.0.1/x',
      'https://0xc0.0.2.1/x', // 192.0.2.1, as the URL parser reads it
      'https://3221225985/x', // the same, as one number
    ]) {
      expect(await checkTarget(url, true, noLookup), url).toEqual({ refused: 'webhooks.privateAddress' });
    }
    // a name with one public and one mapped address: refused
    const mixed = async () => [
      { address: '8.8.8.8', family: 4 },
      { address: '::ffff:a00:1', family: 6 },
    ];
    expect(await checkTarget('https://hooks.example.com/x', true, mixed)).toEqual({ refused: 'webhooks.privateAddress' });
    const ok = await checkTarget('https://hooks.example.com/x', true, async () => [{ address: '2606:4700:4700::1111', family: 6 }]);
    expect('refused' in ok).toBe(false);
    // outside production a loopback receiver stays allowed
    expect('refused' in (await checkTarget('http://127.0.0.1:8080/x', false, noLookup))).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { blockedAddressReason, parseIp } from './ip-ranges.js';

describe('blockedAddressReason', () => {
  it.each([
    ['127.0.0.1', /loopback/],
    ['127.255.0.9', /loopback/],
    ['10.1.2.3', /private/],
    ['172.16.0.1', /private/],
    ['172.31.255.255', /private/],
    ['192.168.1.1', /private/],
    ['100.64.0.1', /CGNAT/],
    ['100.127.255.254', /CGNAT/],
    ['169.254.169.254', /link-local/],
    ['224.0.0.1', /multicast/],
    ['239.255.255.250', /multicast/],
    ['0.0.0.0', /unspecified/],
    ['0.1.2.3', /unspecified/],
    ['255.255.255.255', /broadcast/],
    ['240.0.0.1', /reserved/],
    ['192.0.2.10', /documentation/],
    ['198.51.100.7', /documentation/],
    ['203.0.113.200', /documentation/],
    ['198.18.0.1', /benchmarking/],
    ['::1', /loopback/],
    ['::', /unspecified/],
    ['[::1]', /loopback/],
    ['fc00::1', /unique local/],
    ['fd12:3456::1', /unique local/],
    ['fe80::1', /link-local/],
    ['fe80::1%eth0', /link-local/],
    ['febf::1', /link-local/],
    ['ff02::1', /multicast/],
    ['2001:db8::1', /documentation/],
    ['::ffff:127.0.0.1', /IPv4-mapped.*loopback/],
    ['::ffff:7f00:1', /IPv4-mapped.*loopback/],
    ['::ffff:10.0.0.1', /IPv4-mapped.*private/],
    ['::ffff:a9fe:a9fe', /IPv4-mapped.*link-local/],
    ['0:0:0:0:0:ffff:c0a8:0101', /IPv4-mapped.*private/],
    ['::127.0.0.1', /IPv4-compatible/],
    ['::8.8.8.8', /IPv4-compatible/],
    ['64:ff9b::127.0.0.1', /NAT64.*loopback/],
    ['64:ff9b::a00:1', /NAT64.*private/],
    ['64:ff9b:1::1', /local-use NAT64/],
    ['2002:c0a8:0101::1', /6to4.*private/],
    ['2001::1', /Teredo/],
  ])('refuses %s', (address, reason) => {
    expect(blockedAddressReason(address)).toMatch(reason);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.15.255.255',
    '172.32.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '192.167.255.255',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('accepts the public address %s', (address) => {
    expect(blockedAddressReason(address)).toBeUndefined();
  });

  it.each(['', 'localhost', '1.2.3', '1.2.3.4.5', '256.1.1.1', '01.2.3.4', '1::2::3', 'g::1'])(
    'refuses %j, which is not an IP address',
    (text) => {
      expect(parseIp(text)).toBeUndefined();
      expect(blockedAddressReason(text)).toMatch(/not an IP address/);
    },
  );

  it('parses full, compressed and dotted IPv6 forms to the same bytes', () => {
    const full = parseIp('0:0:0:0:0:ffff:7f00:0001');
    expect(parseIp('::ffff:127.0.0.1')).toEqual(full);
    expect(parseIp('::FFFF:7F00:1')).toEqual(full);
    expect(parseIp('1:2:3:4:5:6:7:8')).toHaveLength(16);
    expect(parseIp('1:2:3:4:5:6:7')).toBeUndefined();
  });
});

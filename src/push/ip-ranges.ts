/**
 * Which IP addresses a webhook may not reach: loopback, private, shared (CGNAT), link-local,
 * multicast, unspecified, broadcast, documentation, benchmarking and reserved ranges of IPv4 and
 * IPv6, plus IPv6 forms that embed an IPv4 address (mapped, compatible, NAT64, 6to4), judged by
 * the address they embed. Registries: IANA IPv4/IPv6 Special-Purpose Address Registries
 * (RFC 6890 and updates). Pure functions over bytes; runtime-neutral.
 */

type Range = readonly [network: string, prefix: number, reason: string];

// prettier-ignore
const IPV4: readonly Range[] = [
  ['0.0.0.0', 8, 'unspecified ("this network", 0.0.0.0/8)'],
  ['10.0.0.0', 8, 'private (10.0.0.0/8)'],
  ['100.64.0.0', 10, 'shared address space (CGNAT, 100.64.0.0/10)'],
  ['127.0.0.0', 8, 'loopback (127.0.0.0/8)'],
  ['169.254.0.0', 16, 'link-local (169.254.0.0/16, cloud metadata)'],
  ['172.16.0.0', 12, 'private (172.16.0.0/12)'],
  ['192.0.0.0', 24, 'IETF protocol assignments (192.0.0.0/24)'],
  ['192.0.2.0', 24, 'documentation (192.0.2.0/24)'],
  ['192.88.99.0', 24, 'reserved 6to4 relay anycast (192.88.99.0/24)'],
  ['192.168.0.0', 16, 'private (192.168.0.0/16)'],
  ['198.18.0.0', 15, 'benchmarking (198.18.0.0/15)'],
  ['198.51.100.0', 24, 'documentation (198.51.100.0/24)'],
  ['203.0.113.0', 24, 'documentation (203.0.113.0/24)'],
  ['224.0.0.0', 4, 'multicast (224.0.0.0/4)'],
  ['255.255.255.255', 32, 'broadcast (255.255.255.255)'],
  ['240.0.0.0', 4, 'reserved (240.0.0.0/4)'],
];

// prettier-ignore
const IPV6: readonly Range[] = [
  ['::', 128, 'unspecified (::)'],
  ['::1', 128, 'loopback (::1)'],
  ['::ffff:0:0:0', 96, 'IPv4-translated (::ffff:0:0:0/96)'],
  ['64:ff9b:1::', 48, 'local-use NAT64 (64:ff9b:1::/48)'],
  ['100::', 64, 'discard-only (100::/64)'],
  ['2001::', 32, 'Teredo tunnel (2001::/32)'],
  ['2001:2::', 48, 'benchmarking (2001:2::/48)'],
  ['2001:db8::', 32, 'documentation (2001:db8::/32)'],
  ['3fff::', 20, 'documentation (3fff::/20)'],
  ['fc00::', 7, 'unique local (fc00::/7)'],
  ['fe80::', 10, 'link-local (fe80::/10)'],
  ['fec0::', 10, 'site-local (fec0::/10)'],
  ['ff00::', 8, 'multicast (ff00::/8)'],
];

interface Parsed {
  readonly bytes: Uint8Array;
  readonly prefix: number;
  readonly reason: string;
}

const V4 = IPV4.map(parseRange);
const V6 = IPV6.map(parseRange);

/**
 * Why a webhook may not connect to `address` (an IPv4 or IPv6 literal, brackets and zone ids
 * allowed), or `undefined` when it is a public address. Unparseable input is refused.
 */
export function blockedAddressReason(address: string): string | undefined {
  const bytes = parseIp(address);
  if (!bytes) return `not an IP address (${address})`;
  if (bytes.length === 4) return match(bytes, V4);
  const embedded = embeddedIpv4(bytes);
  if (embedded) {
    const inner = match(embedded.v4, V4);
    if (inner || embedded.always) return `${embedded.form} of ${inner ?? formatV4(embedded.v4)}`;
    return undefined;
  }
  return match(bytes, V6);
}

/** The IPv4 address an IPv6 address carries, and the form it takes (mapped, NAT64, ...). */
function embeddedIpv4(
  b: Uint8Array,
): { v4: Uint8Array; form: string; always: boolean } | undefined {
  const zeros = (from: number, to: number) => b.subarray(from, to).every((x) => x === 0);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) {
    return { v4: b.slice(12), form: 'IPv4-mapped IPv6 address', always: false };
  }
  // ::a.b.c.d (deprecated, never routed); `::` and `::1` are judged as themselves.
  if (zeros(0, 12) && !(zeros(12, 15) && (b[15] ?? 0) <= 1)) {
    return { v4: b.slice(12), form: 'IPv4-compatible IPv6 address', always: true };
  }
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) {
    return { v4: b.slice(12), form: 'NAT64 (64:ff9b::/96) address', always: false };
  }
  if (b[0] === 0x20 && b[1] === 0x02) {
    return { v4: b.slice(2, 6), form: '6to4 (2002::/16) address', always: false };
  }
  return undefined;
}

function match(bytes: Uint8Array, ranges: readonly Parsed[]): string | undefined {
  return ranges.find((r) => inPrefix(bytes, r.bytes, r.prefix))?.reason;
}

function inPrefix(bytes: Uint8Array, network: Uint8Array, prefix: number): boolean {
  const whole = prefix >> 3;
  for (let i = 0; i < whole; i++) if (bytes[i] !== network[i]) return false;
  const rest = prefix & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((bytes[whole] ?? 0) & mask) === ((network[whole] ?? 0) & mask);
}

function parseRange([network, prefix, reason]: Range): Parsed {
  const bytes = parseIp(network);
  if (!bytes) throw new Error(`bad range ${network}`);
  return { bytes, prefix, reason };
}

/** 4 or 16 bytes of an IP literal, or undefined. Accepts `[v6]`, zone ids and dotted tails. */
export function parseIp(input: string): Uint8Array | undefined {
  let text = input.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  return text.includes(':') ? parseV6(text) : parseV4(text);
}

function parseV4(text: string): Uint8Array | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const part = parts[i] ?? '';
    if (!/^(0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return undefined;
    out[i] = Number(part);
  }
  return out;
}

function parseV6(text: string): Uint8Array | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (half: string | undefined): number[] | undefined => {
    if (!half) return [];
    const out: number[] = [];
    const parts = half.split(':');
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] ?? '';
      if (i === parts.length - 1 && part.includes('.')) {
        const v4 = parseV4(part);
        if (!v4) return undefined;
        out.push(((v4[0] ?? 0) << 8) | (v4[1] ?? 0), ((v4[2] ?? 0) << 8) | (v4[3] ?? 0));
      } else if (/^[0-9a-f]{1,4}$/i.test(part)) {
        out.push(parseInt(part, 16));
      } else {
        return undefined;
      }
    }
    return out;
  };
  const head = groups(halves[0]);
  const tail = groups(halves[1]);
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const all = [...head, ...new Array<number>(Math.max(0, missing)).fill(0), ...tail];
  const out = new Uint8Array(16);
  all.forEach((g, i) => {
    out[i * 2] = g >> 8;
    out[i * 2 + 1] = g & 0xff;
  });
  return out;
}

function formatV4(b: Uint8Array): string {
  return Array.from(b).join('.');
}

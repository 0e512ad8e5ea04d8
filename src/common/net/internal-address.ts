import { BlockList, isIP } from 'node:net';

/**
 * Addresses a server must not be made to call on someone else's behalf: loopback, private (RFC 1918, ULA),
 * link-local (cloud metadata lives at 169.254.169.254), site-local, unspecified, multicast, CGNAT, benchmark and
 * reserved ranges, and local-use NAT64 (RFC 8215: a translator inside the network, to anywhere behind it). IPv6
 * forms that carry an IPv4 address (mapped, SIIT, compatible, NAT64, 6to4) are judged by that address.
 */
const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  INTERNAL.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['100::', 64],
  ['64:ff9b:1::', 48],
] as const)
  INTERNAL.addSubnet(network, prefix, 'ipv6');

/** An IPv6 address as eight 16-bit groups (any valid spelling, a trailing dotted quad included). */
export function ipv6Groups(address: string): number[] {
  let text = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number);
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((group) => parseInt(group, 16));
}

/** The IPv4 address an IPv6 address carries (mapped, SIIT, compatible, NAT64, 6to4), if any. */
export function embeddedIpv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  const quad = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zero = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  if (zero(0, 5) && g[5] === 0xffff) return quad(g[6], g[7]); // ::ffff:a.b.c.d
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return quad(g[6], g[7]); // ::ffff:0:a.b.c.d (SIIT, RFC 7915)
  if (zero(0, 6) && (g[6] !== 0 || g[7] > 1)) return quad(g[6], g[7]); // ::a.b.c.d (deprecated)
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return quad(g[6], g[7]); // NAT64
  if (g[0] === 0x2002) return quad(g[1], g[2]); // 6to4
  return undefined;
}

/** Whether an IP address (v4 or v6, any spelling node accepts) is inside a private or special range. */
export function isInternalAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) return INTERNAL.check(bare, 'ipv4');
  if (family !== 6) return true; // not an address at all: never called
  const v4 = embeddedIpv4(bare);
  if (v4 !== undefined) return INTERNAL.check(v4, 'ipv4');
  return INTERNAL.check(bare, 'ipv6');
}

import { networkInterfaces, NetworkInterfaceInfo } from 'node:os';

type Interfaces = NodeJS.Dict<NetworkInterfaceInfo[]>;

const WILDCARDS = new Set(['0.0.0.0', '::', '']);

function hostPart(address: string): string {
  return address.includes(':') ? `[${address}]` : address;
}

/**
 * The URLs a client can reach a server on: its bound host, or for a wildcard bind every address of every
 * interface (loopback first; IPv6 only when bound to `::`, and never link-local, which needs a zone).
 */
export function serverUrls(
  host: string,
  port: number,
  interfaces: Interfaces = networkInterfaces(),
): string[] {
  if (!WILDCARDS.has(host)) return [`http://${hostPart(host)}:${port}`];
  const addresses = Object.values(interfaces)
    .flatMap((list) => list ?? [])
    .filter((info) => info.family === 'IPv4' || (host === '::' && !info.address.startsWith('fe80:')))
    .sort((a, b) => Number(b.internal) - Number(a.internal));
  return [...new Set(addresses.map((info) => `http://${hostPart(info.address)}:${port}`))];
}

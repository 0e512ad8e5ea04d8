import type { NetworkInterfaceInfo } from 'node:os';
import { serverUrls } from './server-urls';

const iface = (address: string, family: 'IPv4' | 'IPv6', internal = false) =>
  ({ address, family, internal, netmask: '', mac: '', cidr: null, scopeid: 0 }) as NetworkInterfaceInfo;

const interfaces = {
  eth0: [iface('192.168.1.20', 'IPv4'), iface('fe80::1', 'IPv6'), iface('2001:db8::20', 'IPv6')],
  lo: [iface('127.0.0.1', 'IPv4', true), iface('::1', 'IPv6', true)],
};

describe('serverUrls', () => {
  it('gives the bound host when it is a specific address', () => {
    expect(serverUrls('127.0.0.1', 4096, interfaces)).toEqual(['http://127.0.0.1:4096']);
    expect(serverUrls('::1', 4096, interfaces)).toEqual(['http://[::1]:4096']);
  });

  it('lists every IPv4 address, loopback first, for 0.0.0.0', () => {
    expect(serverUrls('0.0.0.0', 80, interfaces)).toEqual(['http://127.0.0.1:80', 'http://192.168.1.20:80']);
  });

  it('adds IPv6 addresses but not link-local ones for ::', () => {
    expect(serverUrls('::', 80, interfaces)).toEqual([
      'http://127.0.0.1:80',
      'http://[::1]:80',
      'http://192.168.1.20:80',
      'http://[2001:db8::20]:80',
    ]);
  });
});

import { embeddedIpv4, isInternalAddress } from './internal-address';

/** IPv4 addresses from every internal range, and the IPv6 spellings that carry them. */
const INTERNAL_V4 = [
  '0.0.0.0',
  '10.0.0.1',
  '10.255.255.254',
  '100.64.0.1',
  '127.0.0.1',
  '127.1.2.3',
  '169.254.169.254',
  '172.16.0.1',
  '172.31.255.1',
  '192.0.0.8',
  '192.168.1.1',
  '198.18.0.1',
  '224.0.0.1',
  '240.0.0.1',
  '255.255.255.255',
];

const CARRIERS: Array<[string, (v4: string) => string]> = [
  ['IPv4-mapped (::ffff:0:0/96)', (v4) => `::ffff:${v4}`],
  ['SIIT, IPv4-translated (::ffff:0:0:0/96)', (v4) => `::ffff:0:${v4}`],
  ['IPv4-compatible (deprecated)', (v4) => `::${v4}`],
  ['NAT64 well-known (64:ff9b::/96)', (v4) => `64:ff9b::${v4}`],
];

describe('isInternalAddress', () => {
  it.each(INTERNAL_V4)('%s is internal', (address) => {
    expect(isInternalAddress(address)).toBe(true);
  });

  describe.each(CARRIERS)('%s forms are judged by the IPv4 address they carry', (_form, spell) => {
    it.each(INTERNAL_V4.filter((v4) => v4 !== '0.0.0.0'))('%s inside', (v4) => {
      expect(isInternalAddress(spell(v4))).toBe(true);
      expect(isInternalAddress(`[${spell(v4)}]`)).toBe(true);
    });
    it('a public address inside stays public', () => {
      expect(isInternalAddress(spell('93.184.216.34'))).toBe(false);
    });
  });

  it.each([
    ['loopback', '::1'],
    ['unspecified', '::'],
    ['unique-local', 'fd00::1'],
    ['unique-local, other half', 'fc00::1'],
    ['link-local', 'fe80::1'],
    ['link-local with a zone', 'fe80::1%eth0'],
    ['site-local (fec0::/10, deprecated)', 'fec0::1'],
    ['site-local, top of the range', 'feff::1'],
    ['multicast', 'ff02::1'],
    ['discard-only', '100::1'],
    ['local-use NAT64 (64:ff9b:1::/48, RFC 8215)', '64:ff9b:1::1'],
    ['local-use NAT64 carrying a public address', '64:ff9b:1:5db8:d8:2200::'],
    ['local-use NAT64, end of the range', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff'],
    ['6to4 of loopback', '2002:7f00:1::1'],
    ['6to4 of a private network', '2002:a00:1::1'],
  ])('%s (%s) is internal', (_what, address) => {
    expect(isInternalAddress(address)).toBe(true);
  });

  it.each([
    '93.184.216.34',
    '1.1.1.1',
    '8.8.8.8',
    '172.32.0.1',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    // NAT64's well-known prefix next to the local-use one is public when it carries a public address
    '64:ff9b::808:808',
    '64:ff9b:2::1',
  ])('%s is public', (address) => {
    expect(isInternalAddress(address)).toBe(false);
  });

  it('anything that is not an address is never called', () => {
    expect(isInternalAddress('localhost')).toBe(true);
    expect(isInternalAddress('')).toBe(true);
  });
});

describe('embeddedIpv4', () => {
  it.each([
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['::ffff:7f00:1', '127.0.0.1'],
    ['::ffff:0:127.0.0.1', '127.0.0.1'],
    ['::ffff:0:a00:1', '10.0.0.1'],
    ['::127.0.0.1', '127.0.0.1'],
    ['64:ff9b::127.0.0.1', '127.0.0.1'],
    ['64:ff9b::a9fe:a9fe', '169.254.169.254'],
    ['2002:a9fe:a9fe::', '169.254.169.254'],
  ])('%s carries %s', (address, v4) => {
    expect(embeddedIpv4(address)).toBe(v4);
  });

  it('plain IPv6 addresses carry none', () => {
    expect(embeddedIpv4('2606:4700:4700::1111')).toBeUndefined();
    expect(embeddedIpv4('::1')).toBeUndefined();
  });
});

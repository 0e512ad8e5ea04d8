import { lookup } from 'node:dns/promises';
import { BlockList, isIP, LookupFunction } from 'node:net';
import { buildConnector } from 'undici';
import { TaggedError } from '../errors';
import { isInternalAddress } from './internal-address';

/** A host this server will not call for a caller: it is, or resolves to, an internal address. */
export class InternalAddressError extends TaggedError {
  readonly status = 502;
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(
      host === address
        ? `${host} is an internal address, which this server does not call`
        : `${host} resolves to ${address}, an internal address, which this server does not call`,
    );
  }
}

/** What the operator lets callers reach inside the network: host names, addresses and CIDR ranges. */
export interface AllowList {
  hosts: ReadonlySet<string>;
  networks: BlockList;
  /** As written, for messages. */
  text: string;
}

/** `127.0.0.1,10.1.2.0/24,llm.internal` → an allow list; `fail` names the entry at fault. */
export function parseAllowList(text: string | undefined, fail: (problem: string) => never): AllowList {
  const hosts = new Set<string>();
  const networks = new BlockList();
  for (const entry of (text ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean)) {
    const [address, prefix, extra] = entry.replace(/^\[|\]$/g, '').split('/');
    const family = isIP(address);
    if (family === 0) {
      if (
        prefix !== undefined ||
        !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(entry)
      )
        fail(`has "${entry}", which is neither a host name, an address nor a CIDR range`);
      hosts.add(entry);
      continue;
    }
    const type = family === 4 ? 'ipv4' : 'ipv6';
    const bits = prefix === undefined ? (family === 4 ? 32 : 128) : Number(prefix);
    if (extra !== undefined || !Number.isInteger(bits) || bits < 0 || bits > (family === 4 ? 32 : 128))
      fail(`has "${entry}", whose prefix length is not valid`);
    networks.addSubnet(address, bits, type);
  }
  return { hosts, networks, text: text ?? '' };
}

type Lookup = (host: string) => Promise<string[]>;

const lookupAll: Lookup = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((answer) => answer.address);

/**
 * Which addresses outbound calls made for callers (connections' base URLs, web fetches) may reach: anything
 * public, plus what the operator allows. Checked when a URL is stored, and again on every connection, on the
 * address actually dialled (a DNS answer can change between the two).
 */
export class OutboundPolicy {
  constructor(
    private readonly allow: AllowList,
    private readonly resolve: Lookup = lookupAll,
  ) {}

  /** Whether an address may be called: public, or inside a range the operator allows. */
  allowsAddress(address: string): boolean {
    const bare = address.replace(/^\[|\]$/g, '');
    if (!isInternalAddress(bare)) return true;
    const family = isIP(bare);
    return family !== 0 && this.allow.networks.check(bare, family === 4 ? 'ipv4' : 'ipv6');
  }

  /**
   * The addresses to dial for `hostname`: refused with `InternalAddressError` when any of them is internal and
   * not allowed (a name with one bad answer is refused whole, so a rebinding resolver cannot pick).
   * A host name the operator allows is trusted as named.
   */
  async addresses(hostname: string): Promise<string[]> {
    const host = hostname
      .replace(/^\[|\]$/g, '')
      .toLowerCase()
      .replace(/\.$/, '');
    if (isIP(host)) {
      if (!this.allowsAddress(host)) throw new InternalAddressError(host, host);
      return [host];
    }
    const answers = await this.resolve(host);
    if (this.allow.hosts.has(host)) return answers;
    const inside = answers.find((address) => !this.allowsAddress(address));
    if (inside !== undefined) throw new InternalAddressError(host, inside);
    return answers;
  }

  /**
   * The same check for node's own http and https clients (their `lookup` option), for libraries that do not take an
   * undici dispatcher. Node does not look up an address written in the URL: check that one with `allowsAddress`.
   */
  lookup(): LookupFunction {
    return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      this.addresses(hostname).then(
        (addresses) =>
          options.all
            ? callback(
                null,
                addresses.map((address) => ({ address, family: isIP(address) })),
              )
            : callback(null, addresses[0], isIP(addresses[0])),
        (error: Error) => callback(error, '', 0),
      );
    }) as unknown as LookupFunction;
  }

  /**
   * An undici connector that resolves and checks the host itself, then dials the checked address (TLS still
   * verifies the certificate for the host name): no socket is ever opened to a refused address.
   */
  connector(): buildConnector.connector {
    const dial = buildConnector({});
    return (options, callback) => {
      this.addresses(options.hostname).then(
        ([address]) => {
          const named = isIP(options.hostname.replace(/^\[|\]$/g, '')) === 0;
          dial(
            {
              ...options,
              hostname: address,
              servername: options.servername ?? (named ? options.hostname : undefined),
            },
            callback,
          );
        },
        (error: Error) => callback(error, null),
      );
    };
  }
}

import { Injectable } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { InvalidRequestError } from '@/common/errors';
import { ulidId } from '@/common/ids';
import { usdToMicroCents } from '@/common/money';
import { OutboundPolicy } from '@/common/net/outbound-policy';
import { SEARCH_PROTOCOLS, searchBaseUrl } from '@/common/web-search/web-search';
import { SearchKind, SearchTarget } from '@/common/web-search/web-search.types';
import { Transactions } from '@/database/transaction';
import { AuditService } from '../audit/audit.service';
import { Actor } from '../console-access/actor';
import { lastFour } from './connections.service';
import { SearchProviderNotFoundError } from './connections.errors';
import { CredentialCipher } from './credential-cipher';
import { checkReachable } from './reachable-base-url';
import { SearchProviderEntity } from './search-provider.entity';
import { SearchProvidersRepository } from './search-providers.repository';

export interface NewSearchProvider {
  kind: SearchKind;
  name?: string;
  baseUrl?: string;
  apiKey?: string;
  /** USD per 1,000 searches. */
  pricePer1000?: number;
}

export type SearchProviderChanges = Partial<Omit<NewSearchProvider, 'kind'>>;

/** What the gateway needs for one search: where it goes (the key decrypted; never log it) and its price. */
export interface GatewaySearchProvider {
  id: string;
  target: SearchTarget;
  pricePer1000MicroCents: bigint;
}

const trimmed = (url: string) => url.replace(/\/+$/, '');

/** A workspace's web search providers: the console's CRUD (owners and admins) and the gateway's lookup. */
@Injectable()
export class SearchProvidersService {
  constructor(
    private readonly providers: SearchProvidersRepository,
    private readonly transactions: Transactions,
    private readonly cipher: CredentialCipher,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly outbound: OutboundPolicy,
  ) {}

  async create(actor: Actor, workspaceId: string, input: NewSearchProvider): Promise<SearchProviderEntity> {
    const protocol = SEARCH_PROTOCOLS[input.kind];
    if (!protocol.defaultBaseUrl && !input.baseUrl)
      throw new InvalidRequestError(
        `base_url: ${input.kind === 'searxng' ? 'SearXNG' : input.kind} is self-hosted: give its address`,
        'base_url',
      );
    if (protocol.needsKey && !input.apiKey)
      throw new InvalidRequestError(`api_key: ${input.kind} needs an API key`, 'api_key');
    if (!protocol.needsKey && input.apiKey)
      throw new InvalidRequestError(`api_key: ${input.kind} takes no API key`, 'api_key');
    if (input.baseUrl) await checkReachable(this.outbound, input.baseUrl);
    const now = this.clock.now();
    const id = ulidId('srch', now);
    const provider: SearchProviderEntity = {
      id,
      workspaceId,
      name: input.name ?? input.kind,
      kind: input.kind,
      baseUrl: input.baseUrl ? trimmed(input.baseUrl) : null,
      credentialCipher: input.apiKey ? this.cipher.encrypt(input.apiKey, { workspaceId, id }) : null,
      credentialLast4: input.apiKey ? lastFour(input.apiKey) : null,
      pricePer1000MicroCents: usdToMicroCents(input.pricePer1000 ?? 0).toString(),
      createdBy: actor.id ?? 'system',
      createdAt: new Date(now),
      updatedAt: new Date(now),
    };
    await this.transactions.run(async (tx) => {
      await this.providers.add(tx, provider);
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'search_provider.created',
        target: { type: 'search_provider', id },
        details: {
          name: provider.name,
          kind: provider.kind,
          base_url: searchBaseUrl({ kind: provider.kind, baseUrl: provider.baseUrl ?? undefined }) ?? null,
          price_per_1000: input.pricePer1000 ?? 0,
        },
      });
    });
    return provider;
  }

  list(workspaceId: string): Promise<SearchProviderEntity[]> {
    return this.providers.ofWorkspace(workspaceId);
  }

  async get(workspaceId: string, id: string): Promise<SearchProviderEntity> {
    const provider = await this.providers.find(workspaceId, id);
    if (!provider) throw new SearchProviderNotFoundError(id);
    return provider;
  }

  /** Applies the members present; a new `api_key` replaces the stored one (write-only). */
  async update(
    actor: Actor,
    workspaceId: string,
    id: string,
    changes: SearchProviderChanges,
  ): Promise<SearchProviderEntity> {
    if (changes.baseUrl) await checkReachable(this.outbound, changes.baseUrl);
    return this.transactions.run(async (tx) => {
      const current = await this.providers.lock(tx, workspaceId, id);
      if (!current) throw new SearchProviderNotFoundError(id);
      const next: SearchProviderEntity = { ...current };
      const changed: string[] = [];
      if (changes.name !== undefined && changes.name !== current.name) {
        next.name = changes.name;
        changed.push('name');
      }
      if (changes.baseUrl !== undefined && trimmed(changes.baseUrl) !== current.baseUrl) {
        next.baseUrl = trimmed(changes.baseUrl);
        changed.push('base_url');
      }
      if (changes.apiKey !== undefined) {
        if (!SEARCH_PROTOCOLS[current.kind].needsKey)
          throw new InvalidRequestError(`api_key: ${current.kind} takes no API key`, 'api_key');
        next.credentialCipher = this.cipher.encrypt(changes.apiKey, { workspaceId, id });
        next.credentialLast4 = lastFour(changes.apiKey);
        changed.push('api_key');
      }
      if (changes.pricePer1000 !== undefined) {
        next.pricePer1000MicroCents = usdToMicroCents(changes.pricePer1000).toString();
        if (next.pricePer1000MicroCents !== current.pricePer1000MicroCents) changed.push('price_per_1000');
      }
      if (changed.length === 0) return current;
      next.updatedAt = new Date(this.clock.now());
      await this.providers.save(tx, next);
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'search_provider.updated',
        target: { type: 'search_provider', id },
        details: {
          changed,
          ...(changed.includes('name') ? { name: next.name } : {}),
          ...(changed.includes('base_url') ? { base_url: next.baseUrl } : {}),
          ...(changed.includes('price_per_1000') ? { price_per_1000: changes.pricePer1000 } : {}),
        },
      });
      return next;
    });
  }

  async remove(actor: Actor, workspaceId: string, id: string): Promise<void> {
    await this.transactions.run(async (tx) => {
      const removed = await this.providers.remove(tx, workspaceId, id);
      if (!removed) throw new SearchProviderNotFoundError(id);
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'search_provider.deleted',
        target: { type: 'search_provider', id },
        details: { name: removed.name },
      });
    });
  }

  /** The provider with its key decrypted, for the gateway; `SearchProviderNotFoundError` for another workspace's. */
  async forGateway(workspaceId: string, id: string): Promise<GatewaySearchProvider> {
    const row = await this.get(workspaceId, id);
    return {
      id: row.id,
      target: {
        kind: row.kind,
        ...(row.baseUrl ? { baseUrl: row.baseUrl } : {}),
        ...(row.credentialCipher
          ? { apiKey: this.cipher.decrypt(row.credentialCipher, { workspaceId, id }) }
          : {}),
      },
      pricePer1000MicroCents: BigInt(row.pricePer1000MicroCents),
    };
  }
}

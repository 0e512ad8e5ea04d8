import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Transaction } from '@/database/transaction';
import { SearchProviderEntity } from './search-provider.entity';

/** The `search_provider` table: a workspace's web search providers, always read within their workspace. */
@Injectable()
export class SearchProvidersRepository {
  constructor(
    @InjectRepository(SearchProviderEntity) private readonly providers: Repository<SearchProviderEntity>,
  ) {}

  async add(tx: Transaction, provider: SearchProviderEntity): Promise<void> {
    await tx.insert(SearchProviderEntity, provider);
  }

  /** The workspace's search providers, oldest first. */
  ofWorkspace(workspaceId: string): Promise<SearchProviderEntity[]> {
    return this.providers.find({ where: { workspaceId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  find(workspaceId: string, id: string): Promise<SearchProviderEntity | null> {
    return this.providers.findOneBy({ id, workspaceId });
  }

  /** The provider, locked until `tx` ends; null when the workspace has none by that id. */
  lock(tx: Transaction, workspaceId: string, id: string): Promise<SearchProviderEntity | null> {
    return tx.findOne(SearchProviderEntity, {
      where: { id, workspaceId },
      lock: { mode: 'pessimistic_write' },
    });
  }

  async save(tx: Transaction, provider: SearchProviderEntity): Promise<void> {
    await tx.update(
      SearchProviderEntity,
      { id: provider.id, workspaceId: provider.workspaceId },
      {
        name: provider.name,
        baseUrl: provider.baseUrl,
        credentialCipher: provider.credentialCipher,
        credentialLast4: provider.credentialLast4,
        pricePer1000MicroCents: provider.pricePer1000MicroCents,
        updatedAt: provider.updatedAt,
      },
    );
  }

  /** Deletes the provider: its name, or null when the workspace had none by that id. */
  async remove(tx: Transaction, workspaceId: string, id: string): Promise<{ name?: string } | null> {
    const removed = await tx
      .createQueryBuilder()
      .delete()
      .from(SearchProviderEntity)
      .where({ id, workspaceId })
      .returning(['name'])
      .execute();
    if (!removed.affected) return null;
    return { name: (removed.raw as Array<{ name: string }>)[0]?.name };
  }
}

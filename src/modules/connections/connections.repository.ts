import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Transaction } from '@/database/transaction';
import { ConnectionEntity } from './connection.entity';

/** The `connection` table: a workspace's connections, always read within their workspace. */
@Injectable()
export class ConnectionsRepository {
  constructor(
    @InjectRepository(ConnectionEntity) private readonly connections: Repository<ConnectionEntity>,
  ) {}

  async add(tx: Transaction, connection: ConnectionEntity): Promise<void> {
    await tx.insert(ConnectionEntity, connection);
  }

  /** The workspace's connections, oldest first. */
  ofWorkspace(workspaceId: string): Promise<ConnectionEntity[]> {
    return this.connections.find({ where: { workspaceId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  find(workspaceId: string, id: string): Promise<ConnectionEntity | null> {
    return this.connections.findOneBy({ id, workspaceId });
  }

  /** The connection, locked until `tx` ends; null when the workspace has none by that id. */
  lock(tx: Transaction, workspaceId: string, id: string): Promise<ConnectionEntity | null> {
    return tx.findOne(ConnectionEntity, { where: { id, workspaceId }, lock: { mode: 'pessimistic_write' } });
  }

  /** Writes every member a change may touch. */
  async save(tx: Transaction, connection: ConnectionEntity): Promise<void> {
    await tx.update(
      ConnectionEntity,
      { id: connection.id, workspaceId: connection.workspaceId },
      {
        name: connection.name,
        baseUrl: connection.baseUrl,
        schema: connection.schema,
        authMode: connection.authMode,
        authHeader: connection.authHeader,
        credentialCipher: connection.credentialCipher,
        credentialLast4: connection.credentialLast4,
        models: connection.models as never,
        updatedAt: connection.updatedAt,
      },
    );
  }

  /** Deletes the connection: what it was named, or null when the workspace had none by that id. */
  async remove(tx: Transaction, workspaceId: string, id: string): Promise<{ name?: string } | null> {
    const removed = await tx
      .createQueryBuilder()
      .delete()
      .from(ConnectionEntity)
      .where({ id, workspaceId })
      .returning(['name'])
      .execute();
    if (!removed.affected) return null;
    return { name: (removed.raw as Array<{ name: string }>)[0]?.name };
  }
}
